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


def test_no_two_translation_files_word_a_message_differently() -> None:
    # Each area keeps its own locale/src/<area>.json; when two list the same msgid, the one
    # read last wins in the .po file, so a disagreement silently changes what people read
    # (the Dutch chapter map once said "Rebirth" where every other page said "Wedergeboorte").
    import json

    words: dict[tuple[str, str], dict[str, list[str]]] = {}
    for path in sorted((ROOT / "locale" / "src").glob("*.json")):
        for msgid, translations in json.loads(path.read_text(encoding="utf-8")).items():
            for lang, text in translations.items():
                said = json.dumps(text, ensure_ascii=False)
                words.setdefault((msgid, lang), {}).setdefault(said, []).append(path.name)
    disagreements = {key: said for key, said in words.items() if len(said) > 1}
    assert disagreements == {}


@pytest.mark.parametrize("lang", ["nl", "ja"])
def test_every_translation_shipped_is_one_a_person_wrote(lang: str) -> None:
    # makemessages fills a new msgid with a guess from a similar one (flagged fuzzy); once the
    # flag was dropped, Dutch and Japanese forms said "This player is already listed." for
    # "This field is required.". Every msgstr must be the one locale/src/*.json gives.
    import json

    sources: dict[str, dict[str, object]] = {}
    for path in sorted((ROOT / "locale" / "src").glob("*.json")):
        for msgid, translations in json.loads(path.read_text(encoding="utf-8")).items():
            sources.setdefault(msgid, {}).update(translations)
    po = polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"))
    guessed = []
    for entry in po:
        if entry.obsolete:
            continue
        written = sources.get(entry.msgid, {}).get(lang)
        shipped: object = (
            [entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural)]
            if entry.msgid_plural
            else entry.msgstr
        )
        if shipped != written:
            guessed.append(entry.msgid)
    assert guessed == [], "translate these in locale/src/*.json, then run `make messages`"
