"""Old logs read the same: real Riftforce logs written by the engine at git 828aa04 (rules_version
"1", tests/engine/old_logs/) are upcast event by event, replayed, and worded again from the state
before each event; every sentence for every viewer must equal the recorded one (but for the
changes listed below), the result must have the recorded winners and scores, the turn counter must
count sensibly, and `seats_affected` must mark at least the seats the old service marked."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import engine
from tests.engine.contract import rng_for

GAME = engine.get("riftforce")
LOGS = sorted((Path(__file__).parents[1] / "old_logs").glob("riftforce-*.json"))

# Recorded sentences today's engine words differently on purpose, by (log, event index): why.
CHANGED = {
    ("riftforce-base-2p-seed101.json", 1):
        "house rule Q16 (rules_version 2): in the base draft each player's dealt summoner is known "
        "only to that player until the draft ends; the old line named both dealt summoners to "
        "everyone, a leak under Q16.",
}

# Recorded wordings today's engine corrects everywhere: the old words -> today's, and why.
REWORDED = {"(1 cards)": "(1 card)"}  # plural forms (#22): a discard pile of one card reshuffled


# Team play (#22): the viewer's partner is no longer "your partner" in sentences but "Player 3" like
# every other seat, so the service can put the partner's name there.
_YOUR_PARTNER = re.compile(r"\b[Yy]our partner\b")


def _today(sentence: str | None, viewer: int | None = None, data: dict | None = None) -> str | None:
    for old, new in REWORDED.items():
        sentence = sentence.replace(old, new) if sentence else sentence
    if sentence and viewer is not None and data and data.get("options", {}).get("mode") == "team":
        partner = viewer ^ 2  # seats 1 and 3 are one team, 2 and 4 the other
        sentence = _YOUR_PARTNER.sub(f"Player {partner + 1}", sentence)
    return sentence


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


def _viewer(key: str) -> int | None:
    return None if key == "spectator" else int(key)


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_old_log_replays_and_reads_the_same(path):
    data = _load(path)
    assert data["rules_version"] == "1" and int(GAME.rules_version) > 1
    state = None
    changed = set()
    for i, (event, said) in enumerate(zip(data["events"], data["sentences"], strict=True)):
        frozen = json.dumps(event, sort_keys=True)
        new = GAME.upcast(event, data["rules_version"])
        assert json.dumps(event, sort_keys=True) == frozen, "upcast mutated its input"
        assert "mode" not in new or new["type"] == "setup"
        for key, want in said.items():
            got = GAME.describe_event(new, _viewer(key), state)
            if (path.name, i) in CHANGED:
                changed.add((path.name, i))
                assert got != want
            else:
                assert got == _today(want, _viewer(key), data), (i, key, event)
        state = GAME.apply(state, new)
    assert changed == {k for k in CHANGED if k[0] == path.name}
    result = json.loads(json.dumps(GAME.result(state)))
    assert result["winners"] == data["result"]["winners"]
    assert result["scores"] == data["result"]["scores"]
    if "trainer" in data["result"]:
        assert result["trainer"] == data["result"]["trainer"]


def test_q16_the_changed_draft_line_names_only_the_viewers_own_dealt_summoner():
    """The one changed line (CHANGED): each player hears their own dealt summoner, nobody else's."""
    data = _load(next(p for p in LOGS if p.name == "riftforce-base-2p-seed101.json"))
    setup = GAME.apply(None, GAME.upcast(data["events"][0], "1"))
    draft = GAME.upcast(data["events"][1], "1")
    names = [g.capitalize() for g in draft["dealt"]]
    for viewer in (None, 0, 1):
        line = GAME.describe_event(draft, viewer, setup)
        assert [name in line for name in names] == [seat == viewer for seat in (0, 1)]


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_old_log_turn_numbers_count_picks_and_turns(path):
    """turn() on a replayed rules_version "1" log: 1 at the draft, then one more at every pick that
    hands the draft on to another seat and at every `turn` event, never otherwise; no seats once over."""
    data = _load(path)
    state = None
    expected = 0
    for event in data["events"]:
        before = state
        state = GAME.apply(state, GAME.upcast(event, "1"))
        kind = event["type"]
        if kind == "draft":
            expected = 1
        elif kind == "turn" or (kind == "pick" and state["phase"] == "draft"
                                and any(len(p) < q for p, q in _quotas(state)) and state["turn"] != event["seat"]):
            expected += 1
        turn = GAME.turn(state)
        assert turn.number == expected, (event, turn)
        if before is not None and turn.seats:
            assert turn.seats == (state["turn"],)
    assert GAME.turn(state).seats == () and GAME.turn(state).phase == "over"


def _quotas(s):
    d = s["draft"]
    return zip(d["picks"], d.get("quota", [4, 4]))


# The old service's marks (service/history.py `affects` at 828aa04), made only on events with a sentence for
# the viewer: a seat named by these payload fields, or a sentence speaking to the viewer as "you".
# "Your partner ..." speaks of the partner, not to the viewer, so it is no mark of the viewer's
# (the old regex matched it by accident).
_OLD_FIELDS = ("seat", "owner", "pile", "target_seat", "victim")
_YOU = re.compile(r"\b(you|your|yours)\b", re.IGNORECASE)
_PARTNER = re.compile(r"\byour partner('s)?\b", re.IGNORECASE)


def _old_marks(event: dict, said: dict, players: int) -> set[int]:
    marked = set()
    for seat in range(players):
        text = said.get(str(seat))
        if not text:
            continue
        if any(event.get(k) == seat and not isinstance(event.get(k), bool) for k in _OLD_FIELDS) or _YOU.search(_PARTNER.sub("", text)):
            marked.add(seat)
    return marked


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_seats_affected_covers_the_old_service_marks(path):
    """Every seat the old service marked is among `seats_affected` of the upcast event, worded from
    the state before it."""
    data = _load(path)
    state = None
    for event, said in zip(data["events"], data["sentences"], strict=True):
        new = GAME.upcast(event, "1")
        marks = _old_marks(event, said, data["players"])
        affected = set(GAME.seats_affected(new, state))
        assert affected <= set(range(data["players"])), event
        assert marks <= affected, (event, said, affected)
        state = GAME.apply(state, new)


# ---- a solo game of rules_version "2", played on under today's engine -----------------------------

# Recorded by the engine at rules_version "2" (tests/engine/contract.py's golden format): the
# trainer's guilds fixed at creation, before the 6 were drawn from the other 14.
RULES2_SOLO = sorted((Path(__file__).parents[1] / "old_logs" / "riftforce-rules2").glob("*.json"))
SOLO_SETUP = ("setup", "draft", "plans")


@pytest.mark.parametrize("path", RULES2_SOLO, ids=[p.stem for p in RULES2_SOLO])
def test_a_rules_version_2_solo_game_plays_on_exactly_as_it_was_recorded(path):
    """A solo game set up before the trainer's guilds came after the keep (rules_version "2") goes
    on as it was set up, from any point (a game in progress when the engine changed): its stored
    events upcast unchanged, the recorded moves played on its stored setup with the service's RNGs
    give exactly the recorded events (the keep's last pick deals at once: no decision about the
    trainer's guilds), and the log replays to the same state and result."""
    data = _load(path)
    assert data["rules_version"] == "2" and int(GAME.rules_version) > 2
    log = [GAME.upcast(e, "2") for e in data["events"]]
    assert log == data["events"]
    assert "trainer" in log[1] and not [e for e in log if e["type"] in ("trainer_draft", "give")]
    events = [e for e in log if e["type"] in SOLO_SETUP][:len(SOLO_SETUP)]
    assert log[:len(events)] == events
    state = engine.replay(GAME, events)
    for i, decision in enumerate(data["moves"]):
        assert decision["move"] in GAME.legal_moves(state, decision["seat"]), i
        new = GAME.play(state, decision["seat"], decision["move"], rng_for(data["seed"], len(events)))
        assert json.loads(json.dumps(new)) == log[len(events):len(events) + len(new)], (i, decision)
        events += new
        state = engine.replay(GAME, new, state)
    assert len(events) == len(log) and state["guilds"][1] == log[1]["trainer"]
    assert json.loads(json.dumps(GAME.result(state))) == data["result"]
    assert engine.replay(GAME, log) == state
