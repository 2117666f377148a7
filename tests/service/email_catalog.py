"""Every kind of email, from real games of every engine and mode: the samples that the email tests
read as their players would (subjects, first lines, names, form-like wording) and open in Chromium
(widths and heights).

`catalog` (a module-scoped fixture: import it into a test module) plays, on a database of its own:
- a Riftforce duel (timed, 48 h, `auto`; Ana reads times in Europe/Paris) to its end, with a reminder
  and a timeout on the way;
- a 4-player Riftforce team game and a solo game against the trainer (timed, `skip`);
- a 3-player Riftwalker game and a 2-hero Beyond the Rift game (untimed; the heroes play by the test
  policy of tests/beyond_helpers.py, which reaches the rift's enemy phase and the hero phase of round 3);
- a toy game whose deadline pauses it (`pause`: the notice) and one lost on time (`forfeit`);
- a fresh link to one game, fresh links to all of an address's games, and an account link.
Every move goes through `handle` with seeded random choices, at times given to it, so deadlines,
reminders and timeouts fall where the sweep is run.
"""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from unittest import mock

import pytest
from markupsafe import Markup
from sqlmodel import select

import engine
from service import store
from service.mail import compose
from service.people import access, identity
from service.play import ending, handle, new_game
from service.play.timeouts import sweep
from service.store import get_engine, read_session
from service.store.models import Outbox, Player
from service.views import positions
from service.views.positions import Position
from tests.beyond_helpers import policy as beyond_policy
from tests.conftest import make_app
from tests.consent import preconsent
from tests.service import toygame

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # a Monday
NAMES = ["Ana", "Bo", "Cy", "Di"]


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def party(count: int) -> list[tuple[str, str]]:
    return [(NAMES[s], f"{NAMES[s].lower()}@example.org") for s in range(count)]


@dataclass
class Sample:
    game: str  # a label: "riftforce duel", "riftwalker 3"...
    game_id: int
    row_id: int
    kind: str
    seat: int
    seq: int
    message: EmailMessage

    @property
    def text(self) -> str:
        return self.message.get_body(("plain",)).get_content()

    @property
    def html(self) -> str:
        return self.message.get_body(("html",)).get_content()

    @property
    def first_line(self) -> str:
        return self.text.splitlines()[0]

    def __repr__(self) -> str:
        return f"<{self.game} #{self.game_id} {self.kind} to seat {self.seat} at {self.seq}>"


class Catalog:
    def __init__(self, app):
        self.app = app
        self.samples: list[Sample] = []
        self.games: dict[str, int] = {}
        self.seen: set[int] = set()

    def deliver(self) -> None:
        """Render the rows queued since the last call, as the worker does right after a change."""
        labels = {game_id: label for label, game_id in self.games.items()}
        with read_session(get_engine()) as session:
            for row in session.exec(select(Outbox).where(Outbox.id.not_in(self.seen)).order_by(Outbox.id)):
                self.seen.add(row.id)
                seat = session.get(Player, row.player_id).seat
                self.samples.append(Sample(labels[row.game_id], row.game_id, row.id, row.kind, seat, row.seq,
                                           compose.build(session, row)))

    def of(self, kind: str | None = None, game: str | None = None) -> list[Sample]:
        return [s for s in self.samples if (kind is None or s.kind == kind) and (game is None or s.game == game)]

    def kinds(self, turns: int = 3) -> list[Sample]:
        """Each kind of email of each game once (its latest), and the latest `turns` turn emails of
        each game: a sample of every type for the costlier checks."""
        picked: dict[tuple[str, str], list[Sample]] = {}
        for sample in self.samples:
            picked.setdefault((sample.game, sample.kind), []).append(sample)
        return [s for (_, kind), found in picked.items() for s in found[-(turns if kind == "turn" else 1):]]

    def render(self, row_id: int, board: bool = True) -> EmailMessage:
        """An outbox row's email again; `board=False`: with the board left out, the HTML board and the
        plain-text one (what the email's own parts weigh and say, apart from the boards, which the
        board templates and the engines' words draw)."""
        with self.app.app_context(), read_session(get_engine()) as session:
            row = session.get(Outbox, row_id)
            assert row is not None
            if board:
                return compose.build(session, row)
            build = positions.build

            def without_board(*args, **kwargs):
                position = build(*args, **kwargs)
                position.board_text = ""
                return position

            with mock.patch.object(Position, "board_html", lambda self, email=False: Markup("")), \
                    mock.patch.object(positions, "build", without_board):
                return compose.build(session, row)


def only_the_board(catalog: Catalog, samples: list[Sample], problem) -> None:
    """Check `problem(message) -> str | None` on every sample, first on the email without its boards
    (so a failure says whether the layout or the board causes it), then on the whole email."""
    own = [(s, found) for s in samples if (found := problem(catalog.render(s.row_id, board=False)))]
    assert not own, "\n".join(f"{s}: {found}" for s, found in own[:10])
    boards = [(s, found) for s in samples if (found := problem(s.message))]
    assert not boards, "the boards break it: " + "\n".join(f"{s}: {found}" for s, found in boards[:10])


def play(catalog: Catalog, game_id: int, moves: int, rng: random.Random, when: float = 0.0) -> None:
    """Up to `moves` random decisions of the first seat to act, made at `when` hours; each change's
    emails rendered at once."""
    for _ in range(moves):
        with read_session(get_engine()) as session:
            game = store.get_game(session, game_id)
            if game.status != "active":
                return
            state, _ = store.load_state(session, game)
        seat = game.to_act[0]
        rules = engine.get(game.name)
        handle(game_id, seat, rng.choice(rules.legal_moves(state, seat)), game.seq, now=at(when))
        catalog.deliver()


def play_rounds(catalog: Catalog, game_id: int, rounds: int, policy, when: float = 0.0) -> None:
    """`policy`'s decisions (tests/beyond_helpers.py) of the first seat to act until the game's view
    says round `rounds` (or the game ends)."""
    for _ in range(2000):
        with read_session(get_engine()) as session:
            game = store.get_game(session, game_id)
            state, _ = store.load_state(session, game)
        if game.status != "active" or state["round"] >= rounds:
            return
        seat = game.to_act[0]
        rules = engine.get(game.name)
        legal = [move for move in rules.legal_moves(state, seat) if rules.move_section(move) is None]
        handle(game_id, seat, policy(state, seat, legal), game.seq, now=at(when))
        catalog.deliver()


def new(catalog: Catalog, label: str, *args, **kwargs) -> int:
    catalog.games[label] = game_id = new_game(*args, **kwargs)
    catalog.deliver()
    return game_id


def sweep_at(catalog: Catalog, hours: float) -> None:
    sweep(at(hours))
    catalog.deliver()


def build(app) -> Catalog:
    catalog = Catalog(app)
    rng = random.Random(13)
    preconsent(*[email for _, email in party(4)])  # the catalog is of the game's emails, not invitations
    # A duel, timed: Ana reads times in Paris; a reminder, then a timeout, then on to the end.
    identity.set_time_zone("ana@example.org", "Europe/Paris", T0)
    duel = new(catalog, "riftforce duel", "riftforce", party(2), seed=5, deadline_hours=48, policy="auto", now=T0)
    play(catalog, duel, 25, rng)
    sweep_at(catalog, 25)  # 24 hours before the deadline: a reminder for whoever is to act
    sweep_at(catalog, 49)  # past it: the game plays that turn (the timed-out email), the next seat's turn
    play(catalog, duel, 3000, rng, when=50)
    ending.record_end(duel, at(60))
    catalog.deliver()
    # Team play and solo, timed with the `skip` policy; Riftwalker and Beyond the Rift untimed.
    team = new(catalog, "riftforce team 4", "riftforce", party(4), {"mode": "team"}, seed=6,
               deadline_hours=72, policy="skip", now=T0)
    play(catalog, team, 120, rng)
    solo = new(catalog, "riftforce solo", "riftforce", party(1), {"mode": "solo"}, seed=7,
               deadline_hours=72, policy="skip", now=T0)
    play(catalog, solo, 60, rng)
    walker = new(catalog, "riftwalker 3", "riftwalker", party(3), seed=8, now=T0)
    play(catalog, walker, 120, rng)
    answers_to_replies(catalog, walker)
    beyond = new(catalog, "beyond the rift 2", "beyond-the-rift", party(2),
                 {"scenario": "tutorial", "heroes": ["brannoc", "isolde"]}, seed=9, now=T0)
    play_rounds(catalog, beyond, 3, beyond_policy)
    # The notices and the forfeit: toy games whose first deadline passes.
    # The pause game's deal is drawn, as a game started from the form is: its first emails state the
    # commitment to its secret (the other games are seeded, and seeds publish none).
    new(catalog, "toy pause", toygame.NAME, party(2), {"target": 60}, deadline_hours=24, policy="pause", now=T0)
    new(catalog, "toy forfeit", toygame.NAME, party(3), {"target": 60}, seed=4, deadline_hours=24,
        policy="forfeit", now=T0)
    sweep_at(catalog, 100)
    # The links a person asks for on a page (service/people/access.py): a fresh link to one game, fresh
    # links to all of the address's games, a sign-in link.
    with read_session(get_engine()) as session:
        ana = store.players_of(session, walker)[0].id
        bo = store.players_of(session, duel)[1].id
    access.fresh_link(ana, False, at(101))
    access.fresh_link(bo, True, at(101))
    access.signin_link(ana, at(101))
    catalog.deliver()
    return catalog


@pytest.fixture(scope="module")
def catalog(tmp_path_factory, migrated_sqlite):
    tmp = tmp_path_factory.mktemp("emails")
    db = tmp / "app.sqlite"
    shutil.copy(migrated_sqlite, db)
    app = make_app(tmp, f"sqlite:///{db}")
    with app.app_context():
        yield build(app)
    app.extensions["riftpost.db"].dispose()


def first_lines(catalog: Catalog, turns: int = 3) -> str:
    """The subject and first line of each kind of email of each game (catalog.kinds), one block each:
    the inbox's view of the catalog, to read (or compare before and after a change of wording)."""
    out = []
    for sample in catalog.kinds(turns):
        out.append(f"[{sample.game}] {sample.kind} to seat {sample.seat} (after event {sample.seq})\n"
                   f"  Subject: {sample.message['Subject']}\n  {sample.first_line}\n")
    return "\n".join(out)


if __name__ == "__main__":
    # python -m tests.service.email_catalog [FILE]: the catalog's first lines (to FILE, else stdout).
    import sys
    import tempfile
    from pathlib import Path

    from service.migrate import upgrade

    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "app.sqlite"
        upgrade(f"sqlite:///{database}")
        built = make_app(Path(folder), f"sqlite:///{database}")
        with built.app_context():
            text = first_lines(build(built))
        built.extensions["riftpost.db"].dispose()
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(text, encoding="utf-8")
    else:
        print(text)


def answers_to_replies(catalog: Catalog, game_id: int) -> None:
    """The answers to replies by email (service/inbound), kind "reply": to a choice the email did not
    list (the answer lists the choices) and to a word for the table."""
    from service.inbound import door
    from service.mail import reply_to

    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        player = next(p for p in store.players_of(session, game_id) if p.seat == game.to_act[0])
        address = reply_to.address(player, game.seq)
    assert address is not None
    for number, text in enumerate(("99", "Good game so far!")):
        raw = (f"From: someone@example.org\r\nTo: {address}\r\nSubject: Re: your turn\r\n"
               f"Message-ID: <reply{number}.{game_id}@example.org>\r\n\r\n{text}\r\n").encode()
        door.receive(raw, address)
    catalog.deliver()
