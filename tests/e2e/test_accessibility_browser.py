"""An axe-core audit (axe-playwright-python, which bundles axe-core: no CDN) of every page a
signed-in member can open, in English, Dutch and Japanese, at 390 and 1280 px, light and
dark. Any violation of impact moderate or above fails the test, with the page, the rule and
the element.

Each page is loaded once per language; the four looks (two widths, two colour schemes) are
audited on the same load by resizing and emulating ``prefers-color-scheme``, so the audit
stays within a few minutes on a small machine. Any error in the browser's console (an SVG
number it cannot read, a refused script) fails it too. What axe cannot judge (keyboard
order, live announcements, reduced motion, touch targets) is tested in
test_keyboard_browser.py."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.contrib.auth.models import User

from campaigns.models import HistoryImport
from solver import jobs
from solver import services as hint_services
from solver.hint_inputs import parse_input
from tests.e2e.conftest import DESKTOP, PHONE
from tests.evening import an_evening

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["en", "nl", "ja"]
LOOKS = [(PHONE, "light"), (PHONE, "dark"), (DESKTOP, "light"), (DESKTOP, "dark")]
FAILING_IMPACTS = {"moderate", "serious", "critical"}
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


@pytest.fixture
def member_pages(
    live_server: Any, settings: Any, monkeypatch: Any
) -> Iterator[tuple[User, list[str]]]:
    """A group some way into the game, a finished hint, an import under way: and every page
    of the permission matrix its owner can open with GET (not the API, not downloads)."""
    settings.HINT_EFFORT = 0.05
    settings.HINT_ODDS_SAMPLES = 50
    monkeypatch.setattr("solver.jobs.app.send_task", lambda *args, **kwargs: None)
    alice = User.objects.create_user("alice", password="password")
    bob = User.objects.create_user("bob", password="password")
    evening = an_evening(alice, bob)
    group = evening.group
    hint, _created = hint_services.request_hint(
        alice, parse_input("1-3", "SSMM/MMSS/SMSM", None), group=group, campaign=evening.campaign
    )
    jobs.run(hint.pk, "audit")
    hint.refresh_from_db()
    assert hint.result and hint.result["alternatives"], "the plan tabs are audited too"
    started = HistoryImport.objects.create(owner=alice, events_total=500)
    yield (
        alice,
        [
            *evening.pages(),
            f"/join/{group.invite_token}/",
            f"/imports/{started.pk}/",
            f"/hints/{hint.pk}/",
            "/accounts/password_change/done/",
        ],
    )


def _audit(page: Any) -> list[str]:
    # What a tap opens is audited too: folded sections (the typed colours, the tables).
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    page.evaluate(AXE_SCRIPT)
    found = []
    for viewport, scheme in LOOKS:
        page.set_viewport_size(viewport)
        page.emulate_media(color_scheme=scheme)
        # The dark scheme changes colours only (timekeeper.css and friends): its looks are
        # audited for the colour rules; the light ones for every rule.
        options = {"resultTypes": ["violations"]}
        if scheme == "dark":
            options["runOnly"] = COLOUR_RULES
        results = page.evaluate("options => axe.run(document, options)", options)
        for violation in results["violations"]:
            if violation["impact"] not in FAILING_IMPACTS:
                continue
            for node in violation["nodes"]:
                summary = " ".join(node.get("failureSummary", "").split())[:220]
                found.append(
                    f"{viewport['width']}px {scheme}: {violation['id']} ({violation['impact']})"
                    f" at {' '.join(map(str, node['target']))}: {summary}"
                )
    return found


def test_every_member_page_passes_axe(
    phones: Callable[..., Any], live_server: Any, member_pages: tuple[User, list[str]]
) -> None:
    alice, pages = member_pages
    violations: list[str] = []
    errors: list[str] = []  # in the console: a chart the browser could not draw, a refusal
    for lang in LANGUAGES:
        context = phones(alice, lang=lang)
        page = context.new_page()
        page.on(
            "console",
            lambda message, lang=lang, page=page: (
                errors.append(f"{lang} {page.url}: {message.text}")
                if message.type == "error"
                else None
            ),
        )
        try:
            for path in pages:
                page.set_viewport_size(PHONE)
                response = page.goto(f"{live_server.url}{path}")
                assert response is not None and response.ok, (
                    f"{path}: {response and response.status}"
                )
                assert page.locator("html").get_attribute("lang") == lang
                page.wait_for_load_state("networkidle")
                violations += [f"{lang} {path} {line}" for line in _audit(page)]
        finally:
            context.close()  # before the next language (the fixture closes it again, harmlessly)
    assert not violations, f"{len(violations)} axe violations:\n" + "\n".join(violations)
    assert errors == []
