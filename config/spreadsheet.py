"""CSV that is safe to open in a spreadsheet: every CSV the site writes goes through here.

A cell that starts with ``=``, ``+``, ``-`` or ``@`` is a formula to Excel, LibreOffice and
Google Sheets, so a player called ``=HYPERLINK(...)`` or a note starting with ``@SUM(...)``
would run when the export is opened. Following OWASP's advice on CSV injection, such a text
cell gets a leading apostrophe (which spreadsheets show as text and hide), and so does one
starting with a tab or a carriage return. Numbers are written as they are: a negative number
is a number, not a formula.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(cell: Any) -> Any:
    """The cell, with a leading apostrophe if it is text a spreadsheet would run."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


class SafeWriter:
    """``csv.writer`` over a string buffer whose rows are neutralised cell by cell."""

    def __init__(self) -> None:
        self._out = io.StringIO()
        self._writer = csv.writer(self._out)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([neutralise(cell) for cell in row])

    def getvalue(self) -> str:
        return self._out.getvalue()
