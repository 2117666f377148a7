"""Riftwalker's events and moves as messages (engine/riftwalker/messages.py, issue #26): every key the
engine emits is one it declares (`message_keys`, which the catalog check holds to translations), a
message carries no card the viewer may not see, and a message survives its JSON form (the outbox keeps
it so)."""

from __future__ import annotations

import random

import engine
from engine.messages import Card, Cards, Message, Seat, msg
from engine.riftwalker import messages as rw

GAME = engine.get("riftwalker")


def playout(seed: int, steps: int = 300):
    """(state before, seat, event) for each event of a random game, and every (state, move) offered."""
    state = engine.replay(GAME, GAME.start(2 + seed % 3, {}, seed))
    rng = random.Random(seed)
    events, offered = [], []
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
    for seed in range(12):
        state, events, offered = playout(seed)
        for before, _, event in events:
            for viewer in [None, *range(state["players"])]:
                for message in GAME.event_messages(event, viewer, before):
                    used |= _keys(message)
                    assert Message.from_json(message.to_json()) == message
        for before, move in offered:
            message = GAME.move_message(move, before)
            used |= _keys(message)
            assert Message.from_json(message.to_json()) == message
    assert used <= GAME.message_keys, used - GAME.message_keys
    assert len(used) > 50  # the playouts reach many of them (the power steps: the test below)


def test_every_power_step_of_every_card_has_a_message_of_declared_keys():
    for card in rw.CARDS.rifts.values():
        for step in card.power:
            assert _keys(rw.step_message(step)) <= GAME.message_keys, card.name


def test_a_redacted_event_yields_a_message_without_the_hidden_card():
    state = engine.replay(GAME, GAME.start(2, {}, 3))
    deal = next(e for e in GAME.start(2, {}, 3) if e["type"] == "deal" and e["seat"] == 0)
    own = GAME.event_messages(deal, 0, state)[0]
    other = GAME.event_messages(deal, 1, state)[0]
    spectator = GAME.event_messages(deal, None, state)[0]
    assert own.key == "event.deal.own" and own.arg("cards") == Cards(tuple(deal["cards"]))
    for message in (other, spectator):
        assert message.key == "event.deal" and message.arg("actor") == Seat(0)
        shown = repr(message.to_json())
        assert not any(card in shown for card in deal["cards"]), shown
    discard = {"type": "discard", "seat": 0, "owner": 0, "zone": "hand", "card": deal["cards"][0]}
    assert GAME.event_messages(discard, 0, state)[0].arg("card") == Card(deal["cards"][0])
    assert GAME.event_messages(discard, 1, state)[0].arg("card") == msg("a_card")


def test_a_game_without_messages_says_so_by_the_contracts_default():
    class Plain(engine.Game):  # the contract's defaults: no messages yet
        name = "plain"

    plain = Plain()
    assert plain.event_messages({"type": "setup"}, 0, None) is None
    assert plain.move_message({"type": "pass"}, None) is None
    assert plain.message_keys == frozenset()
