"""The local CA's fingerprint as people compare it, and how long the CA is valid.

`make serve` prints the fingerprint on the host's screen (scripts/serve.py) and /trust/ shows
it on the phone (ops.views.trust): the same 16 groups of four hex digits in both places, so a
person can read one aloud and check the other before the phone trusts the CA. Plain Python
(make serve calls it before Django starts).
"""

from __future__ import annotations

import hashlib
import ssl
import tempfile
from pathlib import Path


def grouped_sha256(pem: str) -> str:
    """SHA-256 of a PEM certificate as 16 groups of four hex digits: "3F2A 09C1 …"."""
    digest = hashlib.sha256(ssl.PEM_cert_to_DER_cert(pem)).hexdigest().upper()
    return " ".join(digest[i : i + 4] for i in range(0, len(digest), 4))


def valid_years(pem: str) -> int | None:
    """Whole years between the certificate's notBefore and notAfter, or None if unreadable.
    (Python's ssl module decodes a certificate only from a file, through a private helper.)"""
    decode = getattr(ssl._ssl, "_test_decode_cert", None)  # type: ignore[attr-defined]
    if decode is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ca.pem"
        path.write_text(pem)
        try:
            fields = decode(str(path))
            seconds = ssl.cert_time_to_seconds(fields["notAfter"]) - ssl.cert_time_to_seconds(
                fields["notBefore"]
            )
        except (ssl.SSLError, KeyError, ValueError):
            return None
    return round(seconds / (365.25 * 86400))
