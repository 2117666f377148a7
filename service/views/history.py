"""History review: a game's event log as steps, turns and sentences, seen by one viewer.

A *position* is "the game after its first N events" (1 <= N <= seq).  Every historical board is
built like the live one: `store.load_state(session, game, N)` (the nearest snapshot at or before N
plus the events after it) and then `rules.view(state, viewer)`, so a player sees their own hand
and nothing hidden of others, and a spectator (viewer None) only public information.  Only after
the end may a page show other viewpoints or every hand (`full=True`): nothing is hidden any more.

- lines:  each event's sentence for the viewer, worded from the state before it
          (service/views/sentences.py; None-sentence bookkeeping events get no line), with journal
          entries interleaved after the event `after_seq`; marked when the engine says the event
          affected the viewer (`seats_affected`) and another seat caused it.
- turns:  maximal runs of consecutive events of the same actor (setup and system rows have none):
          an action of several decisions is one turn, the next seat's reply the next.
- steps:  by event = the seqs with a line for this viewer; by turn = the last seq of each turn.
- since:  a player's history opens at the end of their last own turn; the lines after it are
          "since your last move", marked when they affected the viewer.
- record: the event list redacted for the viewer (`redact_event`), or after the end unredacted.
- scores: public scores (spectator views) at the end of each turn, for the SVG chart.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

import engine
from service import lang, store
from service.errors import BadRequest, Forbidden, Invalid, NotFound
from service.games import adapter
from service.lang import ENGLISH, N_, Nf_, translations
from service.store import deal
from service.store.log import LogRow
from service.store.models import Game, JournalEntry, as_utc
from service.views import charts, positions, sentences
from service.views.recent import Recent, game_key
from service.views.talk import Said
from service.views.wording import Wording

BY = ("event", "turn")
TITLE = N_("That part of the history cannot be shown")
log = logging.getLogger(__name__)


@dataclass
class Line:
    seq: int  # the event's seq; a journal entry's after_seq
    text: str
    kind: str  # the event's kind (setup, move, timeout, system) or "journal"
    actor: int | None
    affects: bool = False  # another seat's doing that touched the viewer
    at: datetime | None = None
    said: Said | None = None  # a message of the table talk (kind "talk"): `with_talk`

    @property
    def journal(self) -> bool:
        return self.kind == "journal"

    @property
    def talk(self) -> bool:
        return self.kind == "talk"


@dataclass
class Turn:
    number: int  # 0 is the setup
    actor: int | None
    first: int
    last: int
    kind: str = "seat"  # seat | setup | system (the service's own events, e.g. the recorded end)


@dataclass
class Timeline:
    """The whole game's history as one viewer may read it (no boards: those are per step)."""

    game_id: int
    viewer: int | None
    seq: int
    lines: list[Line]
    turns: list[Turn]
    names: dict[int, str] = field(default_factory=dict)

    def event_steps(self) -> list[int]:
        worded = {line.seq for line in self.lines if not line.journal}
        if self.turns:  # the game as set up is where a replay starts, worded or not
            worded.add(self.turns[0].last)
        steps = sorted(worded)
        if not steps or steps[-1] != self.seq:
            steps.append(self.seq)  # the current position is always a step
        return steps

    def turn_steps(self) -> list[int]:
        return [turn.last for turn in self.turns] or [self.seq]

    def steps(self, by: str) -> list[int]:
        return self.turn_steps() if by == "turn" else self.event_steps()

    def turn_at(self, seq: int) -> Turn | None:
        for turn in self.turns:
            if turn.first <= seq <= turn.last:
                return turn
        return None

    def lines_of(self, turn: Turn) -> list[Line]:
        """The turn's lines, with the journal entries that happened during it or right after it
        (an entry made at seq N is placed after event N)."""
        return [line for line in self.lines if turn.first <= line.seq <= turn.last]

    def last_own_seq(self) -> int:
        """Where a player's history opens: the end of their last own turn (or of the setup)."""
        if self.viewer is None:
            return self.seq
        for turn in reversed(self.turns):
            if turn.actor == self.viewer:
                return turn.last
        return self.turns[0].last if self.turns else self.seq

    def since(self, seq: int) -> list[Line]:
        return [line for line in self.lines if line.seq > seq or (line.journal and line.seq == seq)]


def with_talk(lines: list[Line], talk: list[Said], low: int, high: int | None = None) -> list[Line]:
    """`lines` with the messages of `talk` written while the game stood at a seq in [low, high] placed
    among them in time order: a message written at seq N comes after event N (and the journal entries
    and other messages of that seq by their time), before event N + 1.  `talk` is what the viewer may
    read (service/views/talk.py `visible`): the history pages apply the same rules as the game page."""
    extra = [Line(said.seq, said.text, "talk", said.seat, at=said.created_at, said=said)
             for said in talk if said.seq >= low and (high is None or said.seq <= high)]
    if not extra:
        return lines

    def order(line: Line) -> tuple[int, bool, float, int]:
        after = line.journal or line.talk  # an event at N first; what came after it by time
        when = as_utc(line.at).timestamp() if after and line.at is not None else 0.0
        return line.seq, after, when, line.said.id if line.said is not None else 0

    return sorted(lines + extra, key=order)


def neighbours(steps: list[int], at: int) -> dict[str, int | None]:
    """first / prev / next / last step around position `at` (prev and next None at the ends)."""
    before = [s for s in steps if s < at]
    after = [s for s in steps if s > at]
    return {"first": steps[0], "prev": before[-1] if before else None,
            "next": after[0] if after else None, "last": steps[-1]}


# ---- caching -------------------------------------------------------------------------------------------
# The log is append-only, so anything computed from "game G up to seq N" never changes: an entry
# is keyed by the game's identity (database, id, commitment, creation time) and its seq, and a new move
# simply makes a new key.  Small and per process; only a speed-up.

_CACHE: Recent[Any] = Recent(96)
_MISSING = object()


def _cached(key: tuple, build):
    found = _CACHE.get(key, _MISSING)
    if found is _MISSING:
        found = build()
        _CACHE.put(key, found)
    return found


# ---- building the timeline -----------------------------------------------------------------------------


def affects(rules: engine.Game, payload: dict[str, Any], actor: int | None, viewer: int | None,
            state: dict[str, Any] | None) -> bool:
    """Did another seat's event touch the viewer (the engine's `seats_affected`, from the state the
    event was applied to)?  The viewer's own doings are not highlighted."""
    if viewer is None or actor == viewer:
        return False
    return viewer in rules.seats_affected(payload, state)


def with_states(rules: engine.Game, rows: list[LogRow], state: dict[str, Any] | None = None
                ) -> Iterator[tuple[LogRow, dict[str, Any] | None]]:
    """Each row with the state it was applied to (`state`: the state before the first row, owned by
    the caller and evolved in place), for words made from state."""
    for row in rows:
        yield row, state
        if row.kind != store.SYSTEM:  # engines never see the service's own events
            state = rules.evolve(state, row.payload)


def _turns(rows: list[tuple[int, int | None, str]]) -> list[Turn]:
    turns: list[Turn] = []
    last_key: tuple = ()
    for seq, actor, kind in rows:
        if kind == "system":
            key: tuple = ("system",)
        elif actor is None:
            key = ("setup",)
        else:
            key = ("seat", actor)  # a timeout's default move is still that seat's turn
        if turns and key == last_key:
            turns[-1].last = seq
        else:
            turns.append(Turn(len(turns), actor if key[0] == "seat" else None, seq, seq, key[0]))
            last_key = key
    return turns


def timeline(session: Session, game: Game, viewer: int | None, names: dict[int, str] | None = None,
             upto: int | None = None, language: str = lang.ENGLISH) -> Timeline:
    """Every line of the game up to `upto` as `viewer` reads it, in `language` (the page's)."""
    upto = game.seq if upto is None else upto
    names = names if names is not None else store.player_names(session, game.id)

    def build() -> Timeline:
        rules = engine.get(game.name)
        rows = store.events(session, game, upto=upto)
        lines: list[Line] = []
        waiting = store.journal_entries(session, game.id, upto)
        for row, before in with_states(rules, rows):
            text = sentences.event_sentence(rules, row.payload, row.kind, row.actor, viewer, before, names, language)
            if text:
                lines.append(Line(row.seq, text, row.kind, row.actor,
                                  affects(rules, row.payload, row.actor, viewer, before), row.created_at))
            while waiting and waiting[0].after_seq <= row.seq:
                lines.append(_journal_line(waiting.pop(0), viewer, names, language))
        lines.extend(_journal_line(entry, viewer, names, language) for entry in waiting)
        turns = _turns([(row.seq, row.actor, row.kind) for row in rows])
        return Timeline(game.id, viewer, upto, lines, turns, dict(names))

    key = (*game_key(session, game), "timeline", viewer, upto, language,
           journal_count(session, game.id), tuple(sorted(names.items())))
    return _cached(key, build)


def _journal_line(entry: JournalEntry, viewer: int | None, names: dict[int, str],
                  language: str = lang.ENGLISH) -> Line:
    text = sentences.journal_sentence(entry, names, language=language)
    hit = viewer is not None and entry.seat == viewer
    return Line(entry.after_seq, text, "journal", None, hit, entry.created_at)


def journal_count(session: Session, game_id: int) -> int:
    return session.execute(
        sa.select(sa.func.count()).select_from(JournalEntry).where(col(JournalEntry.game_id) == game_id)
    ).scalar_one()


# ---- one step ------------------------------------------------------------------------------------------

def parse_at(raw: str | None, game: Game) -> int | None:
    """The `at` query parameter: None when absent; BadRequest or NotFound when unusable."""
    if raw is None or raw == "":
        return None
    if not re.fullmatch(r"[0-9]{1,12}", raw):
        raise BadRequest(Nf_("'at' must be a whole number of events, 1 to %(last)d.", last=game.seq), TITLE)
    at = int(raw)
    if not 1 <= at <= game.seq:
        raise NotFound(Nf_("Game %(game)s has positions 1 to %(last)d (after that many events); there is no position "
                           "%(at)d.", game=game.id, last=game.seq, at=at), TITLE)
    return at


def shown_seq(session: Session, game: Game, at: int) -> int:
    """The position drawn for `at`.  A game is created in one step from its setup events, so the
    states between them never existed for anyone (and engines need not be able to draw them):
    a position inside the setup is drawn as the game was once set up."""
    # The setup is written once, with the game: its end never changes (and its query reads every row
    # of the game's log, so a page asks it once per process, not once per view).
    setup_end = _cached((*game_key(session, game), "setup_end"), lambda: store.setup_end(session, game))
    return max(at, min(setup_end, game.seq))


# The states of positions looked at lately, per process.  A position's state never changes (the
# log is append-only), so an entry is keyed by the game's identity and the position, and by the
# rules versions it was built under: the game's (whose events were upcast) and the engine's (whose
# evolve made it; a new engine makes new entries rather than reading its predecessor's states).
# The entries are never handed out: every caller gets its own copy (`copy_state` is cheap next to
# a load), since a state is a mutable dict and the move path's habit is to evolve states in place.
_STATES: Recent[dict[str, Any]] = Recent(64)


def state_at(session: Session, game: Game, at: int) -> dict[str, Any]:
    """The state after the first `at` events, the caller's own (from the cache when looked at lately)."""
    rules = engine.get(game.name)
    key = (*game_key(session, game), game.name, game.rules_version, rules.rules_version, at)
    state = _STATES.get(key)
    if state is None:
        state, _ = store.load_state(session, game, at)
        _STATES.put(key, state)
    own = rules.copy_state(state)
    assert own is not None
    return own


def _load(session: Session, game: Game, at: int):
    return engine.get(game.name), state_at(session, game, shown_seq(session, game, at))


def _view(rules: engine.Game, state: dict, seat: int | None, game: Game, at: int) -> dict:
    try:
        return rules.view(state, seat)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        # A position in the middle of one decision's events that the engine cannot draw: say so
        # (a 4xx naming the way out) rather than fail the whole page.
        log.warning("%s cannot draw game %s after event %s: %r", game.name, game.id, at, exc)
        raise Invalid(Nf_("The game cannot be drawn right after event %(at)d (the middle of a decision); step to a "
                          "neighbouring event.", at=at), TITLE) from exc


def position_at(session: Session, game: Game, viewer: int | None, at: int,
                language: str = lang.ENGLISH) -> positions.Position:
    """The board after the first `at` events as `viewer` saw it then (no moves: it is the past)."""
    rules, state = _load(session, game, at)
    view = _view(rules, state, viewer, game, at)
    names = store.player_names(session, game.id)  # boards name the players, as on the live page
    return positions.Position(
        game=game, rules=rules, seq=at, seat=viewer, view=view, to_act=rules.to_act(state),
        result=rules.result(state), _state=state, names=names, language=language,
    )


@dataclass
class SeatHand:
    seat: int
    name: str
    cards: list[str] | None  # card words, or None when the game's view has no plain hand
    board_text: str


def all_hands(session: Session, game: Game, at: int, names: dict[int, str],
              language: str = lang.ENGLISH) -> list[SeatHand]:
    """Every seat's hand at `at`: the full-information replay, only ever called after the end; a card the
    game's catalog names is worded in `language`, the text boards too where the game has its own."""
    if game.status != "finished":
        raise Forbidden("Every hand is shown only once the game is over.", TITLE)
    rules, state = _load(session, game, at)
    found = adapter(game.name)
    wording = Wording(game.name, language) if found.catalog is not None else None

    def words(view: dict) -> list[str] | None:
        said = found.hand_words(view)
        if said is None or wording is None:
            return said
        return [wording.card(card["id"]) if isinstance(card, dict) and card.get("id") in wording.catalog.card_names
                else text for card, text in zip(view["hand"], said, strict=True)]

    hands = []
    for seat in sorted(names):
        view = _view(rules, state, seat, game, at)
        hands.append(SeatHand(seat, names[seat], words(view),
                              positions.text_board(rules, view, names, seat, language, state)))
    return hands


# ---- public (spectator) JSON ---------------------------------------------------------------------------

def public_view(session: Session, game: Game, at: int) -> dict:
    """`GET /api/games/<id>?at=N`: the game as a spectator saw it after its first N events."""
    position = position_at(session, game, None, at)
    finished = position.result is not None
    return {
        "at": at,
        "seq": at,
        "latest_seq": game.seq,
        "status": "finished" if finished else "active",
        "to_act": position.to_act,
        "result": position.result,
        "view": position.view,
    }


def public_events(session: Session, game: Game, after: int = 0) -> list[dict[str, Any]]:
    """The event list as a spectator may read it: `redact_event(event, None)` and its sentence."""
    return _event_records(session, game, None, store.player_names(session, game.id), full=False, after=after)


def _event_records(session: Session, game: Game, viewer: int | None, names: dict[int, str], *,
                   full: bool, after: int = 0) -> list[dict[str, Any]]:
    rules = engine.get(game.name)
    rows = store.events(session, game, after=after)
    state = store.load_state(session, game, after)[0] if rows and after else None
    return [_event_record(rules, row, before, viewer, names, full=full) for row, before in with_states(rules, rows, state)]


def _event_record(rules: engine.Game, row: LogRow, state: dict[str, Any] | None, viewer: int | None,
                  names: dict[int, str], *, full: bool) -> dict[str, Any]:
    if full or row.kind == store.SYSTEM:  # system rows are the service's own public facts
        payload = row.payload
    else:
        payload = rules.redact_event(row.payload, viewer)
    return {
        "seq": row.seq, "kind": row.kind, "type": row.type, "actor": row.actor,
        "created_at": row.created_at.isoformat() if row.created_at else None,
        "event": payload,
        "text": sentences.event_sentence(rules, row.payload, row.kind, row.actor, viewer, state, names),
    }


def record(session: Session, game: Game, viewer: int | None) -> dict[str, Any]:
    """The downloadable game record: redacted for `viewer` while the game runs, complete (every
    hidden fact, and the game's secret) once it is over.  The commitment to the secret is in it from
    the start when it may be shown (service/store/deal.py)."""
    rules = engine.get(game.name)
    names = store.player_names(session, game.id)
    full = game.status == "finished"
    data: dict[str, Any] = {
        "format": "riftpost-game-record/2",
        "id": game.id,
        "game": game.name,
        "title": rules.title or rules.name,
        "rules_version": game.rules_version,  # the rules the game was set up under
        # the shapes of the events below: stored events of an older version are upcast to today's
        "events_rules_version": rules.rules_version,
        "options": game.options if full else rules.redact_options(game.options or {}, viewer),
        "status": game.status,
        "result": game.result,
        "seq": game.seq,
        "complete": full,
        "viewpoint": "all" if full else viewer,
        "players": [{"seat": seat, "name": name} for seat, name in sorted(names.items())],
        "events": _event_records(session, game, viewer, names, full=full),
        "journal": [
            {"after_seq": entry.after_seq, "kind": entry.kind, "seat": entry.seat,
             "created_at": entry.created_at.isoformat() if entry.created_at else None,
             "text": sentences.journal_sentence(entry, names)}
            for entry in store.journal_entries(session, game.id)
        ],
    }
    # With the secret, every random outcome can be checked again (`flask verify --record`).
    data.update(deal.shown(game).public())
    return data


# ---- scores over the game ------------------------------------------------------------------------------

def score_series(session: Session, game: Game) -> list[tuple[int, list[float]]] | None:
    """(seq, public scores by seat) at the end of every turn, or None when the game has no scores to
    chart (the engine's `public_scores`; the chart is then left out)."""

    def build() -> list[tuple[int, list[float]]] | None:
        rules = engine.get(game.name)
        rows = store.events(session, game, upto=game.seq)
        if not rows:
            return None
        ends = {turn.last for turn in _turns([(row.seq, row.actor, row.kind) for row in rows])}
        last_setup = max((row.seq for row in rows if row.kind == "setup"), default=0)
        ends.add(rows[-1].seq)
        series: list[tuple[int, list[float]]] = []
        state = None
        for row in rows:
            if row.kind == store.SYSTEM:  # engines never see the service's own events
                continue
            state = rules.evolve(state, row.payload)  # one replay, owned by us: evolve in place
            if (row.seq in ends and row.kind != "setup") or row.seq == last_setup:
                scores = rules.public_scores(rules.view(state, None))
                if scores is None:
                    return None
                series.append((row.seq, [float(scores[seat]) for seat in sorted(scores)]))
        return series or None

    return _cached((*game_key(session, game), "scores", game.seq), build)


def chart(session: Session, game: Game, names: dict[int, str], *, marker: int | None = None,
          target: float | None = None, chart_id: str | None = None, language: str = ENGLISH) -> Any | None:
    """The score chart of a game as SVG markup (None for a game without scores to chart), in `language`."""
    said = translations(language)
    labels = {seat: names.get(seat, said.gettext("Seat %(num)d") % {"num": seat + 1}) for seat in range(8)}
    return charts.score_chart(score_series(session, game), labels, marker=marker, target=target,
                              chart_id=chart_id or f"score-chart-{game.id}", language=language)
