"""Plain-text rendering of a view, for emails and screen readers (no layout tricks, no colour)."""

from __future__ import annotations

from .view import loc_name, who


def _card(c: dict) -> str:
    hurt = f" ({c['damage']} damage)" if c.get("damage") else ""
    return f"{c['name']} {c['number']}{hurt}"


def _stack(cards: list[dict]) -> str:
    return ", ".join(_card(c) for c in cards) if cards else "-"


def render_text(v: dict) -> str:
    me = v["seat"]
    # The viewer's own side is listed last, nearest to them, as at the table; spectators see
    # Player 2 above Player 1.
    top, bottom = (1, 0) if me is None or me == 0 else (0, 1)
    lines = []
    first = 1 if me == 1 else 0  # the viewer's own score first
    score = f"{who(first, me)} {v['scores'][first]}, {who(1 - first, me)} {v['scores'][1 - first]}"
    lines.append(f"Riftforce. Score: {score} (the end is triggered at {v['target']}).")
    if v["phase"] == "over":
        r = v["result"]
        winners = r["winners"] if r else []
        if len(winners) == 1:
            w = who(winners[0], me)
            lines.append(f"Game over: {w} {'win' if w == 'You' else 'wins'}.")
        else:
            lines.append("Game over: a tie.")
    elif v["turn"] is not None:
        t = who(v["turn"], me)
        lines.append("Your turn." if t == "You" else f"{t}'s turn.")
    if v["end_triggered"] and v["phase"] != "over":
        lines.append("The end is triggered: the round is being finished.")
    if v["last_action"]:
        lines.append(f"Last action: {v['last_action']}")
    lines.append("")

    if v["draft"] is not None:
        d = v["draft"]
        lines.append("GUILD DRAFT")
        for s in (0, 1):
            lines.append(f"  {who(s, me)}: {', '.join(g.capitalize() for g in d['picks'][s])}")
        lines.append("  On offer:")
        for g in d["offer"]:
            lines.append(f"    {g['name']}: {g['ability']}")
        return "\n".join(lines) + "\n"

    lines.append("THE RIFT (each stack front to back; front = first, nearest the location)")
    for loc in v["locations"]:
        lines.append(f"{loc_name(loc['loc']).capitalize()}:")
        for s in (top, bottom):
            lines.append(f"  {who(s, me) + ':':<10} {_stack(loc['sides'][s])}")
    lines.append("")
    for p in (v["players"][top], v["players"][bottom]):
        s = p["seat"]
        pile = _card(p["discard_top"]) if p["discard_top"] else "empty"
        lines.append(f"{who(s, me)}: {p['score']} Riftforce; {p['hand_count']} in hand, "
                     f"{p['deck_count']} in draw pile, {p['discard_count']} discarded (top: {pile})")
        for g in p["summoners"]:
            lines.append(f"  {g['name']}: {g['ability']}")
    if v["hand"] is not None:
        lines.append("")
        lines.append("Your hand: " + (", ".join(_card(c) for c in v["hand"]) or "empty"))
    p = v["pending"]
    if p is not None:
        lines.append("")
        if p["kind"] == "play":
            placed = ", ".join(f"{_card(c)} at {loc_name(l)}" for c, l in zip(p["cards"], p["locs"]))
            lines.append(f"Play in progress: {placed}.")
        else:
            acts = ", ".join(_card(c) for c in p["activated"]) or "none yet"
            lines.append(f"Activation in progress: discarded {_card(p['discarded'])}; activated {acts}.")
        if p["ask"] is not None:
            lines.append(p["ask"]["prompt"])
    return "\n".join(lines) + "\n"
