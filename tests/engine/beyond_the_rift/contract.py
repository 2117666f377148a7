"""Beyond the Rift's case for the shared engine contract suite and its golden playthroughs
(tests/engine/contract.py): every scenario, 1 to 4 heroes, every defense mode, the H25 and H26 questions
asked; greedy play (it wins sometimes, so rewards are handed out) and random play."""

from __future__ import annotations

from pathlib import Path

from tests.engine.contract import ContractCase, GoldenCase

from .helpers import CARRY, greedy_chooser, random_chooser


def hidden(state: dict, seat: int | None) -> set[str]:
    """The ids `seat` (None: a spectator) may not see: other heroes' hands (less the cards pledged to this
    seat, which its pledger shows it) and decks, the face-down piles, the reward deck's undrawn items.
    A hero's own deck is left out (they may peek at its top card), and so is the Response deck for heroes
    (a peek shows its top cards to the one who peeks); spectators see neither."""
    out: set[str] = set()
    shown = {p["card"] for h in state["heroes"] for p in h["pledges"] if p["to"] == seat}
    for i, h in enumerate(state["heroes"]):
        if i != seat:
            out |= set(h["hand"]) - shown
            out |= set(h["deck"])
    piles = state["piles"]
    for pile in ("enemy", "terrain", "wound", "fatigue"):
        out |= set(piles[pile])
    if seat is None:
        out |= set(piles["response"])
    out |= _undrawn_items(state)
    return out


def _undrawn_items(state: dict) -> set[str]:
    if state["campaign"] is None:
        return set()
    if state["reward"] is not None:
        r = state["reward"]
        return set(r["camp"]["reward_deck"]) - {d["item"] for d in r["drawn"]} - set(r["got"])
    res = state["result"]
    if res is not None and res.get("rewards"):
        return set(res["rewards"]["reward_deck"]) - {d["item"] for d in res["rewards"]["drawn"]}
    return set(state["campaign"]["reward_deck"])


def options(scenario: str, **more) -> dict:
    out = {"scenario": scenario, **more}
    if CARRY.get(scenario):
        out["carry"] = CARRY[scenario]
    return out


ASK = {"rewards": "ask", "recover_fatigue": "ask"}

CASE = ContractCase(
    game="beyond-the-rift",
    setups=[
        (1, options("tutorial")),
        (2, options("tutorial", defense_modes=["ask", "auto"])),
        (1, options("old-friends-1", plans=[ASK])),
        (3, options("old-friends-1", defense_modes=["auto"] * 3, plans=[ASK, {}, ASK])),
        (4, options("old-friends-2", defense_modes=["ask"] * 4, plans=[ASK] * 4)),  # seed 1 wins: rewards asked
        (2, options("old-friends-3", defense_modes=["ask", "ask"])),  # reactions asked, the Door's Fatigue
        (4, options("old-friends-3", defense_modes=["ask_if", "ask", "auto", "ask_if"],
                    plans=[{"recover_fatigue": "always"}, {}, {}, {}])),
    ],
    hidden=hidden,
    choose=greedy_chooser,
    games_per_setup=2,
    max_decisions=1500,
    golden=[
        GoldenCase("tutorial-2-greedy", 2, options("tutorial"), 7, greedy_chooser),
        GoldenCase("old-friends-1-1-random", 1, options("old-friends-1"), 3, random_chooser),
        GoldenCase("old-friends-3-4-greedy", 4, options("old-friends-3"), 5, greedy_chooser),
    ],
    golden_dir=Path(__file__).parent / "golden",
)
