"""The statistics page in headless Chromium (fixtures in tests/e2e/conftest.py): a demo
table's history on a phone and on a desktop, in the light and the dark theme; a filter
swaps the figures in place. Screenshots land in var/screens (or $TIMEKEEPER_SCREENS)."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Count

from campaigns import demo
from campaigns.models import Group, Membership
from campaigns.statistics.community import refresh_community
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo_table(transactional_db: None) -> Group:
    alice = User.objects.create_user("alice", password="password")
    demo.seed(8, 2400, seed=7)
    refresh_community()
    # the demo table with the most players shows the most varied player table
    group = Group.objects.annotate(n=Count("players")).order_by("-n", "id").first()
    assert group is not None
    Membership.objects.create(group=group, user=alice, role=Membership.Role.MEMBER)
    return group


def test_the_statistics_page_on_a_phone_and_a_desktop(
    browser: Any, live_server: Any, screenshot: Any, demo_table: Group
) -> None:
    url = f"{live_server.url}/groups/{demo_table.pk}/statistics/"
    for scheme in ("light", "dark"):
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, locale="en-GB", color_scheme=scheme
        )
        page = context.new_page()
        log_in(page, live_server.url)
        page.goto(url)
        assert page.locator("svg.stats-heat g.cell").count() == 40
        # the page fits the phone: nothing wider than the screen but scrolling tables
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
        screenshot(page, f"statistics-phone-390x844-{scheme}")

        page.select_option("select[name=campaign]", "all")
        page.wait_for_selector("#statistics-body >> text=All campaigns")
        assert page.url.endswith("campaign=all&players=")  # swapped in place, URL kept
        page.set_viewport_size({"width": 1280, "height": 900})
        screenshot(page, f"statistics-desktop-1280x900-{scheme}")
        context.close()


def test_every_chart_draws_without_an_error_in_every_language(
    browser: Any, live_server: Any, demo_table: Group
) -> None:
    """A Dutch decimal comma in an SVG attribute is a console error ("Expected length") and
    a bar or whisker that is not drawn."""
    url = f"{live_server.url}/groups/{demo_table.pk}/statistics/?campaign=all"
    errors: list[str] = []
    for lang in ("en", "nl", "ja"):
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.on(
            "console",
            lambda message, lang=lang: (
                errors.append(f"{lang}: {message.text}") if message.type == "error" else None
            ),
        )
        log_in(page, live_server.url)
        context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live_server.url}]
        )
        page.goto(url)
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator("svg.bar-cell line.whisker").count() > 0
        # every whisker is drawn: a line the browser could not read has no width
        widths = page.eval_on_selector_all(
            "svg.bar-cell line.whisker", "lines => lines.map(l => l.x1.baseVal.value)"
        )
        assert any(width > 0 for width in widths)
        context.close()
    assert errors == []
