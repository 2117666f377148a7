"""Riftwalker's case for the shared contract suite (tests/engine/contract.py): every player count,
the balance bench's greedy bot as the policy (its element choices make lines, so games end in a few
hundred decisions), what each seat may not see, and the golden playthroughs."""

from __future__ import annotations

from pathlib import Path

from tests.engine.contract import ContractCase, GoldenCase
from tests.engine.riftwalker._helpers import GREEDY


def hidden(state: dict, seat: int | None) -> set[str]:
    """Card ids `seat` (None: a spectator) may not see: the whole rift deck, the other hands, the
    cards a search is looking at (but for the searcher), face-down cards beneath rifts (but for the
    player who put them there and the host rift's owner, H7), and the element deck below its top."""
    out = set(state["rdeck"]) | set(state["edeck"][1:])
    for owner, hand in enumerate(state["hands"]):
        if owner != seat:
            out |= set(hand)
    if state["limbo"] and (state["turn"] is None or seat != state["turn"]["seat"]):
        out |= set(state["limbo"])
    for zone in ("explored", "scored"):
        for owner, pile in enumerate(state[zone]):
            for rift in pile:
                for b in rift["beneath"]:
                    if b["face"] == "down" and seat not in (b["by"], owner):
                        out.add(b["id"])
    return out


CASE = ContractCase(
    game="riftwalker",
    setups=[(2, {}), (3, {}), (4, {})],
    hidden=hidden,
    choose=GREEDY,
    golden=[GoldenCase(f"riftwalker_{players}p_seed{seed}", players, {}, seed, GREEDY)
            for players, seed in ((2, 11), (3, 22), (4, 33))],
    golden_dir=Path(__file__).parent / "golden",
)
