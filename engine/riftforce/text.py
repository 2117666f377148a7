"""Plain-text rendering of a view, for emails and screen readers (no layout tricks, no colour)."""

from __future__ import annotations

from .view import loc_name, team_words, who


def _card(c: dict) -> str:
    hurt = f" ({c['damage']} damage)" if c.get("damage") else ""
    return f"{c['name']} {c['number']}{hurt}"


def _stack(cards: list[dict]) -> str:
    return ", ".join(_card(c) for c in cards) if cards else "-"


def render_text(v: dict) -> str:
    if v["mode"] == "team":
        return _render_team(v)
    if v["mode"] == "solo":
        return _render_solo(v)
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
        lines.append(f"{who(s, me)}: {p['score']} Riftforce; {_piles(p)}")
        lines.extend(_summoner_lines(p))
    return "\n".join(lines + _hand_lines(v) + _pending_lines(v["pending"])) + "\n"


def _piles(p: dict) -> str:
    """A player's card counts, said the same way in every mode."""
    pile = _card(p["discard_top"]) if p["discard_top"] else "empty"
    return (f"{p['hand_count']} in hand, {p['deck_count']} in draw pile, "
            f"{p['discard_count']} discarded (top: {pile})")


def _summoner_lines(p: dict) -> list[str]:
    return [f"  {g['name']}: {g['ability']}" for g in p["summoners"]]


def _hand_lines(v: dict) -> list[str]:
    if v["hand"] is None:  # a spectator
        return []
    return ["", "Your hand: " + (", ".join(_card(c) for c in v["hand"]) or "empty")]


def _pending_lines(p: dict | None) -> list[str]:
    if p is None:
        return []
    lines = [""]
    if p["kind"] == "play":
        placed = ", ".join(f"{_card(c)} at {loc_name(l)}" for c, l in zip(p["cards"], p["locs"]))
        lines.append(f"Play in progress: {placed}.")
    elif p["kind"] == "activate":
        acts = ", ".join(_card(c) for c in p["activated"]) or "none yet"
        lines.append(f"Activation in progress: discarded {_card(p['discarded'])}; activated {acts}.")
    else:
        lines.append(f"The trainer's plan is waiting for you: {p['plan']['words']}.")
    if p["ask"] is not None:
        lines.append(p["ask"]["prompt"])
    return lines


def _draft_lines(v: dict, me, mode: str) -> list[str]:
    d = v["draft"]
    lines = ["GUILD DRAFT"]
    for s, picks in enumerate(d["picks"]):
        if mode == "solo" and s == 1:
            continue
        lines.append(f"  {who(s, me, mode)}: {', '.join(g.capitalize() for g in picks) or '-'} "
                     f"(keeps {d['quota'][s]})")
    if "trainer" in d:
        lines.append("  The trainer: " + ", ".join(g["name"] for g in d["trainer"]))
    lines.append("  On offer:")
    for g in d["offer"]:
        lines.append(f"    {g['name']}: {g['ability']}")
    return lines


def _header(v: dict, me, mode: str, score: str) -> list[str]:
    lines = [f"Riftforce ({'team play' if mode == 'team' else 'solo against the trainer'}). "
             f"Score: {score} (the end is triggered at {v['target']})."]
    if v["phase"] == "over":
        r = v["result"]
        if mode == "solo":
            lines.append("Game over: " + ("you beat the trainer." if r["winners"] else
                                          "the trainer wins."))
        elif r["teams"][0]["score"] != r["teams"][1]["score"]:
            best = max(r["teams"], key=lambda x: x["score"])["team"]
            lines.append(f"Game over: {_lc(team_words(best, me))} wins.")
        else:
            lines.append("Game over: a tie.")
    elif v["turn"] is not None:
        t = who(v["turn"], me, mode)
        lines.append("Your turn." if t == "You" else f"{t}'s turn.")
    if v["end_triggered"] and v["phase"] != "over":
        lines.append("The end is triggered: the round is being finished.")
    if v["last_action"]:
        lines.append(f"Last action: {v['last_action']}")
    lines.append("")
    return lines


def _lc(words: str) -> str:
    return words if words.startswith(("Player", "Team")) else words[0].lower() + words[1:]


def _render_team(v: dict) -> str:
    me = v["seat"]
    mine = 0 if me is None else me & 1
    a, b = v["team_scores"][mine], v["team_scores"][1 - mine]
    names = [" and ".join(f"Player {s + 1}" for s in t["seats"]) for t in v["teams"]]
    score = (f"your team {a}, the opposing team {b}" if me is not None else
             f"Team 1 ({names[0]}) {v['team_scores'][0]}, Team 2 ({names[1]}) {v['team_scores'][1]}")
    lines = _header(v, me, "team", score)
    order = ", ".join(f"{i + 1}: {who(s, me, 'team')}" for i, s in enumerate(v["turn_order"]))
    lines.append(f"Turn order: {order}.")
    lines.append("")
    if v["draft"] is not None:
        return "\n".join(lines + _draft_lines(v, me, "team")) + "\n"
    top, bottom = 1 - mine, mine
    lines.append("THE RIFT (each stack front to back; front = first, nearest the location)")
    for loc in v["locations"]:
        lines.append(f"{loc_name(loc['loc']).capitalize()} ({loc['zone']} zone):")
        for side in (top, bottom):
            label = team_words(side, me) if me is not None else f"Team {side + 1}"
            cards = ", ".join(f"{_card(c)} [P{c['owner'] + 1}]" for c in loc["sides"][side]) or "-"
            lines.append(f"  {label + ':':<19} {cards}")
    lines.append("")
    for p in v["players"]:
        s = p["seat"]
        zone = "all six locations" if p["zone"] == "all" else f"the {p['zone']} zone"
        name = who(s, me, "team")
        ident = "" if name.startswith("Player") else f"Player {s + 1}, "
        pos = p["positions"]
        lines.append(f"{name} ({ident}position{'s' if len(pos) > 1 else ''} "
                     f"{' and '.join(map(str, pos))}, checks {zone}): {_piles(p)}")
        lines.extend(_summoner_lines(p))
    return "\n".join(lines + _hand_lines(v) + _pending_lines(v["pending"])) + "\n"


def _render_solo(v: dict) -> str:
    me = v["seat"]
    you = "You" if me == 0 else "Player 1"
    lines = _header(v, me, "solo", f"{you} {v['scores'][0]}, the trainer {v['scores'][1]}")
    if v["draft"] is not None:
        return "\n".join(lines + _draft_lines(v, me, "solo")) + "\n"
    tr, plan = v["trainer"], v["plan"]
    lines.append("THE TRAINER")
    lines.append("  Guilds (bots use only their challenge): " + ", ".join(g["name"] for g in tr["guilds"]))
    for c in tr["challenges"]:
        flag = " [unverified]" if c["unverified"] else ""
        lines.append(f"  Bots {c['number']} ({'*' * c['stars']}){flag}: {c['text']}")
    if tr["and"] is not None:
        lines.append(f"  & card, end {tr['and']['end']}, bots {tr['and']['number']}: "
                     f"{tr['and']['text']}")
    nxt = plan["next"]
    tag = " (placeholder plan deck)" if plan["placeholder"] else ""
    lines.append(f"  Next plan{tag}: {nxt['words'] if nxt else 'none'}; "
                 f"{plan['pile_count']} in the pile, {plan['discard_count']} done.")
    lines.append(f"  {tr['deck_count']} bots in the pile, {tr['discard_count']} destroyed.")
    lines.append("")
    lines.append("THE RIFT (each stack front to back; front = first, nearest the location)")
    for loc in v["locations"]:
        lines.append(f"{loc_name(loc['loc']).capitalize()}:")
        lines.append(f"  {'Trainer:':<10} {_stack(loc['sides'][1])}")
        lines.append(f"  {you + ':':<10} {_stack(loc['sides'][0])}")
    lines.append("")
    p = v["players"][0]
    lines.append(f"{you}: {_piles(p)}")
    lines.extend(_summoner_lines(p))
    return "\n".join(lines + _hand_lines(v) + _pending_lines(v["pending"])) + "\n"
