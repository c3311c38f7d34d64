"""Everything a person sees exists in English, Dutch and Japanese."""

from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("lang", ["nl", "ja"])
def test_every_message_is_translated(lang: str) -> None:
    po = polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"))
    untranslated = [e.msgid for e in po.untranslated_entries() if not e.obsolete]
    assert untranslated == [], "run `make messages` after adding to locale/src/*.json"
    assert [e.msgid for e in po.fuzzy_entries()] == []
