"""Riftwalker test helpers shared by the web and end-to-end tests: a simple deterministic player
(`choose`) and the names of the cards each seat must not see (`Secrets`)."""

from __future__ import annotations

import bisect
import html
import json

import engine
from engine.riftwalker.cards import CARDS
from engine.riftwalker.state import line_positions, up_face
from service import store
from service.store import read_session

RULES = engine.get("riftwalker")
ALL_NAMES = sorted({card.name for card in CARDS.rifts.values()})


# ---- a simple deterministic player that ends games ------------------------------------------------

def _after(state, seat, move):
    for event in RULES.play(state, seat, move, None):
        state = RULES.apply(state, event)
    return state


def _gain(rift) -> int:
    track = CARDS.rifts[rift["id"]].track
    return track[rift["rot"] + 1] - track[rift["rot"]] if rift["rot"] < 2 else 0


def _action(state, seat, element) -> int:
    """What `element` does in the rift step: the best shift gain, else 1 to explore, else 0."""
    gains = [_gain(r) for r in state["explored"][seat] if r["rot"] < 2 and CARDS.rifts[r["id"]].matches(element)]
    if gains:
        return max(gains)
    return 1 if any(CARDS.rifts[c].matches(element) for c in state["hands"][seat]) else 0


def _burstable(state, seat, element) -> int:
    """The best burst the lines of `state` allow, counting a shift with `element` first."""
    lined = {el for el, _ in line_positions(state)}
    best = 0
    for rift in state["explored"][seat]:
        card = CARDS.rifts[rift["id"]]
        if any(card.matches(el) for el in lined):
            best = max(best, card.track[min(rift["rot"] + 1, 2)] if card.matches(element) else card.track[rift["rot"]])
    return best


def choose(state, seat, moves):
    """Bursts before anything, grid moves that open a burst, shifts before explores, never skip a
    power that helps and never throw away one's own rifts; refresh drops cards no visible element
    serves (a hand nobody can use would stall the game)."""
    if state["stack"]:
        own = {r["id"] for r in state["explored"][seat] + state["scored"][seat]}

        def hurts(m):
            cid = m.get("rift") or m.get("card")
            return m["type"] in ("discard", "return") and cid in own and cid not in state["hands"][seat]

        useful = [m for m in moves if m["type"] != "skip" and not hurts(m)]
        return useful[0] if useful else ({"type": "skip"} if {"type": "skip"} in moves else moves[0])
    turn = state["turn"]
    step = turn["step"]
    if step == "element":
        def worth(m):
            nxt = _after(state, seat, m)
            element = nxt["turn"]["element"] or m["element"]
            if m["type"] == "place":  # as good as the best slot it can then be put on
                lined = max(_burstable(_after(nxt, seat, {"type": "put", "slot": i}), seat, element) for i in range(9))
            else:
                lined = _burstable(nxt, seat, element)
            return 2 * lined + _action(state, seat, element)
        return max(moves, key=worth)
    if step == "element_place":
        return max(moves, key=lambda m: _burstable(_after(state, seat, m), seat, turn["placing"]))
    if step == "rift":
        shifts = [m for m in moves if m["type"] == "shift"]
        if shifts:
            explored = {r["id"]: r for r in state["explored"][seat]}
            return max(shifts, key=lambda m: _gain(explored[m["rift"]]))
        return next((m for m in moves if m["type"] == "explore"), {"type": "skip"})
    if step == "burst":
        explored = {r["id"]: r for r in state["explored"][seat]}
        bursts = [m for m in moves if m["type"] == "burst"]
        worth = lambda m: CARDS.rifts[m["rift"]].track[explored[m["rift"]]["rot"]]  # noqa: E731
        return max(bursts, key=worth) if bursts else {"type": "skip"}
    visible = {up_face(s) for s in state["grid"]} | set(CARDS.element_cards[state["edeck"][0]])
    for m in moves:
        if m["type"] == "discard" and not any(CARDS.rifts[m["card"]].matches(el) for el in visible):
            return m
    return {"type": "done"}


# ---- what each seat may not know ------------------------------------------------------------------

class Secrets:
    """Names of the rift cards a seat must not learn at a position: the other hands, the rift deck,
    a search it is not making, face-down cards beneath rifts it may not see (H7).

    Card names, not ids, are what pages and emails show, and a name may be public for another
    reason (three Ventures; a card returned to a hand after everyone saw it explored), so a name
    counts as secret only if nothing the seat was allowed to see so far (its view, the events in
    its words) names it.
    """

    def __init__(self, app, game_id):
        self.app, self.game_id = app, game_id
        self.seqs: list[int] = []  # the events' seqs, read once: the store only appends
        self.events: list[dict] = []
        # Per seat: the names its event sentences have mentioned up to each event (cumulative),
        # so a check at any seq is a lookup, not a pass over the whole history.
        self.named: dict[int | None, list[frozenset[str]]] = {}

    def _named_upto(self, seat, seq) -> frozenset[str]:
        cumulative = self.named.setdefault(seat, [])
        for event in self.events[len(cumulative):]:
            sentence = RULES.describe_event(event, seat) or ""
            before = cumulative[-1] if cumulative else frozenset()
            cumulative.append(before | {name for name in ALL_NAMES if name in sentence})
        count = bisect.bisect_right(self.seqs, seq)
        return cumulative[count - 1] if count else frozenset()

    def hidden(self, seat: int | None, seq: int | None = None, state: dict | None = None) -> set[str]:
        """`state`, when given, must be the one at `seq` (it saves rebuilding it)."""
        if seq is None or state is None or not self.seqs or seq > self.seqs[-1]:
            app = self.app
            with app.app_context(), read_session(app.extensions["riftpost.db"]) as session:
                game = store.get_game(session, self.game_id)
                seq = game.seq if seq is None else seq
                if state is None:
                    state = store.load_state(session, game, seq)[0]
                rows = store.stored_events(session, self.game_id, after=self.seqs[-1] if self.seqs else 0)
                self.seqs += [row.seq for row in rows]
                self.events += [row.payload for row in rows]
        secret = set(state["rdeck"])
        secret |= {c for s, hand in enumerate(state["hands"]) if s != seat for c in hand}
        if state["turn"] and state["turn"]["seat"] != seat:
            secret |= set(state["limbo"])
        for owner, rifts in enumerate(state["explored"]):
            for rift in rifts + state["scored"][owner]:
                secret |= {b["id"] for b in rift["beneath"]
                           if b["face"] == "down" and seat not in (b["by"], owner)}
        seen = json.dumps(RULES.view(state, seat))
        known = {name for name in ALL_NAMES if name in seen} | self._named_upto(seat, seq)
        return {CARDS.rifts[c].name for c in secret} - known

    def check(self, text: str, seat: int | None, seq: int | None = None, what: str = "",
              state: dict | None = None) -> None:
        shown = html.unescape(text)
        leaked = {name for name in self.hidden(seat, seq, state) if name in shown}
        assert not leaked, f"{what} for {'a spectator' if seat is None else f'seat {seat}'} names hidden cards {leaked}"
