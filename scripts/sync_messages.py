"""Refresh locale/{nl,ja}/LC_MESSAGES/django.po from the code and fill in the translations.

Translations are kept per area in locale/src/<area>.json as {"msgid": {"nl": …, "ja": …}}
so that people working on different apps never edit the same .po file. This script:
1. runs `makemessages` for nl and ja (the .po files then list every msgid in use);
2. fills each msgstr from the JSON files (plural entries: {"nl": [one, other], "ja": [other]});
   a msgid the JSON files do not translate gets an empty msgstr, whatever makemessages guessed;
3. reports msgids with no translation and exits 1 if any (tests/config checks the same).

Usage: .venv/bin/python scripts/sync_messages.py [--check | --compile]
  --check    only report missing translations, write nothing.
  --compile  only compile every .po into its .mo (what `make install` does; needs no gettext).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("nl", "ja")
IGNORE = [".venv", "var", "tests", "node_modules", "static"]


def load_sources() -> dict[str, dict[str, object]]:
    merged: dict[str, dict[str, object]] = {}
    for path in sorted((ROOT / "locale" / "src").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for msgid, translations in data.items():
            merged.setdefault(msgid, {}).update(translations)
    return merged


def po_path(lang: str) -> Path:
    return ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"


def makemessages() -> None:
    args = [sys.executable, "manage.py", "makemessages", "--no-obsolete", "--no-location"]
    for lang in LANGS:
        args += ["-l", lang]
    for pattern in IGNORE:
        args += ["--ignore", pattern]
    subprocess.run(args, cwd=ROOT, check=True)


def fill(lang: str, sources: dict[str, dict[str, object]], write: bool) -> list[str]:
    po = polib.pofile(str(po_path(lang)))
    missing: list[str] = []
    for entry in po:
        if entry.obsolete:
            continue
        found = sources.get(entry.msgid, {}).get(lang)
        # Only locale/src says what a message reads. Anything else in the msgstr is
        # makemessages' guess from a similar msgid (flagged fuzzy, a flag dropped below):
        # it once made "This field is required." read "This player is already listed."
        # in Dutch and Japanese. A guess is cleared and reported, never shipped.
        if entry.msgid_plural:
            if isinstance(found, list) and found:
                entry.msgstr_plural = {i: str(text) for i, text in enumerate(found)}
            else:
                entry.msgstr_plural = dict.fromkeys(entry.msgstr_plural, "")
                missing.append(entry.msgid)
        elif isinstance(found, str) and found:
            entry.msgstr = found
        else:
            entry.msgstr = ""
            missing.append(entry.msgid)
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
        # The guess's source ("#| msgid ..."): it says nothing once locale/src has spoken.
        entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None
    if write:
        po.save()
    return missing


def compile_all() -> None:
    for path in sorted((ROOT / "locale").glob("*/LC_MESSAGES/django.po")):
        polib.pofile(str(path)).save_as_mofile(str(path.with_suffix(".mo")))


def main(argv: list[str]) -> int:
    if "--compile" in argv:
        compile_all()
        return 0
    check_only = "--check" in argv
    if not check_only:
        makemessages()
    sources = load_sources()
    status = 0
    for lang in LANGS:
        missing = fill(lang, sources, write=not check_only)
        for msgid in missing:
            print(f"{lang}: untranslated: {msgid!r}")
        status = status or (1 if missing else 0)
    if not check_only:
        compile_all()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
