"""Render static/img/icon.svg into the PNG icons the web app manifest lists (192 and 512 px).

Run after changing the SVG: .venv/bin/python scripts/make_icons.py
Uses Debian's Chromium through Playwright (never a downloaded browser).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "static" / "img" / "icon.svg"
SIZES = (192, 512)


def main() -> None:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    svg = SVG.read_text(encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f'<html><body style="margin:0">{sized}</body></html>')
            out = ROOT / "static" / "img" / f"icon-{size}.png"
            page.screenshot(path=str(out), clip={"x": 0, "y": 0, "width": size, "height": size})
            print(f"wrote {out.relative_to(ROOT)}")
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
