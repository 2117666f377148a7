"""`make lint`'s catalog check (issue #26): every message the code and the templates use (extracted
now, as `make i18n-extract` does, by babel.cfg) is in every language's catalog, translated: none
missing, none empty, none fuzzy, every placeholder of the message kept, and no entry the code no
longer uses.  Exit status 1 with the problems listed, else 0.

    python tools/check_catalogs.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "service" / "translations"
TRANSLATED = ("uk", "zh_Hant")
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


def extracted() -> Catalog:
    """The messages of the code and templates, as `pybabel extract -F babel.cfg -k N_` finds them."""
    with open(ROOT / "babel.cfg") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found = Catalog()
    for _file, _line, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS | {"dgettext": (2,), "pgettext": ((1, "c"), 2)}):
        found.add(message, None, auto_comments=comments, context=context)
    return found


def _placeholders(text: Any) -> set[str]:
    texts = text if isinstance(text, tuple | list) else (text,)
    return {"".join(names) for t in texts if t for names in PLACEHOLDER.findall(t)}


def problems(language: str, wanted: Catalog) -> list[str]:
    path = CATALOGS / language / "LC_MESSAGES" / "messages.po"
    if not path.exists():
        return [f"{language}: no catalog at {path.relative_to(ROOT)} (make i18n-update)"]
    with open(path, "rb") as po:
        catalog = read_po(po, locale=language)
    found = []
    for message in wanted:
        if not message.id:
            continue
        have = catalog.get(message.id, message.context)
        shown = message.id if isinstance(message.id, str) else message.id[0]
        if have is None:
            found.append(f"{language}: missing {shown!r} (make i18n-update, then translate it)")
        elif have.fuzzy:
            found.append(f"{language}: fuzzy {shown!r}")
        elif not have.string or (isinstance(have.string, tuple | list) and not all(have.string)):
            found.append(f"{language}: untranslated {shown!r}")
        elif isinstance(message.id, tuple) and (not isinstance(have.string, tuple | list)
                                                or len(have.string) != catalog.num_plurals):
            found.append(f"{language}: {shown!r} needs its {catalog.num_plurals} plural forms")
        elif _placeholders(have.string) != _placeholders(message.id) and not (
                isinstance(message.id, tuple) and _placeholders(have.string) <= _placeholders(message.id)):
            found.append(f"{language}: {shown!r} changes its placeholders ({sorted(_placeholders(have.string))})")
    for message in catalog:
        if message.id and wanted.get(message.id, message.context) is None:
            shown = message.id if isinstance(message.id, str) else message.id[0]
            found.append(f"{language}: {shown!r} is used nowhere any more (make i18n-update)")
    return found


def main() -> int:
    wanted = extracted()
    found = [problem for language in TRANSLATED for problem in problems(language, wanted)]
    for problem in found:
        print(problem, file=sys.stderr)
    count = len([m for m in wanted if m.id])
    print(f"catalogs: {count} messages, {len(TRANSLATED)} languages, {len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
