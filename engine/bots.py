"""Bots for every game and seat: information-set Monte Carlo search over the engine contract.

A decision is made from what the seat may know.  Each playout begins with `game.determinize(state,
seat, rng)`, a full state that depends on `state` only through `game.view(state, seat)`: everything
the seat cannot see (other hands, deck orders, face-down cards) is pooled, put in a canonical order
and dealt back at random into the same places.  The search never reads `state` itself (the legal
moves of the seat come from its own cards and the public board); tests/engine/test_bots.py proves it
by replacing hidden cards in ways the seat cannot tell apart and getting the very same move.

The search: try each legal move in turn on a fresh determinization, play random legal moves for
whoever is to act for a bounded number of steps, score the position for the seat (the `Result` if
the game ended, else the game's cheap `evaluate`: Riftforce's score, control and damage toward kills,
Riftwalker's points, Beyond the Rift's threat and wounds), and keep the move with the best mean.  The
playouts go equally to every move, or with `Game.bot_halving` (Riftforce) by successive halving: in
rounds, the worse half of the moves by mean dropping out after each, so a bigger budget is spent
telling the contenders apart rather than re-measuring hopeless moves.  Pure like the rest of the
engine: no clock; `rng` is the caller's seeded `random.Random`, so the same view, moves and seed give
the same move.  The worker may pass `deadline`, a callable saying "stop now", to bound wall time.

Levels are playout budgets, per game (`Game.bot_budgets`): easy plays a random legal move, normal
aims at ~0.2 s and strong at ~1 s per decision.  Calibrated with bench/bots.py on the development
machine (2 shared cores, CPython 3.11): a Riftforce playout of 4 steps costs ~0.12 ms, a Riftwalker
one of 12 ~0.4 ms, Beyond the Rift's ~5 ms (its steps resolve whole enemy phases).  A forced move costs
nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.core import Game
from engine.errors import IllegalMove
from engine.shapes import Move, State

LEVELS = ("easy", "normal", "strong")


def level_of(text: str) -> str:
    """The level a `bot` / `bot:LEVEL` seat names ("bot" alone: normal); raises ValueError otherwise."""
    word, _, level = text.strip().lower().partition(":")
    if word != "bot" or (level and level not in LEVELS):
        raise ValueError(f"a bot seat is written bot or bot:LEVEL with LEVEL one of {', '.join(LEVELS)}")
    return level or "normal"


def is_bot(text: str) -> bool:
    word, _, _ = text.strip().lower().partition(":")
    return word == "bot"


def choices(game: Game, state: State, seat: int) -> list[Move]:
    """The decisions a bot chooses among: the seat's legal moves less standing settings (a setting
    changes how later choices are made, never the position, so changing it is never a move to try)
    and less the moves the game says only stall (`Game.bot_skips`); never empty when a legal
    decision exists (if every one would be skipped, they all stay)."""
    moves = [m for m in game.legal_moves(state, seat) if game.move_section(m) is None]
    kept = [m for m in moves if not game.bot_skips(state, seat, m)]
    return kept or moves


def outcome(game: Game, state: State, seat: int) -> float:
    """The position's worth to `seat` in [0, 1]: 1 won, 0 lost, shared wins split; else `evaluate`."""
    result = game.result(state)
    if result is None:
        return min(1.0, max(0.0, game.evaluate(state, seat)))
    winners = result["winners"]
    if seat not in winners:
        return 0.0
    teams = game.teams(state)
    mates = next((t for t in teams if seat in t), [seat])
    rivals = [w for w in winners if w not in mates]
    return 1.0 if not rivals else 0.5


def _step(game: Game, state: State, seat: int, move: Move, rng: random.Random) -> State:
    for event in game.play(state, seat, move, rng):
        state = game.evolve(state, event)
    return state


def playout(game: Game, state: State, seat: int, move: Move, steps: int, rng: random.Random) -> float:
    """Play `move` for `seat` on a state this call owns, then up to `steps` random legal moves of the
    seats to act; the worth of where it stopped.  A determinized position can be one the rules never
    reach (a prompt naming a card dealt elsewhere): a move it refuses ends the playout there."""
    try:
        state = _step(game, state, seat, move, rng)
    except IllegalMove:
        return 0.0  # only in an inconsistent sample: the move itself was legal in the real position
    for _ in range(steps):
        acting = game.to_act(state)
        if not acting or game.result(state) is not None:
            break
        who = acting[0] if len(acting) == 1 else rng.choice(acting)
        moves = choices(game, state, who)
        if not moves:
            break
        try:
            state = _step(game, state, who, rng.choice(moves), rng)
        except IllegalMove:
            break
    return outcome(game, state, seat)


def decide(
    game: Game, state: State, seat: int, rng: random.Random, level: str = "normal", *,
    playouts: int | None = None, steps: int | None = None, deadline: Callable[[], bool] | None = None,
) -> Move:
    """The move a bot of `level` plays for `seat` now.  `playouts`/`steps` override the level's budget
    (tests use tiny ones); `deadline()` true stops the search early (never before each move was tried
    once).  Raises ValueError when the seat has nothing to decide."""
    moves = choices(game, state, seat)
    if not moves:
        raise ValueError(f"seat {seat} has no move to make")
    budget, depth = game.bot_budgets[level]
    budget = budget if playouts is None else playouts
    depth = depth if steps is None else steps
    if len(moves) == 1:
        return moves[0]
    if budget <= 0:
        return rng.choice(moves)
    totals = [0.0] * len(moves)
    counts = [0] * len(moves)

    def mean(j: int) -> float:
        return totals[j] / counts[j] if counts[j] else -1.0

    def run(j: int) -> None:
        sample = game.determinize(state, seat, rng)
        totals[j] += playout(game, sample, seat, moves[j], depth, rng)
        counts[j] += 1

    alive = list(range(len(moves)))
    if game.bot_halving:
        # Successive halving: the budget in equal rounds; each round shares its part among the moves
        # still in the running, then the worse half (by mean) drops out.
        rounds = max(1, (len(moves) - 1).bit_length())
        spent, stopped = 0, False
        for r in range(rounds):
            # the budget left, spread evenly over the rounds left (at least one playout a move)
            per = max(1, (budget - spent) // ((rounds - r) * len(alive)))
            for j in alive:
                for _ in range(per):
                    # (the deadline only once every move was tried: the last one of the first round)
                    if deadline is not None and (r or counts[alive[-1]]) and deadline():
                        stopped = True
                        break
                    run(j)
                    spent += 1
                if stopped:
                    break
            if stopped:
                break
            if r < rounds - 1:
                ranked = sorted(alive, key=lambda j: (-mean(j), j))
                alive = sorted(ranked[:(len(alive) + 1) // 2])
    else:
        for i in range(max(budget, len(moves))):
            if deadline is not None and i >= len(moves) and deadline():
                break
            run(i % len(moves))
    # The best mean; ties go to the earlier move, so the choice is a function of the means alone.
    best = max(alive, key=lambda j: (mean(j), -j))
    return moves[best]


def sorted_pool(cards: list[Any]) -> list[Any]:
    """Hidden cards in a canonical order (by their JSON text), so a determinization cannot depend on
    where they really were: only on which cards are unseen, which the seat can work out itself."""
    return sorted(cards, key=repr)


def redeal(rng: random.Random, slots: list[list[Any]]) -> list[list[Any]]:
    """The cards of `slots` (lists of hidden cards: a hand, a deck...) pooled, shuffled and dealt back
    into lists of the same sizes."""
    pool = sorted_pool([c for slot in slots for c in slot])
    rng.shuffle(pool)
    out, at = [], 0
    for slot in slots:
        out.append(pool[at:at + len(slot)])
        at += len(slot)
    return out
