"""``{% qr_svg value "title" %}``: a QR code of ``value`` as inline SVG (ops.qr)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from ops.qr import qr_svg as make_svg

register = template.Library()


@register.simple_tag
def qr_svg(value: str, title: str = "") -> SafeString:
    # segno escapes the title it writes; the data itself is encoded, never written as text.
    return mark_safe(make_svg(str(value), str(title)))


@register.simple_tag(takes_context=True)
def qr_link(context: template.Context, path: str, title: str = "") -> SafeString:
    """A QR code of this site's absolute address for ``path`` (as the reader reached it)."""
    request = context["request"]
    return mark_safe(make_svg(request.build_absolute_uri(path), str(title)))
