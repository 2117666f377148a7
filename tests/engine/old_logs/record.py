"""How the logs in this folder were made: run at git 828aa04 (`python tests/engine/old_logs/record.py`),
before the engines stopped writing words into events.  Each file holds real events of that engine and every
event's sentence for every viewer, so later engines can be checked to replay and read them the same.
It calls the old `describe_event(event, seat)` and does not run against later engines; kept as the record."""
import json, random, sys, pathlib
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3]))
import engine
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3]))
from tests.engine.beyond_the_rift.helpers import greedy_chooser, CARRY
import importlib.util
spec = importlib.util.spec_from_file_location("rb", str(pathlib.Path(__file__).resolve().parents[3] / "bench" / "riftwalker_balance.py"))
rb = importlib.util.module_from_spec(spec); spec.loader.exec_module(rb)

OUT = pathlib.Path(__file__).resolve().parent

def record(name, players, options, seed, chooser=None, limit=4000):
    g = engine.get(name)
    events = g.start(players, options, seed)
    state = engine.replay(g, events)
    rng = random.Random(seed)
    moves = []
    for _ in range(limit):
        if g.result(state) is not None:
            break
        seat = rng.choice(g.to_act(state))
        legal = g.legal_moves(state, seat)
        move = chooser(state, seat, legal, rng) if chooser else rng.choice(legal)
        new = g.play(state, seat, move, random.Random(f"{seed}:{len(events)}"))
        moves.append({"seat": seat, "move": move})
        for e in new:
            state = g.evolve(state, e)
        events += new
    events = json.loads(json.dumps(events))
    words = []
    for e in events:
        by = {}
        for viewer in (None, *range(players)):
            by["spectator" if viewer is None else str(viewer)] = g.describe_event(e, viewer)
        words.append(by)
    describe = []
    return {"game": name, "rules_version": g.rules_version, "players": players, "options": options,
            "seed": seed, "made_by": "git 828aa04", "events": events, "sentences": words,
            "result": json.loads(json.dumps(g.result(state)))}

CASES = [
    ("riftforce", 2, {"guilds": "base"}, 101, None),
    ("riftforce", 2, {"guilds": "all"}, 102, None),
    ("riftforce", 3, {"mode": "team"}, 103, None),
    ("riftforce", 4, {"mode": "team"}, 104, None),
    ("riftforce", 1, {"mode": "solo", "stars": {"5": 2, "6": 2, "7": 2}, "and": {"number": 6, "end": "A"}}, 105, None),
    ("riftwalker", 2, {}, 201, rb.greedy),
    ("riftwalker", 4, {}, 202, rb.greedy),
    ("beyond-the-rift", 2, {"scenario": "tutorial"}, 301, greedy_chooser),
    ("beyond-the-rift", 1, {"scenario": "old-friends-1"}, 302, greedy_chooser),
    ("beyond-the-rift", 3, {"scenario": "old-friends-2", "carry": CARRY["old-friends-2"]}, 303, greedy_chooser),
    ("beyond-the-rift", 4, {"scenario": "old-friends-3", "carry": CARRY["old-friends-3"]}, 304, greedy_chooser),
]
for name, players, options, seed, chooser in CASES:
    data = record(name, players, options, seed, chooser)
    tag = options.get("mode") or options.get("guilds") or options.get("scenario") or "game"
    path = OUT / f"{name}-{tag}-{players}p-seed{seed}.json"
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(path.name, len(data["events"]), data["result"] and data["result"].get("winners"), path.stat().st_size)
