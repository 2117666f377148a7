"""Beyond the Rift's events and moves as messages (engine/beyond_the_rift/messages.py, issue #26): every
key the engine emits is one it declares (`message_keys`, which the catalog check holds to translations),
every word of its vocabulary one of its `TERMS`, a message carries no card the viewer may not see, and a
message survives its JSON form (the outbox keeps it so)."""

from __future__ import annotations

import random

import engine
from engine.beyond_the_rift import messages as btr
from engine.messages import Card, Cards, Joined, Message, Term, msg

from .helpers import SCENARIOS, greedy_chooser, new, random_chooser

GAME = engine.get("beyond-the-rift")


def playout(seed: int, steps: int = 3000, heroes: int | None = None, scenario: str | None = None):
    """(state before, seat, event) for each event of a random game (1-4 heroes, each scenario in turn),
    and a sample of the (state, move) offered (every move but the standing orders, of which a few)."""
    n = heroes or 1 + seed % 4
    state, log = new(n, scenario or SCENARIOS[seed % len(SCENARIOS)], seed)
    before = None
    events = []
    for event in log:
        events.append((before, None, event))
        before = GAME.apply(before, event) if before is not None else engine.replay(GAME, [event])
    rng = random.Random(seed)
    offered = []
    chooser = greedy_chooser if seed % 2 else random_chooser
    for _ in range(steps):
        if GAME.result(state):
            break
        seat = rng.choice(GAME.to_act(state))
        legal = GAME.legal_moves(state, seat)
        settings = [mv for mv in legal if mv["type"] == "setting"]
        offered += [(state, mv) for mv in legal if mv["type"] != "setting"]
        offered += [(state, mv) for mv in rng.sample(settings, min(3, len(settings)))]
        move = chooser(state, seat, legal, rng)
        for event in GAME.play(state, seat, move, random.Random(rng.getrandbits(32))):
            events.append((state, seat, event))
            state = GAME.apply(state, event)
    return state, events, offered


def parts(message: Message):
    """Every message and term inside a message."""
    for inner in message.walk():
        yield inner
        for _name, value in inner.args:
            if isinstance(value, Term):
                yield value
            elif isinstance(value, Joined):
                for m in value.messages:
                    yield from parts(m)


def _used(message: Message, keys: set, terms: set) -> None:
    for part in parts(message):
        if isinstance(part, Message):
            keys.add(part.key)
        elif part.kind != "id":
            terms.add((part.kind, part.word))


def test_every_key_and_term_emitted_is_declared_and_every_message_round_trips_through_json():
    keys: set[str] = set()
    terms: set[tuple[str, str]] = set()
    for seed in range(12):
        state, events, offered = playout(seed)
        for before, _, event in events:
            for viewer in [None, *range(state["n"])]:
                for message in GAME.event_messages(event, viewer, before):
                    _used(message, keys, terms)
                    assert Message.from_json(message.to_json()) == message
        for before, move in offered:
            message = GAME.move_message(move, before)
            _used(message, keys, terms)
            assert Message.from_json(message.to_json()) == message
    assert keys <= GAME.message_keys, keys - GAME.message_keys
    declared = {(kind, word) for kind, words in btr.TERMS.items() for word in words}
    assert terms <= declared, terms - declared
    assert len(keys) > 60


def test_a_redacted_event_yields_a_message_without_the_hidden_cards():
    state, _ = new(2, "tutorial", 3)
    draw = {"type": "draw", "seat": 0, "cards": state["heroes"][0]["hand"][:2]}
    own = GAME.event_messages(draw, 0, state)[0]
    assert own.key == "event.draw.cards" and isinstance(own.arg("cards"), Cards)
    hidden = [btr.card(c).id for c in draw["cards"]]
    for viewer in (1, None):
        other = GAME.event_messages(draw, viewer, state)[0]
        assert other.key == "event.draw" and other.arg("count").n == 2
        assert not any(cid in repr(other.to_json()) for cid in draw["cards"] + hidden), other
    take = {"type": "take", "seat": 0, "pile": "wound", "card": "W03"}
    assert GAME.event_messages(take, 0, state)[0].arg("card") == Card("W03")
    assert GAME.event_messages(take, 1, state)[0].key == "event.take"
    assert "W03" not in repr(GAME.event_messages(take, 1, state)[0].to_json())
    peek = {"type": "peek", "seat": 0, "pile": "response", "cards": ["R1a"], "values": [1]}
    assert GAME.event_messages(peek, 1, state) == [msg("event.peek.hidden", actor=engine.messages.Seat(0),
                                                       who=btr.hero_term(state, 0))]


def test_the_hero_is_named_by_their_board_and_the_actor_is_the_seat():
    state, _ = new(2, "tutorial", 1)
    message = GAME.event_messages({"type": "play", "seat": 1, "card": state["heroes"][1]["hand"][0]}, 0, state)[0]
    assert message.arg("actor") == engine.messages.Seat(1)
    h = state["heroes"][1]
    assert message.arg("who") == Term("hero", f"{h['hero']}/{h['side']}")
