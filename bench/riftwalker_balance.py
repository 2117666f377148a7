"""Riftwalker balance report: self-play of a simple greedy bot over many seeded games.

    .venv/bin/python bench/riftwalker_balance.py [--games 10000] [--workers 2] [--players 2,3,4]

Prints the win rate by seat and by position from the first player, the win rate by a player's
main element (the element that gave them most points), the average game length, the end reasons,
and how often each rift card is burst (and the win rate of the player who burst it), so a card or
element far off the others shows up.  Games are split evenly over the player counts; game k uses
seed k, so a run is reproducible.

The bot (rules/riftwalker.md Q3 asks for exactly this kind of tuning run) is greedy and cheap:
* Element step: for each flip and place, it scores the element it would get (the best shift or
  explore it allows) plus the best burst a line on the resulting grid would allow;
* Rift step: the shift that gains most, else an explore, and it always activates;
* Burst: the most valuable burst; inside powers: a random choice other than "skip", except that it
  declines to discard or return its own explored or scored rifts when it may;
* Refresh: swaps out a card no visible element can use (and now and then a random one), as a
  bot that never refreshes can stall a game forever.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine
from engine.riftwalker import flow
from engine.riftwalker.cards import CARDS
from engine.riftwalker.state import LINES, value

GAME = engine.get("riftwalker")
EC = CARDS.element_cards
RIFTS = CARDS.rifts


# for each slot, the two other slots of every line through it
PAIRS = [[tuple(k for k in ln if k != i) for ln in LINES if i in ln] for i in range(9)]


def _lines_if(ups, slot, element, now):
    """Elements with a line once `slot` shows `element` (ups: the face-up elements; now: current lines)."""
    found = {el for el, ln in now if slot not in ln}
    for a, b in PAIRS[slot]:
        if ups[a] == element and ups[b] == element:
            found.add(element)
            break
    return found


def _action_value(state, seat, element):
    """What the bot can do in the rift step with `element`: shift gain, or a small value for exploring."""
    best = 0.0
    for r in state["explored"][seat]:
        card = RIFTS[r["id"]]
        if r["rot"] < 2 and card.matches(element):
            best = max(best, card.track[r["rot"] + 1] - card.track[r["rot"]])
    if best == 0 and any(RIFTS[c].matches(element) for c in state["hands"][seat]):
        best = 1.0
    return best


def _burst_value(state, seat, lined, element):
    """Best burst a grid with lines `lined` allows after using `element` on the best shift."""
    best = 0
    if not lined:
        return 0
    for r in state["explored"][seat]:
        card = RIFTS[r["id"]]
        v = card.track[r["rot"]]
        if r["rot"] < 2 and card.matches(element):
            v = max(v, card.track[r["rot"] + 1])  # it may get shifted first
        if v > 0 and any(card.matches(e) for e in lined):
            best = max(best, v)
    return best


def _element_choice(state, seat, moves):
    grid = state["grid"]
    ups = [EC[c][u] for c, u in grid]
    now = [(ups[ln[0]], ln) for ln in LINES if ups[ln[0]] == ups[ln[1]] == ups[ln[2]]]
    best, choice = -1.0, moves[0]
    action = {el: _action_value(state, seat, el) for el in CARDS.elements}
    for m in moves:
        if m["type"] == "flip":
            c, u = grid[m["slot"]]
            element = EC[c][u]
            score = action[element] + 1.5 * _burst_value(state, seat, _lines_if(ups, m["slot"], EC[c][1 - u], now),
                                                         element)
        else:
            element = m["element"]
            score = action[element] + max(1.5 * _burst_value(state, seat, _lines_if(ups, i, element, now), element)
                                          for i in range(9))
        if score > best:
            best, choice = score, m
    return choice


def _put_choice(state, seat, moves, element):
    ups = [EC[c][u] for c, u in state["grid"]]
    now = [(ups[ln[0]], ln) for ln in LINES if ups[ln[0]] == ups[ln[1]] == ups[ln[2]]]
    return max(moves, key=lambda m: _burst_value(state, seat, _lines_if(ups, m["slot"], element, now), element))


def _hurts(state, seat, move):
    """Moves that cost the bot a rift it already explored or scored (it declines them when it may)."""
    if move["type"] not in ("discard", "return"):
        return False
    cid = move.get("card") or move.get("rift")
    if move["type"] == "discard" and cid in state["hands"][seat]:
        return False
    return any(r["id"] == cid for r in state["explored"][seat] + state["scored"][seat])


def greedy(state, seat, moves, rng):
    if state["stack"]:
        if moves[0]["type"] == "activate" and moves[-1]["type"] == "skip" and len(moves) == 2:
            return moves[0]
        useful = [m for m in moves if m["type"] != "skip" and not _hurts(state, seat, m)]
        if not useful and {"type": "skip"} in moves:
            return {"type": "skip"}
        return rng.choice(useful or moves)
    turn = state["turn"]
    step = turn["step"]
    if step == "element":
        return _element_choice(state, seat, moves)
    if step == "element_place":
        return _put_choice(state, seat, moves, turn["placing"])
    if step == "rift":
        best, choice = 0, None
        for m in moves:
            if m["type"] == "shift":
                r = next(x for x in state["explored"][seat] if x["id"] == m["rift"])
                card = RIFTS[r["id"]]
                gain = card.track[r["rot"] + 1] - card.track[r["rot"]]
                if gain > best:
                    best, choice = gain, m
        if choice is None:
            explores = [m for m in moves if m["type"] == "explore"]
            choice = rng.choice(explores) if explores else {"type": "skip"}
        return choice
    if step == "burst":
        bursts = [m for m in moves if m["type"] == "burst"]
        if not bursts:
            return {"type": "skip"}
        return max(bursts, key=lambda m: (value(next(x for x in state["explored"][seat] if x["id"] == m["rift"])),
                                          m["via"] == "line"))
    # refresh: swap out one card no visible element can use (else hands can stall the game)
    hand = state["hands"][seat]
    if len(hand) >= 3:
        visible = {EC[c][u] for c, u in state["grid"]} | set(EC[state["edeck"][0]])
        for c in hand:
            if not any(RIFTS[c].matches(e) for e in visible):
                return {"type": "discard", "card": c}
        if rng.random() < 0.2:
            return {"type": "discard", "card": rng.choice(hand)}
    return {"type": "done"}


def play_one(args):
    players, seed = args
    rng = random.Random(seed * 7919 + 1)
    state = engine.replay(GAME, GAME.start(players, {}, seed))
    first = state["first"]
    bursts = []
    turns = 1
    steps = 0
    while not state["over"]:
        seat, moves = flow.decision(state)
        move = greedy(state, seat, moves, rng)
        for e in flow.step(state, seat, move):
            if e["type"] == "burst":
                bursts.append((e["owner"], e["rift"], e["rot"]))
            elif e["type"] == "turn":
                turns += 1
        steps += 1
        if steps > 100000:
            raise RuntimeError(f"game {players}p seed {seed} does not end")
    res = GAME.result(state)
    main_element = []
    for s in range(players):
        per = Counter()
        for r in state["scored"][s]:
            for el in RIFTS[r["id"]].bonus_elements() or ("wild",):
                per[el] += value(r)
        main_element.append(per.most_common(1)[0][0] if per else None)
    return {"players": players, "first": first, "winners": res["winners"], "length": turns,
            "reason": res["end_reason"], "bursts": bursts, "main": main_element, "points": res["points"],
            "decided_by": res["decided_by"]}


def run(games: int, workers: int, counts: list[int]):
    jobs = [(counts[k % len(counts)], k) for k in range(games)]
    if workers > 1:
        with Pool(workers) as pool:
            return pool.map(play_one, jobs, chunksize=50)
    return [play_one(j) for j in jobs]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--players", default="2,3,4")
    args = ap.parse_args(argv)
    counts = [int(x) for x in args.players.split(",")]
    results = run(args.games, args.workers, counts)
    report(results, counts)


def report(results, counts):
    print(f"Riftwalker balance: {len(results)} games, greedy bot, player counts {counts}")
    for n in counts:
        rs = [r for r in results if r["players"] == n]
        if not rs:
            continue
        seat_w = Counter()
        pos_w = Counter()
        for r in rs:
            share = 1 / len(r["winners"])
            for w in r["winners"]:
                seat_w[w] += share
                pos_w[(w - r["first"]) % n] += share
        print(f"\n{n} players, {len(rs)} games: average length {sum(r['length'] for r in rs) / len(rs):.1f} turns"
              f" ({sum(r['length'] for r in rs) / len(rs) / n:.1f} rounds); "
              f"end by score {sum(r['reason'] == 'score' for r in rs) / len(rs):.0%}, "
              f"by empty deck {sum(r['reason'] == 'deck' for r in rs) / len(rs):.0%}; "
              f"average winning score {sum(max(r['points']) for r in rs) / len(rs):.1f}; "
              f"decided by " + ", ".join(f"{k} {v / len(rs):.1%}" for k, v in
                                         Counter(r["decided_by"] for r in rs).most_common()))
        print("  win rate by seat:            " + "  ".join(f"seat {s}: {seat_w[s] / len(rs):.1%}" for s in range(n)))
        print("  win rate by turn position:   " + "  ".join(f"#{p + 1}: {pos_w[p] / len(rs):.1%}" for p in range(n)))
    print("\nWin rate by main element (the element that gave a player most points), all player counts:")
    el_games, el_wins = Counter(), Counter()
    for r in results:
        for s, el in enumerate(r["main"]):
            if el is None:
                continue
            el_games[el] += 1
            el_wins[el] += (1 / len(r["winners"])) if s in r["winners"] else 0
    expected = sum(1 / r["players"] for r in results) / len(results)
    for el in sorted(el_games, key=lambda e: -el_wins[e] / el_games[e]):
        print(f"  {el:<6} {el_wins[el] / el_games[el]:6.1%} of {el_games[el]} players   (fair share {expected:.1%})")
    print("\nHow often each rift card is burst (per game), the share burst fully shifted, and the win rate of")
    print("the player who burst it (overall, and when burst fully shifted: a fairer comparison, since")
    print("bursting a 7 goes with winning whatever the card):")
    burst_count, burst_win, top_count, top_win = Counter(), Counter(), Counter(), Counter()
    for r in results:
        for owner, cid, rot in r["bursts"]:
            won = (1 / len(r["winners"])) if owner in r["winners"] else 0
            burst_count[cid] += 1
            burst_win[cid] += won
            if rot == 2:
                top_count[cid] += 1
                top_win[cid] += won
    for cid in sorted(RIFTS, key=lambda c: -burst_count[c]):
        n = burst_count[cid]
        rate = f"{burst_win[cid] / n:6.1%}" if n else "     -"
        top = f"{top_win[cid] / top_count[cid]:6.1%}" if top_count[cid] else "     -"
        share = f"{top_count[cid] / n:4.0%}" if n else "   -"
        print(f"  {cid} {RIFTS[cid].name:<20} {n / len(results):5.2f} per game, {share} at top value;"
              f"   burster wins {rate}, {top} when at top value")


if __name__ == "__main__":
    main()
