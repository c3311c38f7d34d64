"""The front door's three screenshots (static/img/front/), taken from a running Timekeeper.

Usage: .venv/bin/python scripts/front_door_shots.py BASE_URL USERNAME PASSWORD GROUP_ID HINT_ID
e.g. against `make serve` after `manage.py seed_demo --groups 1 --attempts 80 --seed 3`, an
owner added to that group and one hint asked for it. Each shot is a 390 x 560 phone view
(Debian's Chromium, headless), saved as PNG; the script prints the sizes (keep each under
100 KB: the front door is the first page a visitor loads).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from playwright.sync_api import ViewportSize, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "static" / "img" / "front"
SIZE: ViewportSize = {"width": 390, "height": 560}


def main() -> int:
    base, username, password, group, hint = sys.argv[1:6]
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=shutil.which("chromium") or "/usr/bin/chromium",
            args=["--headless", "--no-sandbox", "--disable-gpu"],
        )
        context = browser.new_context(viewport=SIZE, locale="en-GB", color_scheme="light")
        page = context.new_page()
        page.goto(f"{base}/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        page.click("button[type=submit].big")
        page.wait_for_url(f"{base}/")
        shots = {
            "board": (f"{base}/groups/{group}/", "#board"),
            "hint": (f"{base}/hints/{hint}/", "#status"),
            "statistics": (f"{base}/groups/{group}/statistics/", "#progress-title"),
        }
        for name, (url, anchor) in shots.items():
            page.goto(url)
            page.wait_for_load_state("networkidle")
            # The part worth showing at the top of the phone's screen.
            page.evaluate(
                "a => { const e = document.querySelector(a); window.scrollTo(0, "
                "e.getBoundingClientRect().top + window.scrollY - 12); }",
                anchor,
            )
            path = OUT / f"{name}.png"
            page.screenshot(path=str(path))
            print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
