"""The evening's recap (campaigns/recap): its figures, the PNG and the SVG, who may see them."""

from __future__ import annotations

import io
import struct
from collections.abc import Callable

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation
from PIL import Image, ImageDraw

from campaigns.groups.services import fill_in_session
from campaigns.models import Campaign, Group, Session
from campaigns.play.services import record_attempt
from campaigns.recap import card
from campaigns.recap.compute import recap_rows, session_recap

pytestmark = pytest.mark.django_db
AsRole = Callable[[str], Client]


def test_the_recap_adds_up_the_evening(recap_evening: Session) -> None:
    recap = session_recap(recap_evening)
    assert (recap.passed, recap.failed, recap.chapter) == (2, 3, 1)
    assert recap.bonus_tokens == 0 + 1 + 2 + 0 + 0  # the tokens each attempt was played with
    assert recap.sleeve == ["1-2"]
    assert (recap.hardest, recap.hardest_failures, recap.hardest_passed) == ("1-1", 2, True)
    assert recap.openers == [("Ann", 2), ("Ben", 1)]
    assert [(h.clock, h.predicted, h.passed) for h in recap.hints] == [("1-1", 0.62, False)]
    assert recap.players == ["Ann", "Ben", "Cleo"]


def test_the_recap_is_worded_in_the_readers_language(recap_evening: Session) -> None:
    with translation.override("nl"):
        rows = {r.label: r.value for r in recap_rows(session_recap(recap_evening))}
    assert rows["Moeilijkste klok"] == "1-1, gehaald na 2 mislukkingen"
    assert rows["Klokken"] == "2 gehaald · 3 mislukt"


def test_an_evening_without_failures_or_hints_says_so(
    group: Group, campaign: Campaign, alice: User
) -> None:
    session = fill_in_session(campaign, list(group.players.all()))
    record_attempt(campaign, alice, "1-1", "passed", 3)
    rows = {r.label: r.value for r in recap_rows(session_recap(session))}
    assert rows["Hardest clock"] == "none: no clock failed"
    assert rows["Hints"] == "none asked" and rows["Who opened"] == "not recorded"


def _chunks(data: bytes) -> list[bytes]:
    """The PNG's chunk types, in order."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    kinds, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kinds.append(data[at + 4 : at + 8])
        at += 12 + length
    return kinds


@pytest.mark.parametrize("role", ["owner", "member", "viewer"])
def test_members_get_the_picture_as_a_png_without_metadata(
    recap_evening: Session, group: Group, as_role: AsRole, role: str
) -> None:
    response = as_role(role).get(f"/groups/{group.pk}/sessions/{recap_evening.pk}/recap.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert (
        f"timekeeper-recap-{recap_evening.date.isoformat()}.png" in response["Content-Disposition"]
    )
    assert set(_chunks(response.content)) == {b"IHDR", b"IDAT", b"IEND"}  # no eXIf, no text
    image = Image.open(io.BytesIO(response.content))
    assert image.size == (card.WIDTH, card.HEIGHT) and not image.getexif()


def test_others_get_404_and_the_signed_out_log_in(
    recap_evening: Session, group: Group, as_role: AsRole
) -> None:
    url = f"/groups/{group.pk}/sessions/{recap_evening.pk}/recap.png"
    assert as_role("outsider").get(url).status_code == 404
    assert "/login/" in Client().get(url)["Location"]


def test_a_session_of_another_group_is_404(
    recap_evening: Session, group: Group, as_role: AsRole, charlie: User
) -> None:
    from campaigns.groups.services import create_group

    other = create_group(charlie, "Elsewhere", ["Zoe"])
    url = f"/groups/{other.pk}/sessions/{recap_evening.pk}/recap.png"
    assert as_role("outsider").get(url).status_code == 404


def test_the_picture_answers_405_to_post(
    recap_evening: Session, group: Group, as_role: AsRole
) -> None:
    url = f"/groups/{group.pk}/sessions/{recap_evening.pk}/recap.png"
    assert as_role("owner").post(url).status_code == 405


def test_a_japanese_card_has_a_glyph_for_every_character(recap_evening: Session) -> None:
    """No tofu: every character of the Japanese card is drawn by a glyph of the vendored font,
    not by the box it draws for characters it lacks."""
    with translation.override("ja"):
        texts = [item.text for item in card.layout(session_recap(recap_evening))]
    font = card._font(40)

    def drawn(character: str) -> bytes:
        image = Image.new("L", (64, 64))
        ImageDraw.Draw(image).text((8, 8), character, font=font, fill=255)
        return image.tobytes()

    missing = drawn("\U0010fffd")  # a private-use point: the box of a missing glyph
    characters = {c for text in texts for c in text if not c.isspace()}
    assert any("\u3040" <= c <= "\u30ff" for c in characters)  # kana: Japanese indeed
    assert [c for c in characters if drawn(c) == missing] == []


def test_the_card_uses_the_vendored_font_and_its_licence() -> None:
    fonts = settings.BASE_DIR / "static" / "fonts"
    assert card.FONT.parent == fonts and card.FONT.is_file()
    assert card.FONT.stat().st_size <= 6.5 * 2**20
    assert "IPA Font License Agreement v1.0" in (
        fonts / "IPA_Font_License_Agreement_v1.0.txt"
    ).read_text(encoding="utf-8")


def test_the_session_page_shows_the_card_with_names_escaped(
    recap_evening: Session, group: Group, as_role: AsRole
) -> None:
    group.players.filter(name="Cleo").update(name="<b>Cleo</b>")
    client = as_role("member")
    client.cookies["django_language"] = "ja"
    content = client.get(f"/groups/{group.pk}/sessions/{recap_evening.pk}/").content.decode()
    assert '<svg class="recap-card"' in content and "わたしたちの Take Time の夜" in content
    assert "&lt;b&gt;Cleo&lt;/b&gt;" in content and "<b>Cleo</b>" not in content
    assert f'href="/groups/{group.pk}/sessions/{recap_evening.pk}/recap.png" download=' in content


def test_the_group_page_links_tonights_recap(
    recap_evening: Session, group: Group, as_role: AsRole
) -> None:
    content = as_role("member").get(f"/groups/{group.pk}/").content.decode()
    assert f'href="/groups/{group.pk}/sessions/{recap_evening.pk}/#recap"' in content
