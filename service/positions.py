"""What one viewer sees of a game at one position: shared by the player page, the confirm page,
the emails and the spectator API, so all of them show the same thing and hide the same things.

Everything shown is derived from `rules.view(state, seat)` and `rules.describe_event(event, seat)`,
never from the raw state, so another seat's hidden cards cannot reach a page or an email.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import render_template
from jinja2 import TemplateNotFound
from markupsafe import Markup
from sqlmodel import Session, select

import engine
from service import store
from service.models import Game, Player


@dataclass
class LegalMove:
    move: dict
    label: str
    section: str | None = None  # a standing setting's name (Game.move_section); None for a decision


@dataclass
class Position:
    game: Game
    rules: engine.Game
    seq: int
    seat: int | None  # None: a spectator
    view: dict
    to_act: list[int]
    result: dict | None
    board_text: str
    moves: list[LegalMove] = field(default_factory=list)  # the viewer's legal moves now
    since: list[tuple[int, str]] = field(default_factory=list)  # (seq, sentence)
    names: dict[int, str] = field(default_factory=dict)  # seat -> player name (boards name partners)
    # The full state, for describe_move only: templates get `view`, never this.
    _state: dict = field(default_factory=dict, repr=False)

    def describe_move(self, move: dict) -> str:
        return self.rules.describe_move(move, self._state)

    @property
    def decisions(self) -> list[LegalMove]:
        """The moves that decide something now (each standing setting is offered apart)."""
        return [legal for legal in self.moves if legal.section is None]

    @property
    def settings(self) -> dict[str, list[LegalMove]]:
        """Standing settings by name, in the order the engine lists them."""
        out: dict[str, list[LegalMove]] = {}
        for legal in self.moves:
            if legal.section is not None:
                out.setdefault(legal.section, []).append(legal)
        return out

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act

    def board_html(self) -> Markup:
        """The game's own board template when it has one, else its text rendering."""
        try:
            return Markup(
                render_template(
                    f"games/{self.game.name}/board.html",
                    view=self.view, seat=self.seat, rules=self.rules, game=self.game,
                    names=self.names,
                )
            )
        except TemplateNotFound:
            return Markup(render_template("games/_text_board.html", board_text=self.board_text))


def build(
    session: Session,
    game: Game,
    seat: int | None,
    *,
    seq: int | None = None,
    since_seq: int | None = None,
    recent: int = 0,
) -> Position:
    """The position at `seq` (default: now) as `seat` sees it.

    `since_seq`: describe the events after it up to `seq`; `recent`: or just the last N events.
    """
    rules = engine.get(game.name)
    seq = game.seq if seq is None else seq
    state, _ = store.load_state(session, game, seq)
    view = rules.view(state, seat)
    to_act = rules.to_act(state)
    position = Position(
        game=game, rules=rules, seq=seq, seat=seat, view=view, to_act=to_act,
        result=rules.result(state) or _recorded_result(game, seq), board_text=rules.render_text(view),
        _state=state,
        names=seat_names(list(session.exec(
            select(Player).where(Player.game_id == game.id).order_by(Player.seat)))),
    )
    if seat is not None and position.result is None:  # a seat not waited on may have moves too
        position.moves = [
            LegalMove(move, rules.describe_move(move, state), rules.move_section(move))
            for move in rules.legal_moves(state, seat)
        ]
    if since_seq is not None:
        rows = store.events(session, game.id, after=since_seq, upto=seq)
    elif recent:
        rows = [row for row in store.recent_events(session, game.id, recent) if row.seq <= seq]
    else:
        rows = []
    position.since = store.describe(rules, rows, seat)
    return position


def _recorded_result(game: Game, seq: int) -> dict | None:
    """The result the service recorded where the engine has none: a forfeit on timeout
    (service/ending.py) ends a game the engine still considers running."""
    return game.result if game.status == "finished" and seq == game.seq else None


def seat_names(players: list[Player]) -> dict[int, str]:
    return {player.seat: player.name for player in players}


def title(game: Game) -> str:
    rules = engine.get(game.name)
    return rules.title or rules.name


def subject_prefix(game: Game) -> str:
    return f"[{title(game)} #{game.id}]"


def result_words(result: dict | None, names: dict[int, str]) -> str:
    if not result:
        return ""
    winners = [names.get(int(seat), f"seat {seat}") for seat in result.get("winners", [])]
    if not winners and isinstance(result.get("trainer"), int):
        # Riftforce solo: the automatic trainer holds no seat, so it is never among the winners.
        mine = max(result.get("score_list") or [0])
        return f"The trainer won, {result['trainer']} to {mine}."
    if not winners:
        return "The game ended without a winner."
    if len(winners) == 1:
        return f"{winners[0]} won."
    return " and ".join(winners) + " won."

