"""`make lint`'s catalog check (issue #26): every message the code and the templates use (extracted
now, as `make i18n-extract` does, by babel.cfg) is in every language's catalog, translated: none
missing, none empty, none fuzzy, every placeholder of the message kept, and no entry the code no
longer uses.  The same for each game's own domain (docs/i18n.md "Game messages"): every message key
its engine may emit (`Game.message_keys`) is in its English catalog (the adapter's `GameCatalog`), and
every entry of that catalog (tools/game_catalogs.py) in each language's `<domain>.po`, translated.
Exit status 1 with the problems listed, else 0.

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
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from service.games import GameCatalog  # noqa: E402

CATALOGS = ROOT / "service" / "translations"
TRANSLATED = ("uk", "zh_Hant")
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "Nf_": None, "Nn_": (1, 2)}
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


def problems(language: str, wanted: Catalog, domain: str = "messages") -> list[str]:
    path = CATALOGS / language / "LC_MESSAGES" / f"{domain}.po"
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
        if domain != "messages":
            shown = f"{domain} {message.context}: {shown}"
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
            if domain != "messages":
                shown = f"{domain} {message.context}: {shown}"
            found.append(f"{language}: {shown!r} is used nowhere any more (make i18n-update)")
    return found


def key_problems(keys: frozenset[str], catalog: GameCatalog) -> list[str]:
    """Every key an engine may emit has its English; every English entry is a key's (or its `.you` form)."""
    found = [f"{catalog.domain}: the engine's message {key!r} has no English (service/games/*_catalog.py)"
             for key in sorted(keys - set(catalog.messages))]
    found += [f"{catalog.domain}: {key!r} is no message of the engine's"
              for key in sorted(catalog.messages) if key not in keys and key.removesuffix(".you") not in keys]
    return found


def game_problems() -> tuple[int, list[str]]:
    """The games' domains: (how many entries, the problems)."""
    from tools.game_catalogs import catalogs, template

    count, found = 0, []
    for name, catalog in catalogs().items():
        found += key_problems(engine.get(name).message_keys, catalog)
        wanted = template(catalog)
        count += len([m for m in wanted if m.id])
        found += [problem for language in TRANSLATED for problem in problems(language, wanted, catalog.domain)]
    return count, found


def main() -> int:
    wanted = extracted()
    found = [problem for language in TRANSLATED for problem in problems(language, wanted)]
    game_count, game_found = game_problems()
    found += game_found
    for problem in found:
        print(problem, file=sys.stderr)
    count = len([m for m in wanted if m.id])
    print(f"catalogs: {count} messages and {game_count} game messages, {len(TRANSLATED)} languages, "
          f"{len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
