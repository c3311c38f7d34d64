"""No page scrolls sideways on a 390-px phone, in any language: Dutch words are long, and a
table at the game cannot pinch and pan while the others wait."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.e2e.conftest import PHONE
from tests.evening import an_evening

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["en", "nl", "ja"]


@pytest.fixture
def pages_to_scroll(live_server: Any) -> Iterator[tuple[Any, list[str]]]:
    """A group some way into the game (a retried clock, the Sleeve, a session) and its pages."""
    alice = User.objects.create_user("alice", password="password")
    evening = an_evening(alice, second="failed")
    pages = [*evening.pages(), f"/groups/{evening.group.pk}/clocks/1-2/edit/"]
    yield alice, pages


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_is_wider_than_a_phone(
    phones: Callable[..., Any], live_server: Any, pages_to_scroll: tuple[Any, list[str]], lang: str
) -> None:
    alice, pages = pages_to_scroll
    context = phones(alice, lang=lang)
    page = context.new_page()
    too_wide = []
    for path in pages:
        page.goto(f"{live_server.url}{path}")
        assert page.locator("html").get_attribute("lang") == lang
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            too_wide.append(f"{path}: {width}px")
    assert not too_wide, f"pages wider than {PHONE['width']}px in {lang}: {too_wide}"
