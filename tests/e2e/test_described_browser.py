"""A rule Timekeeper doesn't know yet, in headless Chromium on a phone, in English, Dutch and
Japanese: the editor adds it in the table's words, the clock face shows it, the live layout
check says "check yourselves", and the hint page warns that the plan does not know it."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from campaigns.groups.services import create_group
from solver import jobs, services
from solver.hint_inputs import parse_input
from solver.models import HintRequest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
PASSING_1_1 = "S1 | S2 | S3 | S4 M1 M2 | S5 M3 M4 | S6 S7 S8"
WORDS = {"en": "Nearest to ten wins", "nl": "Dichtst bij tien wint", "ja": "十に最も近い区画が勝つ"}
SAID = {
    "en": ("Passes every rule Timekeeper knows", "Check yourselves", "adjust it yourselves"),
    "nl": ("Voldoet aan elke regel die Timekeeper kent", "Controleer zelf", "pas het zelf aan"),
    "ja": (
        "Timekeeperが知っているルールはすべて満たしています",
        "自分たちで確認",
        "自分たちで調整",
    ),
}
LOCALES = {"en": "en-GB", "nl": "nl-NL", "ja": "ja-JP"}


def _signed_in(browser: Any, live_server: Any, user: User, lang: str) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=PHONE, locale=LOCALES[lang])
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return context


@pytest.mark.parametrize("lang", ["en", "nl", "ja"])
def test_a_rule_in_the_tables_words_from_the_editor_to_the_hint(
    browser: Any, live_server: Any, screenshot: Any, monkeypatch: Any, lang: str
) -> None:
    alice = User.objects.create_user("alice", password="password")
    group = create_group(alice, "Tuesday table", ["Ann", "Ben", "Cleo"])
    context = _signed_in(browser, live_server, alice, lang)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    words = WORDS[lang]
    passes, check, adjust = SAID[lang]

    # The editor: the last kind offered, typed in the table's words, at segment 3.
    page.goto(f"{live_server.url}/groups/{group.pk}/clocks/1-1/edit/")
    page.select_option("#new_kind", "described")
    page.wait_for_selector("#p_text")
    page.fill("#p_text", words)
    page.select_option("#p_segment", "3")
    page.locator("button[name=action][value=add]").click()
    page.wait_for_selector(f"#editor li:has-text('{words}')")
    screenshot(page, f"described-editor-{lang}-390x844")
    page.locator("button[name=action][value=save]").first.click()
    page.wait_for_url(f"{live_server.url}/groups/{group.pk}/clocks/1-1/")

    # The clock face carries the words (a "?" mark at segment 3, the words in its title).
    face = page.locator("svg.clock-face").first
    assert words in face.inner_html()  # as the table typed them

    # The live check on the group page: every known rule passes, the words are the table's.
    page.goto(f"{live_server.url}/groups/{group.pk}/")
    page.eval_on_selector("textarea[name=layout]", "el => el.closest('details').open = true")
    page.fill("textarea[name=layout]", PASSING_1_1)
    verdict = page.locator("#verdict")
    verdict.locator(f"text={passes}").wait_for()
    assert check in verdict.inner_text()
    assert words in verdict.inner_text()
    screenshot(page, f"described-check-{lang}-390x844")

    # The hint page: the plan does not know the rule, its rates are an upper bound.
    monkeypatch.setattr("solver.jobs.app.send_task", lambda *args, **kwargs: None)
    hint_input = parse_input("1-1", "SSMM/MMSS/SMSM", None, group=group)
    hint, _created = services.request_hint(alice, hint_input, group=group, lang=lang)
    HintRequest.objects.filter(pk=hint.pk).update(effort=0.05, odds_samples=200)
    jobs.run(hint.pk, "task-browser")
    page.goto(f"{live_server.url}/hints/{hint.pk}/")
    page.locator(".ignored-rule").first.wait_for()
    assert adjust in page.locator(".ignored-rule").first.inner_text()
    screenshot(page, f"described-hint-{lang}-390x844")
    context.close()
    assert errors == []
