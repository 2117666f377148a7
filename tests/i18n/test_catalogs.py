"""The catalog check of `make lint` (tools/check_catalogs.py): it passes on the repository, and it
fails on each kind of fault it is there for."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

from service import lang

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import check_catalogs


def test_every_message_of_the_code_is_translated_in_both_catalogs():
    assert check_catalogs.main() == 0


def test_the_check_finds_a_missing_an_empty_a_fuzzy_and_a_stale_entry_and_a_lost_placeholder(tmp_path, monkeypatch):
    shutil.copytree(check_catalogs.CATALOGS, tmp_path, dirs_exist_ok=True)
    monkeypatch.setattr(check_catalogs, "CATALOGS", tmp_path)
    path = tmp_path / "uk" / "LC_MESSAGES" / "messages.po"
    with open(path, "rb") as po:
        catalog = read_po(po, locale="uk")
    del catalog["Skip to content"]
    catalog["Save"].string = ""
    catalog["Rules"].flags.add("fuzzy")
    catalog["Start %(game)s"].string = "Почати гру"
    catalog.add("Shown nowhere", "Ніде")
    catalog[("%(num)d day", "%(num)d days")].string = ("%(num)d день", "%(num)d дні")  # Ukrainian's 3rd form lost
    with open(path, "wb") as po:
        write_po(po, catalog)
    found = "\n".join(check_catalogs.problems("uk", check_catalogs.extracted()))
    for fault in ("missing 'Skip to content'", "untranslated 'Save'", "fuzzy 'Rules'", "'Start %(game)s' changes its placeholders",
                  "'Shown nowhere' is used nowhere", "untranslated '%(num)d day'"):
        assert fault in found, found
    assert check_catalogs.problems("zh_Hant", check_catalogs.extracted()) == []


def test_the_compiled_catalogs_are_those_of_the_po_files():
    """A stale .mo (a .po changed, `make i18n-compile` not run) would show old words: each of the
    .po's translations is what the compiled catalog gives."""
    for language in ("uk", "zh_Hant"):
        with open(check_catalogs.CATALOGS / language / "LC_MESSAGES" / "messages.po", "rb") as po:
            catalog = read_po(po, locale=language)
        compiled = lang.translations(language)
        for message in catalog:
            if isinstance(message.id, tuple):
                # 1 takes the first form in both languages, 5 the last (Ukrainian "many", Chinese's only one)
                assert (compiled.ngettext(*message.id, 1), compiled.ngettext(*message.id, 5)) == \
                    (message.string[0], message.string[-1]), (language, message.id)
            elif message.id:
                assert compiled.gettext(message.id) == message.string, (language, message.id)
