"""The recap card, laid out once and drawn twice: a PNG a phone shares (Pillow, with the
vendored IPAexGothic so Japanese is not tofu) and an SVG for the session page.

The layout measures every line with the vendored font and shortens what would not fit, so
both drawings hold the same words at the same places. The PNG carries pixels only: no EXIF,
no text chunks, nothing about the group beyond the names it typed.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from PIL import Image, ImageDraw, ImageFont

from campaigns.recap.compute import Recap, recap_heading, recap_rows

# Vendored with its licence (static/fonts/IPA_Font_License_Agreement_v1.0.txt): never a
# system font, so every machine draws the same card.
FONT = Path(settings.BASE_DIR) / "static" / "fonts" / "IPAexGothic.ttf"
WIDTH, HEIGHT, MARGIN = 1080, 1350, 72
BACKGROUND, INK, MUTED, ACCENT = "#15233b", "#ffffff", "#b8c4d9", "#f2c14e"
# The page's SVG may be set in another font than the one measured: keep a tenth spare.
ROOM = (WIDTH - 2 * MARGIN) * 0.9


@dataclass(frozen=True)
class Text:
    x: int
    y: int  # the baseline
    size: int
    fill: str
    text: str


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), size)


def _fit(text: str, size: int) -> str:
    """``text``, shortened with an ellipsis until it fits the card's width."""
    font = _font(size)
    if font.getlength(text) <= ROOM:
        return text
    while text and font.getlength(text + "…") > ROOM:
        text = text[:-1]
    return text.rstrip() + "…"


def layout(recap: Recap) -> list[Text]:
    """Every line of the card, placed: the heading, who played, then one label and value per
    row of ``recap_rows`` (in the active language), and the footer."""
    title, subtitle = recap_heading(recap)
    items = [
        Text(MARGIN, 130, 60, ACCENT, _fit(title, 60)),
        Text(MARGIN, 200, 36, INK, _fit(subtitle, 36)),
    ]
    if recap.players:
        items.append(Text(MARGIN, 252, 32, MUTED, _fit(", ".join(recap.players), 32)))
    y = 340
    for row in recap_rows(recap):
        items.append(Text(MARGIN, y, 34, MUTED, _fit(row.label, 34)))
        items.append(Text(MARGIN, y + 54, 46, INK, _fit(row.value, 46)))
        y += 132
    items.append(Text(MARGIN, HEIGHT - 48, 30, MUTED, "Timekeeper · Take Time"))
    return items


def png(recap: Recap) -> bytes:
    """The card as PNG bytes, without metadata."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((MARGIN, 290, WIDTH - MARGIN, 294), fill=ACCENT)
    for item in layout(recap):
        draw.text((item.x, item.y), item.text, font=_font(item.size), fill=item.fill, anchor="ls")
    out = io.BytesIO()
    image.save(out, format="PNG")  # optimize=True: 3x the time for 3% fewer bytes
    return out.getvalue()


def svg(recap: Recap, title_id: str = "recap-title") -> SafeString:
    """The card as inline SVG for the page: the same lines, escaped, with a title and a
    description that say it all to a screen reader."""
    items = layout(recap)
    desc = " ".join(f"{r.label}: {r.value}." for r in recap_rows(recap))
    parts = [
        f'<svg class="recap-card" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{title_id} {title_id}-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{title_id}">{escape(items[0].text)} — {escape(items[1].text)}</title>',
        f'<desc id="{title_id}-desc">{escape(desc)}</desc>',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{BACKGROUND}"/>',
        f'<rect x="{MARGIN}" y="290" width="{WIDTH - 2 * MARGIN}" height="4" fill="{ACCENT}"/>',
    ]
    for item in items:
        parts.append(
            f'<text x="{item.x}" y="{item.y}" font-size="{item.size}" fill="{item.fill}" '
            f'aria-hidden="true">{escape(item.text)}</text>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above went through escape()
