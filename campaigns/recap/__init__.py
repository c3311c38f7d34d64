"""An evening's recap as a picture: what a session's attempts, skips and hints add up to
(``compute``), laid out once and drawn as a PNG to share and an SVG for the page (``card``),
and the page that serves the PNG (``views``)."""
