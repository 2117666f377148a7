"""The games' gettext templates (issue #26, docs/i18n.md "Game messages"): for each game whose adapter
has a message catalog (service/games/<game>_catalog.py), service/translations/<domain>.pot with every
message (context: the engine's key; msgid: the English, a plural pair where it has one), every term
(context: its kind) and every card name (context "card").  `make i18n-extract` runs it, and
`make i18n-update` merges each template into service/translations/<language>/LC_MESSAGES/<domain>.po.

    python tools/game_catalogs.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from service.games import GameCatalog, adapter  # noqa: E402

TEMPLATES = ROOT / "service" / "translations"


def catalogs() -> dict[str, GameCatalog]:
    """Game name -> its message catalog, for the games that have one."""
    found = {}
    for name in engine.names():
        catalog = adapter(name).catalog
        if catalog is not None:
            found[name] = catalog
    return found


def template(catalog: GameCatalog) -> Catalog:
    """The gettext template of one game's catalog."""
    pot = Catalog(domain=catalog.domain, project="Riftpost", fuzzy=False)
    for key, english in catalog.messages.items():
        pot.add(english, context=key, flags=("python-brace-format",) if "{" in str(english) else ())
    for (kind, _word), english in catalog.terms.items():
        pot.add(english, context=kind)
    for name in sorted(set(catalog.card_names.values())):
        pot.add(name, context="card")
    return pot


def main() -> int:
    for catalog in catalogs().values():
        path = TEMPLATES / f"{catalog.domain}.pot"
        with open(path, "wb") as out:
            write_po(out, template(catalog), omit_header=False, sort_output=True, no_location=True)
        print(f"{path.relative_to(ROOT)}: {len(template(catalog))} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
