"""QR codes as SVG, made on the server with segno: no CDN, no script, no inline style (the
Content-Security-Policy refuses them; segno writes presentation attributes only)."""

from __future__ import annotations

import io

import segno


def qr_svg(data: str, title: str = "") -> str:
    """An SVG QR code of ``data`` that scales with its CSS box (class ``qr``): dark modules
    on a white square with a quiet zone, readable in dark mode too."""
    code = segno.make(data, error="m")
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=True,
        omitsize=True,
        border=2,
        dark="#000",
        light="#fff",
        svgclass="qr",
        lineclass=None,
        title=title or None,
    )
    return out.getvalue().decode()
