"""The player page (and the pages drawn with the same board templates: the spectator's, the history's)
rendered over a broad set of positions, reproducibly: to compare two commits' pages byte for byte.

`build` plays, on a database of its own and with seeded secrets, every game of the email catalog
(tests/service/email_catalog.py: a finished timed duel, a team game, solo, Riftwalker with table talk,
Beyond the Rift, toy games paused and forfeited) and the board tests' busy positions
(tests/web/riftforce_boards.py: a duel, all guilds, team 3 and 4, solo, drafts, the trainer's choice),
and keeps the database.  `render` reads a copy of it and writes each page, one file each: every
seat's page and the spectator's in English, Ukrainian and Traditional Chinese, a turn email's `?step=`
page and a page of a turn composed without JavaScript for each seat to act, the history at one
position.  The session's CSRF secret is fixed and links are signed at a fixed time, so two renders
of the same database with the same code write the same files:

    python -m tests.web.page_snapshot build /tmp/pages.sqlite
    python -m tests.web.page_snapshot render /tmp/pages.sqlite OUT_DIR     # then `diff -r` two OUT_DIRs
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

from sqlmodel import select

import engine
from service import store
from service.migrate import upgrade
from service.store import get_engine, read_session
from service.store.models import Game
from service.views import positions
from tests import tokens
from tests.conftest import make_app
from tests.consent import preconsent
from tests.service import email_catalog
from tests.service.email_snapshot import reproducible
from tests.turns import decisions
from tests.web import riftforce_boards

LANGUAGES = {"en": "en", "uk": "uk", "zh_Hant": "zh-TW"}
CSRF_SECRET = "page-snapshot-csrf-secret"


def build(path: Path) -> None:
    """The games, played into a new database at `path`."""
    with tempfile.TemporaryDirectory() as tmp, reproducible():
        upgrade(f"sqlite:///{path}")
        app = make_app(Path(tmp), f"sqlite:///{path}")
        with app.app_context():
            email_catalog.build(app)
            riftforce_boards.busy_game("duel")  # its addresses not asked yet: the creator's notes
            preconsent(*[email for _, email in riftforce_boards.people(4)])
            for mode in riftforce_boards.BUSY:
                if mode != "duel":
                    riftforce_boards.busy_game(mode)
                riftforce_boards.draft_game(mode)
            riftforce_boards.trainer_choice_game()
            riftforce_boards.finished_game("team4")
        app.extensions["riftpost.db"].dispose()


def pages() -> list[tuple[str, str, str]]:
    """(name, path, language) of every page rendered: read from the app's database."""
    found: list[tuple[str, str, str]] = []
    with read_session(get_engine()) as session:
        games = list(session.exec(select(Game).order_by(Game.id)))
        for game in games:
            players = store.players_of(session, game.id)
            state, _ = store.load_state(session, game)
            rules = engine.get(game.name)
            label = f"{game.id:02d}-{game.name}"
            for language in LANGUAGES:
                found.append((f"{label}-spectator-{language}", f"/games/{game.id}", language))
                for player in players:
                    path = f"/p/{tokens.page(player)}"
                    found.append((f"{label}-seat{player.seat}-{language}", path, language))
            for player in players:
                path = f"/p/{tokens.page(player)}"
                if game.status == "active" and player.seat in game.to_act:
                    legal = decisions(rules, state, player.seat)
                    if legal:
                        text = rules.move_text(state, player.seat, legal[-1])
                        found.append((f"{label}-seat{player.seat}-step", f"{path}?{urlencode({'step': text})}", "en"))
                        query = urlencode({"seq": game.seq, "move": text})
                        for language in LANGUAGES:
                            found.append((f"{label}-seat{player.seat}-composed-{language}", f"{path}?{query}",
                                          language))
                if player.seat == 0 and game.seq > 3:
                    found.append((f"{label}-history", f"{path}/history?at={game.seq // 2}", "en"))
    return found


def render(db: Path, out: Path) -> int:
    """Every page of `pages()` from a copy of the database at `db`, into `out`: the number written."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "app.sqlite"
        shutil.copy(db, copy)
        app = make_app(Path(tmp), f"sqlite:///{copy}")
        with app.app_context(), reproducible():
            client = app.test_client()
            with client.session_transaction() as session:
                session["csrf_token"] = CSRF_SECRET
            written = 0
            for name, path, language in pages():
                texts = []
                for _ in range(2):  # drawn, then (the player page) from the positions kept
                    response = client.get(path, headers={"Accept-Language": LANGUAGES[language]})
                    assert response.status_code in (200, 409, 422), (name, path, response.status_code)
                    texts.append(f"{response.status_code}\n" + response.get_data(as_text=True))
                if texts[0] != texts[1]:
                    (out / f"{name}.again.html").write_text(texts[1])
                (out / f"{name}.html").write_text(texts[0])
                written += 1
            positions.KEPT.clear()
        app.extensions["riftpost.db"].dispose()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    made = commands.add_parser("build")
    made.add_argument("db", type=Path)
    shown = commands.add_parser("render")
    shown.add_argument("db", type=Path)
    shown.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    if args.command == "build":
        if args.db.exists():
            parser.error(f"{args.db} exists")
        build(args.db)
        print(f"built {args.db}")
    else:
        print(f"{render(args.db, args.out)} pages written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
