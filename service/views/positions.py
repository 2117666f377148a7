"""What one viewer sees of a game at one position: shared by the player page, the confirm page,
the emails and the spectator API, so all of them show the same thing and hide the same things.

Everything shown is derived from `rules.view(state, seat)` and `rules.describe_event(event, seat,
state)`, never from the raw state, so another seat's hidden cards cannot reach a page or an email.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from markupsafe import Markup
from sqlmodel import Session

import engine
from engine.kit import plural
from service import lang, store
from service.games import adapter
from service.store.current import AnyGame
from service.store.log import LogRow
from service.store.models import Game, GameClock, Player
from service.views.recent import Recent, game_key
from service.views.sentences import event_sentence, move_words, named, partners_of
from service.views.wording import Wording, word


@dataclass
class LegalMove:
    move: dict[str, Any]
    label: str
    section: str | None = None  # a standing setting's name (Game.move_section); None for a decision
    # The move as a form's value, once made (the page's `move_value` filter: service/web/play.py); a
    # position kept (`KEPT`) hands its moves to its copies, each seat its own.
    value_html: Markup | None = field(default=None, repr=False, compare=False)


@dataclass
class Step:
    """A first step of the viewer's decisions: one card or action, and the moves that start with it
    (one move: the step is the whole decision; several: where it goes is chosen next)."""

    key: str  # the first move's text form (move_text): what a link names to open the composer there
    label: str
    moves: list[LegalMove]


# Words a label of a step's several moves may end on before the part that differs ("... at location").
_DANGLING = {"at", "to", "on", "in", "into", "from", "with", "location", "slot", "mode", "the", "a", "an", "of", "by"}


def _step_label(labels: list[str], language: str = lang.ENGLISH) -> str:
    """What the labels of one step's moves say alike: their common first words, without a dangling
    "at location" ("Play Earth 6 at location 1" and "... 2" make "Play Earth 6…").  In another language
    the part that differs may stand inside the sentence ("在第 1 地點打出「植物 5」"): their common last
    words follow the ellipsis ("在第…地點打出「植物 5」")."""
    if len(labels) == 1:
        return labels[0]
    words = [label.split() for label in labels]
    common: list[str] = []
    for column in zip(*words, strict=False):
        if len(set(column)) > 1:
            break
        common.append(column[0])
    if language != lang.ENGLISH:
        shortest = min(len(w) for w in words)
        tail: list[str] = []
        while len(common) + len(tail) < shortest and len({w[len(w) - len(tail) - 1] for w in words}) == 1:
            tail.insert(0, words[0][len(words[0]) - len(tail) - 1])
        if tail:
            return " ".join(common) + "…" + " ".join(tail)
        return (" ".join(common) + "…") if common else labels[0]
    while common and common[-1].lower() in _DANGLING:
        common.pop()
    return (" ".join(common) + "…") if common else labels[0]


# How every engine and the service's recorded end begin the sentence of a game's end.
END = "The game is over"


@dataclass
class SinceEvent:
    """One event after the email's or page's starting point, as the viewer reads it: its sentence (None:
    not worth a line), whose decision caused it, and what the game's adapter says of it (whose doing
    it is, how much it matters, the facts its headline needs)."""

    seq: int
    text: str | None
    actor: int | None  # the seat whose decision caused it (None: the service's own event)
    kind: str  # the event row's kind: "setup", "move", "timeout", "system"
    type: str  # the event's type (its payload's "type")
    doer: int | None  # whose doing it is (Adapter.doer): a seat, or None for the game's own
    weight: int  # Adapter.weight: 0 bookkeeping, 1 a usual event, 2 news
    note: Any = None  # Adapter.note: public facts for Adapter.headline


@dataclass
class Position:
    game: AnyGame  # an ORM row, or the move path's (the JSON play API's answer to a move)
    rules: engine.Game
    seq: int
    seat: int | None  # None: a spectator
    view: dict[str, Any]
    to_act: list[int]
    result: Mapping[str, Any] | None
    moves: list[LegalMove] = field(default_factory=list)  # the viewer's legal moves now
    since: list[tuple[int, str]] = field(default_factory=list)  # (seq, sentence)
    # seq -> (the seat whose decision caused it or None, the event's kind) for each line of `since`
    since_causes: dict[int, tuple[int | None, str]] = field(default_factory=dict)
    since_types: dict[int, str] = field(default_factory=dict)  # seq -> the event's type (its payload's "type")
    since_events: list[SinceEvent] = field(default_factory=list)  # every event of `since_causes`, in order
    names: dict[int, str] = field(default_factory=dict)  # seat -> player name (boards name partners)
    deadline_hours: int | None = None  # the game's clock (GameClock.deadline_hours); None: untimed
    language: str = "en"  # the reader's: the game's messages are worded in it (service/views/wording.py)
    # The full state, for describe_move only: templates get `view`, never this.
    _state: dict[str, Any] = field(default_factory=dict, repr=False)
    # The page's board once drawn (`board_html()`), shared by the copies `kept` hands out.
    _drawn: dict[bool, Markup] = field(default_factory=dict, repr=False)
    _text: str | None = field(default=None, repr=False)  # `board_text` once made

    @property
    def board_text(self) -> str:
        """The board as plain text (`text_board`), made when first asked for: the emails' plain part and
        a game drawn as text ask, the JSON API never does (about three quarters of its position's CPU)."""
        if self._text is None:
            self._text = text_board(self.rules, self.view, self.names, self.seat, self.language, self._state or None)
        return self._text

    @board_text.setter
    def board_text(self, text: str) -> None:
        self._text = text

    def describe_move(self, move: dict[str, Any]) -> str:
        return move_words(self.rules, move, self._state, self.names, self.seat, self.language)

    def move_text(self, move: dict[str, Any]) -> str:
        """The viewer's move in its text form (the engine's `move_text`)."""
        assert self.seat is not None
        return self.rules.move_text(self._state, self.seat, move)

    @property
    def decisions(self) -> list[LegalMove]:
        """The moves that decide something now (each standing setting is offered apart)."""
        return [legal for legal in self.moves if legal.section is None]

    def first_steps(self) -> list[Step]:
        """The decisions grouped by their first step (the adapter's `first_step`), in the engine's
        order of each step's first move."""
        found = adapter(self.game.name)
        groups: dict[tuple[Any, ...], list[LegalMove]] = {}
        for legal in self.decisions:
            groups.setdefault(found.first_step(legal.move), []).append(legal)
        assert self.seat is not None or not groups
        return [
            Step(self.rules.move_text(self._state, self.seat, moves[0].move) if self.seat is not None else "",
                 _step_label([legal.label for legal in moves], self.language), moves)
            for moves in groups.values()
        ]

    @property
    def teams(self) -> list[list[int]]:
        """The game's teams (the engine's `teams`; [] without teams)."""
        return self.rules.teams(self._state) if self._state else []

    @property
    def partners(self) -> list[int]:
        """The viewer's teammates ("your partner" in the game's words; [] without teams or a seat)."""
        return partners_of(self.rules, self._state, self.seat)

    @property
    def settings(self) -> dict[str, list[LegalMove]]:
        """Standing settings by name, in the order the engine lists them."""
        out: dict[str, list[LegalMove]] = {}
        for legal in self.moves:
            if legal.section is not None:
                out.setdefault(legal.section, []).append(legal)
        return out

    @property
    def decision_time(self) -> str | None:
        """How long the decision the game waits on has, in a timed game, as its clock gives it: the
        game's hours times the engine's `deadline_share` of that decision ("48 hours", "12 hours");
        None when untimed or nobody is asked."""
        if self.deadline_hours is None or not self.to_act or self.result is not None:
            return None
        seat = self.seat if self.seat in self.to_act else self.to_act[0]
        minutes = round(self.deadline_hours * self.rules.deadline_share(self._state, seat) * 60)
        hours, rest = divmod(minutes, 60)
        if not rest:
            return plural(hours, "hour")
        return f"{plural(hours, 'hour')} {plural(rest, 'minute')}" if hours else plural(rest, "minute")

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act

    @property
    def board_english(self) -> bool:
        """Whether the board is still drawn in English whatever the reader's language (the emails
        mark it `lang="en"`): the game's adapter says `board_translated` once its board is not."""
        return not adapter(self.game.name).board_translated

    @property
    def board_stylesheet(self) -> str | None:
        """The game's own board stylesheet under static/ (None: a game drawn as text has none)."""
        return f"board/{self.game.name}.css" if adapter(self.game.name).board_template is not None else None

    @property
    def orders(self) -> list[dict[str, str]]:
        """The viewer's standing orders in their language (the adapter's `orders_words`): [{name (the
        settings' section, as `settings` keys it), title, value}]."""
        return adapter(self.game.name).orders_words(self.view, self.wording)

    @property
    def wording(self) -> Wording | None:
        """The game's words (cards, terms, messages) for this reader in their language; None for a game
        without a message catalog.  Boards and a game's follow-up templates use it."""
        if adapter(self.game.name).catalog is None:
            return None
        return Wording(self.game.name, self.language, self.seat, self.names, self.partners)

    def board(self, email: bool = False) -> tuple[str, dict[str, Any]]:
        """The board as data: the template that draws it (the game's own board template when its
        adapter has one, else its text rendering) and what that template is given.

        `email`: for an HTML email (no SVG icons, no page-only parts); its classes are inlined from
        the same stylesheets (service/mail/compose.py).  `over`: the result in words once the game is
        finished, a forfeit the service recorded included (the engine's view does not know of it), to
        show instead of whose decision it is."""
        found = adapter(self.game.name)
        if found.board_template is None:
            return "games/_text_board.html", {"board_text": self.board_text}
        over = (result_words(self.game, self.result, self.names, self.seat, self.language)
                if self.result is not None else None)
        # `words`: the game's own words (cards, terms, messages) for this reader in their language; the
        # board's other words are the template's own `_()` (the messages domain).
        words = self.wording
        return found.board_template, dict(view=self.view, seat=self.seat, rules=self.rules, game=self.game,
                                          names=self.names, email=email, over=over, words=words,
                                          language=self.language,
                                          decision_time=self.decision_time, **found.board_words(self.view))

    def board_html(self, email: bool = False) -> Markup:
        """The board drawn: for a page by the web's environment (Flask's, in a request), for an email by
        email's own (service/views/email_render.py: in the locale of the email being rendered)."""
        if not email and False in self._drawn:
            return self._drawn[False]
        template, context = self.board(email)
        if email:
            from service.views import email_render

            return Markup(email_render.render(template, context, email_render.locale()))
        from flask import render_template  # the web's pages only: the worker never loads Flask

        drawn = self._drawn[False] = Markup(render_template(template, **context))
        return drawn


def _repeats_the_end(events: list[SinceEvent], payload: Mapping[str, Any], text: str | None) -> bool:
    """Whether the recorded end (the service's "game_finished") only repeats the engine's own line
    about the end just before it ("The game is over: Ana wins, 12 to 7." then "The game is over: Ana
    won.").  A bare "The game is over." gives way to the recorded end's winner instead; a forfeit is
    news the engine cannot tell."""
    result = payload.get("result")
    if payload.get("type") != "game_finished" or not events or not text or (
            isinstance(result, Mapping) and result.get("forfeited") is not None):
        return False
    last = events[-1]
    if not (last.text or "").startswith(END):
        return False
    if last.text == END + ".":
        events[-1] = replace(last, text=text)
    return True


def described(session: Session, game: Game, rows: Sequence[LogRow], viewer: int | None,
              names: dict[int, str] | None = None,
              language: str = lang.ENGLISH) -> tuple[list[SinceEvent], dict[str, Any] | None]:
    """The events of `rows` (consecutive, in order, at least one) as `viewer` may read them, each
    worded from the state it was applied to in `language`, with what the adapter says of it; and the
    state after the last of them (the caller's own: one load serves the words and the board)."""
    rules = engine.get(game.name)
    found = adapter(game.name)
    first = rows[0].seq
    state = store.load_state(session, game, first - 1)[0] if first > 1 else None
    events: list[SinceEvent] = []
    for row in rows:
        text = event_sentence(rules, row.payload, row.kind, row.actor, viewer, state, names, language)
        kind_of = str(row.payload.get("type", ""))
        if row.kind == store.SYSTEM:
            if _repeats_the_end(events, row.payload, text):
                continue
            events.append(SinceEvent(row.seq, text, row.actor, row.kind, kind_of, row.actor, 2))
            continue  # engines never see the service's own events
        doer = found.doer(row.payload, row.actor, state) if row.actor is not None else None
        note = found.note(row.payload, state, viewer, names or {})
        events.append(SinceEvent(row.seq, text, row.actor, row.kind, kind_of, doer, found.weight(row.payload), note))
        state = rules.evolve(state, row.payload)  # a state loaded for us alone: evolve in place
    return events, state


def build(
    session: Session,
    game: Game,
    seat: int | None,
    *,
    seq: int | None = None,
    since_seq: int | None = None,
    recent: int = 0,
    players: list[Player] | None = None,
    language: str = lang.ENGLISH,
) -> Position:
    """The position at `seq` (default: now) as `seat` sees it, its words (events, moves) in `language`:
    the reader's (a page's request, an email's render); the JSON API keeps English (docs/i18n.md).

    `since_seq`: describe the events after it up to `seq`; `recent`: or just the last N events.
    """
    seq = game.seq if seq is None else seq
    if since_seq is not None:
        rows = store.events(session, game, after=since_seq, upto=seq)
    elif recent:
        rows = [row for row in store.recent_events(session, game, recent) if row.seq <= seq]
    else:
        rows = []
    events: list[SinceEvent] = []
    names = store.seat_names(players if players is not None else store.players_of(session, game.id))
    state = None
    if rows:
        events, state = described(session, game, rows, seat, names, language)
    if state is None or rows[-1].seq != seq:
        state, _ = store.load_state(session, game, seq)
    # a seat not waited on may have moves too
    clock = session.get(GameClock, game.id)
    position = at_state(game, state, seat, seq, names, decisions=seat is not None,
                        result=_recorded_result(game, seq), deadline_hours=clock.deadline_hours if clock else None,
                        language=language)
    position.since_causes = {row.seq: (row.actor, row.kind) for row in rows}
    position.since_types = {row.seq: str(row.payload.get("type", "")) for row in rows}
    position.since = [(event.seq, event.text) for event in events if event.text]
    position.since_events = events
    return position


# Positions the player page showed lately, per process (a reload, the steps of a turn composed without
# JavaScript, a stale form's answer show the same position again).  What a position shows never changes
# once written (the log is append-only), so the key is what it is made from: the game's identity in its
# database, its seq and status, the seat (hidden information: each seat's own entry, never another's),
# the language, the names and the clock's hours (which change without a move).  Each entry holds a full
# state, the view, the worded moves and the drawn board: ~35 KiB for a Riftforce duel mid-game, so 48
# entries are ~2 MB a worker.
KEPT: Recent[Position] = Recent(48)


def kept(session: Session, game: Game, seat: int | None, *, recent: int, players: list[Player],
         language: str = lang.ENGLISH) -> Position:
    """`build(session, game, seat, recent=..., players=..., language=...)` of the position now, from
    the positions kept when shown lately: then nothing more is read, nothing described, and the board
    is drawn already.  The copy handed out holds the caller's `game` row."""
    clock = session.get(GameClock, game.id)  # (build's own read of it: from the session's identity map)
    names = store.seat_names(players)
    key = (*game_key(session, game), game.rules_version, game.seq, game.status, seat, recent, language,
           tuple(sorted(names.items())), clock.deadline_hours if clock is not None else None)
    found = KEPT.get(key)
    if found is None:
        found = build(session, game, seat, recent=recent, players=players, language=language)
        KEPT.put(key, found)
    return replace(found, game=game)


def _recorded_result(game: Game, seq: int) -> dict[str, Any] | None:
    """The result the service recorded where the engine has none: a forfeit on timeout
    (service/play/ending.py) ends a game the engine still considers running."""
    return game.result if game.status == "finished" and seq == game.seq else None


def title(game: AnyGame) -> str:
    rules = engine.get(game.name)
    return rules.title or rules.name


def heading(game: Game, players: Sequence[Any], teams: Sequence[Sequence[int]], language: str = lang.ENGLISH) -> str:
    """The game and who plays it, as every email's subject and every page's heading say it
    ("Riftforce #12: Ana vs Bo"; the adapter words the sides, in the reader's `language`)."""
    names = [name for _, name in sorted(store.seat_names(list(players)).items())]
    sides = adapter(game.name).players_words(names, [list(t) for t in teams], language)
    return f"{title(game)} #{game.id}: {sides}"


def subject_prefix(game: Game) -> str:
    return f"[{title(game)} #{game.id}]"


def result_words(game: AnyGame, result: Mapping[str, Any] | None, names: dict[int, str], viewer: int | None = None,
                 language: str = lang.ENGLISH) -> str:
    """The end in words, to `viewer` ("You won."; None: to anyone), in `language`: the adapter's words,
    and why the game ended (the adapter's `end_message`) worded here."""
    found = adapter(game.name)
    message = found.end_message(result) if result else None
    why = word(message, game.name, language, viewer, names) if message is not None else None
    return found.result_words(result, names, viewer, language, why)


def text_board(rules: engine.Game, view: dict[str, Any], names: Mapping[int, str], seat: int | None,
               language: str = lang.ENGLISH, state: dict[str, Any] | None = None) -> str:
    """The board as plain text for `seat` in `language` (the email's plain part, the history's hands):
    the adapter's in the reader's language where it has one (`Adapter.text_board`: it may keep the
    engine's for English by answering None), else the engine's English `render_text` with the players'
    names put in."""
    found = adapter(rules.name)
    if found.catalog is not None:
        words = Wording(rules.name, language, seat, dict(names), partners_of(rules, state, seat))
        drawn = found.text_board(view, words)
        if drawn is not None:
            return drawn
    return named(rules.render_text(view), dict(names), seat)


def at_state(game: AnyGame, state: dict[str, Any], seat: int | None, seq: int, names: dict[int, str], *,
             decisions: bool = True, result: Mapping[str, Any] | None = None,
             deadline_hours: int | None = None, language: str = lang.ENGLISH) -> Position:
    """The position of `state` (recorded, or a preview of moves not recorded) as `seat` sees it;
    `decisions`: with the seat's legal moves (False: none are offered); `result`: the one the service
    recorded where the engine has none (a forfeit); `deadline_hours`: the game's clock (the board says
    how long the decision asked has)."""
    rules = engine.get(game.name)
    view = rules.view(state, seat)
    position = Position(game=game, rules=rules, seq=seq, seat=seat, view=view, to_act=rules.to_act(state),
                        result=rules.result(state) or result, _state=state, names=names,
                        deadline_hours=deadline_hours, language=language)
    if decisions and seat is not None and position.result is None:
        position.moves = [LegalMove(move, move_words(rules, move, state, names, seat, language), rules.move_section(move))
                          for move in rules.legal_moves(state, seat)]
    return position
