"""The engine contract (engine/core.py), checked the same way for every registered game: seeded
playouts are pure and JSON all through, replay from event 0 equals the live state, turns and results
keep their shapes, timeouts pick legal moves, moves round-trip through their text form, words are
made for every event from the state it happened in, and nothing a seat may not see reaches its view,
its redacted events or its sentences."""

from __future__ import annotations

import ast
import json
import random
from functools import cache
from pathlib import Path

import pytest

import engine

from .contract import ContractCase, cases, mentions, playout

CASES = cases()
IDS = [case.game for case in CASES]
ENGINE = Path(engine.__file__).parent
RANDOM_GLOBALS = {"random", "randint", "choice", "choices", "shuffle", "sample", "uniform", "seed",
                  "randrange", "getrandbits", "gauss", "betavariate", "triangular"}


@cache
def _games(game: str):
    """The suite's seeded playouts of a game, played once per test session."""
    case = next(c for c in CASES if c.game == game)
    out = []
    for players, options in case.setups:
        for seed in range(1, case.games_per_setup + 1):
            out.append((players, options, seed, *playout(case, players, options, seed)))
    return case, out


def games(case: ContractCase):
    return _games(case.game)[1]


def test_every_registered_game_has_a_contract_case():
    assert set(engine.names()) == set(IDS)


def test_no_engine_module_uses_the_global_random_generator():
    """DESIGN.md: randomness only through the rng passed to `play` (imports are checked by
    import-linter's contract in pyproject.toml: no flask, sqlmodel, celery, clock, service)."""
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        aliases = {"random"}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                assert {a.name for a in node.names} <= {"Random"}, f"{path}: imports random's globals"
            if isinstance(node, ast.Import):
                aliases |= {a.asname or a.name for a in node.names if a.name == "random"}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
                assert node.attr not in RANDOM_GLOBALS, f"{path}: calls random.{node.attr}"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_play_and_apply_are_pure_and_replay_from_event_0_equals_the_live_state(case):
    rules = case.rules
    for players, options, seed, setup, steps, final in games(case):
        log = list(setup)
        for step in steps:
            frozen = json.dumps(step.before, sort_keys=True)
            rules.play(step.before, step.seat, step.move, random.Random(0))
            assert json.dumps(step.before, sort_keys=True) == frozen, "play mutated its input"
            state = step.before
            for event in step.events:
                assert json.loads(json.dumps(event)) == event, f"event not JSON: {event}"
                before, shape = json.dumps(state, sort_keys=True), json.dumps(event, sort_keys=True)
                after = rules.apply(state, event)
                assert json.dumps(state, sort_keys=True) == before, f"apply mutated its input: {event}"
                assert json.dumps(event, sort_keys=True) == shape, f"apply mutated the event: {event}"
                state = after
            log += step.events
        assert json.loads(json.dumps(final)) == final, "the state is not JSON"
        assert engine.replay(rules, json.loads(json.dumps(log))) == final, (players, options, seed)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_upcast_leaves_events_of_todays_shape_alone(case):
    """The store upcasts every event of a game set up under an older rules version, the events today's
    engine appended since included: those must come back unchanged, from any older version."""
    rules = case.rules
    older = [str(v) for v in range(1, int(rules.rules_version))] if rules.rules_version.isdigit() else []
    for *_, setup, steps, _final in games(case):
        for event in setup + [e for step in steps for e in step.events]:
            for version in older:
                assert rules.upcast(event, version) == event, (version, event)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_results_have_one_shape(case):
    """Result: scores of every seat keyed by the seat as a string, winners a list of seats."""
    rules = case.rules
    finished = 0
    for players, _options, _seed, _setup, steps, final in games(case):
        for step in steps:
            assert rules.result(step.before) is None
        result = rules.result(final)
        if result is None:
            continue
        finished += 1
        assert json.loads(json.dumps(result)) == result
        assert set(result["scores"]) == {str(s) for s in range(players)}
        assert all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in result["scores"].values())
        assert set(result["winners"]) <= set(range(players))
        assert result.get("outcome") in (None, "win", "loss")
    assert finished, "no playout of the suite finished: raise max_decisions"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_turns_count_up_and_belong_to_seats_that_act(case):
    rules = case.rules
    for *_, steps, final in games(case):
        states = [step.before for step in steps] + [final]
        previous = None
        for state in states:
            turn = rules.turn(state)
            assert isinstance(turn, engine.Turn) and isinstance(turn.phase, str)
            if previous is not None:
                assert turn.number >= previous.number
            if rules.result(state) is None and (previous is None or turn.number != previous.number):
                assert set(turn.seats) <= set(rules.to_act(state)), (turn, rules.to_act(state))
                assert turn.seats, "a new turn belongs to someone"
            previous = turn


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_timeout_moves_are_legal_under_both_policies(case):
    rules = case.rules
    for *_, steps, _final in games(case):
        for step in steps[::3]:
            for seat in rules.to_act(step.before):
                legal = rules.legal_moves(step.before, seat)
                for policy in ("auto", "skip"):
                    assert rules.timeout_move(step.before, seat, policy) in legal


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_legal_move_round_trips_through_its_text_form(case):
    rules = case.rules
    for *_, steps, _final in games(case):
        for step in steps[::2]:
            for seat in rules.to_act(step.before):
                legal = rules.legal_moves(step.before, seat)
                texts = [rules.move_text(step.before, seat, move) for move in legal]
                assert len(set(texts)) == len(texts), f"two moves share a text: {texts}"
                for move, text in zip(legal, texts):
                    assert "\n" not in text and len(text) <= 200, text
                    assert rules.parse_move(step.before, seat, text) == move, text


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_unreadable_move_texts_are_refused_with_a_code(case):
    rules = case.rules
    _players, _options, _seed, _setup, steps, _final = games(case)[0]
    state = steps[0].before
    seat = rules.to_act(state)[0]
    for text in ("", "   ", "=", "{", "[1, 2]", "x" * 500 + "=", '{"no": "type"}'):
        with pytest.raises(engine.IllegalMove) as caught:
            rules.parse_move(state, seat, text)
        assert caught.value.code == "unreadable", text


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_event_has_words_for_every_viewer_from_the_state_before_it(case):
    rules = case.rules
    for players, _options, _seed, setup, steps, _final in games(case):
        viewers = [None, *range(players)]
        state = None
        for event in setup:
            for viewer in viewers:
                text = rules.describe_event(event, viewer, state)
                assert text is None or (isinstance(text, str) and text.strip())
            state = rules.apply(state, event)
        for step in steps:
            state = step.before
            for event in step.events:
                for viewer in viewers:
                    text = rules.describe_event(event, viewer, state)
                    assert text is None or (isinstance(text, str) and text.strip()), event
                affected = rules.seats_affected(event, state)
                assert set(affected) <= set(range(players)), (event, affected)
                state = rules.apply(state, event)


def _shown(rules, event, viewer, state) -> str:
    """What a viewer gets of an event: its redacted form and its sentence."""
    return json.dumps(rules.redact_event(event, viewer)) + " " + (rules.describe_event(event, viewer, state) or "")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_no_seat_sees_what_it_may_not_in_views_redacted_events_and_words(case):
    """A card hidden from a seat both before and after an event is named neither by that event as
    the seat gets it nor by its sentence; no view (nor its text) names a card hidden from it."""
    rules = case.rules
    for players, _options, _seed, setup, steps, _final in games(case):
        viewers = [None, *range(players)]
        set_up = engine.replay(rules, setup)
        state = None
        for event in setup:  # the deals: hidden both before play and after the event
            after = rules.apply(state, event)
            for viewer in viewers:
                secret = case.hidden(after, viewer) & case.hidden(set_up, viewer)
                assert not mentions(_shown(rules, event, viewer, state), secret), (viewer, event)
            state = after
        for step in steps:
            state = step.before
            for event in step.events:
                after = rules.apply(state, event)
                for viewer in viewers:
                    secret = case.hidden(after, viewer) & case.hidden(state, viewer)
                    assert not mentions(_shown(rules, event, viewer, state), secret), (viewer, event)
                state = after
            for viewer in viewers:
                view = rules.view(state, viewer)
                leaked = mentions(json.dumps(view) + rules.render_text(view), case.hidden(state, viewer))
                assert not leaked, (viewer, leaked)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_public_scores_cover_every_seat_or_are_absent(case):
    rules = case.rules
    for players, _options, _seed, _setup, steps, final in games(case):
        for state in [step.before for step in steps[::5]] + [final]:
            scores = rules.public_scores(rules.view(state, None))
            if scores is not None:
                assert set(scores) == set(range(players))
                assert all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in scores.values())


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_options_schema_is_an_object_schema(case):
    schema = case.rules.options_schema()
    assert schema["type"] == "object" and isinstance(schema.get("properties"), dict)
    json.dumps(schema)
