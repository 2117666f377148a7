"""Riftforce's events, moves, summaries and prompts as messages (engine/riftforce/messages.py, issue #26):
every key the engine emits is one it declares (`message_keys`, which the catalog check holds to
translations), a message carries no card the viewer may not see, and a message survives its JSON form."""

from __future__ import annotations

import random

import engine
from engine.messages import Card, Message, Seat
from engine.riftforce import messages as rf
from engine.riftforce.cards import GUILD_CARDS

GAME = engine.get("riftforce")
MODES = ("duel", "team", "solo")


def setup(mode: str, seed: int) -> tuple[int, dict]:
    """Players and options of a game of `mode`, varied by `seed` (base and Beyond duels, 3 and 4 in
    team play, the solo trainer's guilds chosen, random and named)."""
    if mode == "duel":
        return 2, {"guilds": "base" if seed % 2 else "all"}
    if mode == "team":
        return 3 + seed % 2, {"mode": "team"}
    return 1, {"mode": "solo", "trainer_guilds": ["random", "choose", ["fire", "water", "ice", "plant"]][seed % 3]}


def playout(mode: str, seed: int, steps: int = 400):
    """(state before, seat, event) for each event of a random game (the setup's with seat None and the
    first state None), every (state, move) offered, and the final state."""
    players, options = setup(mode, seed)
    start = GAME.start(players, options, seed)
    state = None
    events = []
    for event in start:
        events.append((state, None, event))
        state = engine.replay(GAME, [event]) if state is None else GAME.apply(state, event)
    rng = random.Random(seed)
    offered = []
    for _ in range(steps):
        if GAME.result(state):
            break
        seat = GAME.to_act(state)[0]
        moves = GAME.legal_moves(state, seat)
        offered += [(state, move) for move in moves]
        for event in GAME.play(state, seat, rng.choice(moves), rng):
            events.append((state, seat, event))
            state = GAME.apply(state, event)
    return state, events, offered


def _keys(message: Message) -> set[str]:
    return {inner.key for inner in message.walk()}


def test_every_key_emitted_is_declared_and_every_message_round_trips_through_json():
    used: set[str] = set()
    for mode in MODES:
        for seed in range(6):
            state, events, offered = playout(mode, seed)
            for before, _, event in events:
                for viewer in [None, *range(state["players"])]:
                    for message in GAME.event_messages(event, viewer, before):
                        used |= _keys(message)
                        assert Message.from_json(message.to_json()) == message
                if event["type"] == "action_end":
                    used |= _keys(rf.summary_message(event["summary"], before))
            for before, move in offered:
                message = GAME.move_message(move, before)
                used |= _keys(message)
                assert Message.from_json(message.to_json()) == message
                ask = (before["pending"] or {}).get("ask")
                if ask:
                    used |= _keys(rf.ask_message(ask)) | _keys(rf.ask_message(ask, True))
    assert used <= GAME.message_keys, used - GAME.message_keys
    assert len(used) > 90  # the playouts reach most of them


def test_every_plan_has_a_message_of_declared_keys():
    for plan in rf.solo.PLANS:
        assert _keys(rf.plan_message(plan)) <= GAME.message_keys, plan


def test_a_teammates_draw_and_a_secret_summoner_stay_hidden():
    state, events, _ = playout("team", 1, steps=60)
    draw = next(event for _, _, event in events if event["type"] == "draw" and event["seat"] == 2)
    before = next(before for before, _, event in events if event is draw)
    own = GAME.event_messages(draw, 2, before)[0]
    assert own.key == "event.draw.own" and all(Card(c) in _cards(own) for c in draw["cards"])
    for viewer in (None, 0, 1, 3):  # the partner (0) sees no more than the others
        message = GAME.event_messages(draw, viewer, before)[0]
        assert message.key == "event.draw" and message.arg("actor") == Seat(2)
        assert not any(card in repr(message.to_json()) for card in draw["cards"])
    state, events, _ = playout("duel", 1, steps=0)  # a base draft: each dealt summoner is its player's secret
    before, _, draft = next(item for item in events if item[2]["type"] == "draft")
    for viewer in (0, 1):
        message = GAME.event_messages(draft, viewer, before)[0]
        assert message.key == "event.draft.secret"
        shown = repr(message.to_json())
        assert draft["dealt"][viewer] in shown and draft["dealt"][1 - viewer] not in shown
        assert draft["removed"][0] not in shown
    spectator = repr(GAME.event_messages(draft, None, before)[0].to_json())
    assert not any(g in spectator for g in [*draft["dealt"], *draft["removed"]])


def _cards(message: Message) -> list:
    found = []
    for inner in message.walk():
        found += [value for _, value in inner.args if isinstance(value, Card)]
    return found


def test_the_solo_trainer_is_no_seat():
    state, events, _ = playout("solo", 0, steps=20)
    said = [m for before, _, event in events if before is not None and event.get("seat") == 1
            for m in GAME.event_messages(event, 0, before)]
    assert said
    for message in said:
        assert all(not (isinstance(v, Seat) and v.n == 1) for inner in message.walk() for _, v in inner.args)
    assert set(GUILD_CARDS)  # the cards module is the catalog's source of names
