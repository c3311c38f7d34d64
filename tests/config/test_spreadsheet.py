"""config.spreadsheet: every CSV the site writes is safe to open in a spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns.groups.services import create_group, fill_in_session
from campaigns.history import exports
from campaigns.play.services import record_attempt
from config.spreadsheet import SafeWriter, neutralise


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+31 6 1234", "'+31 6 1234"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("Ann", "Ann"),
        ("a=b", "a=b"),
        ("", ""),
        (-3, -3),
        (2.5, 2.5),
    ],
)
def test_a_text_cell_a_spreadsheet_would_run_gets_a_leading_apostrophe(
    cell: object, written: object
) -> None:
    assert neutralise(cell) == written


def test_the_writer_neutralises_every_cell_of_a_row() -> None:
    writer = SafeWriter()
    writer.writerow(["=cmd|' /C calc'!A0", "ok", "@x", 7])
    assert list(csv.reader(io.StringIO(writer.getvalue()))) == [
        ["'=cmd|' /C calc'!A0", "ok", "'@x", "7"]
    ]


@pytest.mark.django_db
def test_the_attempts_export_cannot_carry_a_formula(
    alice: User, login: Callable[[User], Client]
) -> None:
    group = create_group(alice, "Tuesday", ['=HYPERLINK("http://x")', "Ben"])
    campaign = group.current_campaign()
    opener = group.players.get(name__startswith="=")
    session = fill_in_session(campaign, list(group.players.all()))
    record_attempt(
        campaign,
        alice,
        "1-1",
        "failed",
        2,
        session=session,
        opener=opener,
        duration=timedelta(minutes=3),
        notes="@SUM(1+1)*cmd",
    )
    for text in (
        exports.attempts_csv(group),
        login(alice).get(f"/groups/{group.pk}/export.csv").content.decode(),
    ):
        rows = list(csv.reader(io.StringIO(text)))
        header, row = rows[0], rows[1]
        assert row[header.index("opener")] == '\'=HYPERLINK("http://x")'
        assert row[header.index("notes")] == "'@SUM(1+1)*cmd"
        assert all(not cell.startswith(("=", "+", "-", "@")) for cell in row)


def test_every_csv_of_the_site_is_written_through_the_safe_writer() -> None:
    """A new CSV written with csv.writer directly would skip the guard."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    offenders = [
        str(path.relative_to(root))
        for folder in ("accounts", "campaigns", "config", "ops", "solver")
        for path in (root / folder).rglob("*.py")
        if "csv.writer(" in path.read_text() and path.name != "spreadsheet.py"
    ]
    assert offenders == []
