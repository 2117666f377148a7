"""Every word Riftforce says: sentences for events, labels for moves, prompts, the last action, and
the plain-text board.  The only module of the package with prose (events are facts, views are
data), so wording can change, or be translated, without touching a stored log.

Events are worded from the state they were applied to (`describe_event(event, viewer, state)`):
the mode ("The trainer", "Your team") and the draft's options come from there, never from the
event.  Nothing hidden from the viewer is ever named (a teammate's draw, the base draft's dealt
summoners before the draft ends: house rule Q16).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..kit import plural
from . import solo, team
from .cards import GUILD, GUILD_NAME, NUMBER
from .state import State, controls, locate

Event = dict[str, Any]
Names = Mapping[int, str] | None  # seat -> the player's name (the service knows them; views do not)


# ---- names ----------------------------------------------------------------------------------------

def card_name(card: str) -> str:
    """"Fire 5" for "fire-5b": the words a player reads (copies are indistinguishable)."""
    return f"{GUILD_NAME[GUILD[card]]} {NUMBER[card]}"


# Each guild's two letters, written on a card where its name does not fit (the boards' rift
# columns on a phone); unique, so the letters alone tell the guilds apart, like its colour and icon.
GUILD_LETTERS: dict[str, str] = {g: GUILD_NAME[g][:2] for g in GUILD_NAME}


def loc_name(loc: int) -> str:
    return f"location {loc + 1}"


def who(seat: int, viewer: int | None, mode: str | None = None) -> str:
    """Subject: "You", "Opponent" or (for spectators) "Player 1".  Team play: "Player 2" for every
    other seat, the partner included (the service puts each player's name there: a sentence about
    one's partner names them, as the board does, rather than saying "Your partner"); solo: seat 1 is
    "The trainer"."""
    if mode == "solo" and seat == 1:
        return "The trainer"
    if viewer is None:
        return f"Player {seat + 1}"
    if seat == viewer:
        return "You"
    if mode == "team":
        return f"Player {seat + 1}"
    return "Opponent"


def whose(seat: int, viewer: int | None, mode: str | None = None) -> str:
    """Possessive at the start of a sentence: "Your", "Opponent's", "Player 1's"."""
    w = who(seat, viewer, mode)
    return "Your" if w == "You" else w + "'s"


def named(seat: int, viewer: int | None, mode: str | None = None, names: Names = None) -> str:
    """A player as the boards name them: "You" for the viewer, else the player's name when `names`
    (seat -> name, the service's) has it, else `who`'s word.  The solo trainer is "The trainer"."""
    if mode == "solo" and seat == 1:
        return "The trainer"
    if viewer is not None and seat == viewer:
        return "You"
    if names and names.get(seat):
        return str(names[seat])
    return who(seat, viewer, mode)


def name_tags(seats: int, names: Names = None) -> dict[int, str]:
    """Short marks for whose elemental a card is (team play): each player's initial, or as many
    first letters as tell two players apart; "P1", "P2"... without names."""
    full = {s: str(names[s]).strip() if names and names.get(s) else "" for s in range(seats)}
    if not all(full.values()):
        return {s: f"P{s + 1}" for s in range(seats)}
    for length in range(1, max(len(n) for n in full.values()) + 1):
        tags = {s: n[:length].capitalize() for s, n in full.items()}
        if len(set(tags.values())) == seats:
            return tags
    return {s: f"P{s + 1}" for s in range(seats)}  # two players with the same name


def team_words(team_: int, viewer: int | None) -> str:
    """A team (team play's score): "Your team", "The opposing team" or "Team 1"."""
    if viewer is None:
        return f"Team {team_ + 1}"
    return "Your team" if viewer & 1 == team_ else "The opposing team"


def _verb(subject: str, verb: str) -> str:
    """"You gain" but "Player 2 gains": English agreement for the subjects `who` returns."""
    return verb if subject == "You" else verb + "s"


def _lc(words: str) -> str:
    return words if words.startswith(("Player", "Team")) else words[0].lower() + words[1:]


def _and(items: list[str]) -> str:
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _ordinal(i: int) -> str:
    return {0: "first", 1: "second", 2: "third"}.get(i, f"{i + 1}th")


def _mode(s: State | None) -> str | None:
    """The mode as the describers name it: None for the duel (who() says "Opponent")."""
    if s is None or s["mode"] == "duel":
        return None
    return s["mode"]


# ---- words carried by views (their shapes keep a sentence or two) ----------------------------------

def summary_words(summary: dict | None, viewer: int | None, mode: str | None = None,
                  names: Names = None) -> str | None:
    """The view's `last_action`: the last completed action (the view's `last`), for this viewer;
    with `names`, the player who acted is named."""
    if summary is None:
        return None
    seat = summary["seat"]
    subject = named(seat, viewer, None if mode == "duel" else mode, names)
    kind = summary["action"]
    if kind == "pick":
        return f"{subject} picked {GUILD_NAME[summary['guild']]}."
    if kind == "give":
        return f"{subject} gave {GUILD_NAME[summary['guild']]} to the trainer."
    if kind == "play":
        if len(set(summary["locs"])) == 1:  # the cards of one guild, all at one location
            return f"{subject} played {_and([card_name(c) for c in summary['cards']])} at {loc_name(summary['locs'][0])}."
        parts = [f"{card_name(c)} at {loc_name(l)}" for c, l in zip(summary["cards"], summary["locs"])]
        return f"{subject} played {_and(parts)}."
    if kind == "activate":
        acts = [card_name(c) for c in summary["activated"]]
        return f"{subject} discarded {card_name(summary['discarded'])} and activated {_and(acts)}."
    # A Check says what it did even when it scored and drew nothing ("Bo checked: scored 0 Riftforce
    # and drew 0 cards."): a turn email's first line may have nothing else to tell of that turn.
    scored, locs = summary["scored"], summary["locs"]
    where = (f" (location{'s' if len(locs) != 1 else ''} {_and([str(l + 1) for l in locs])})"
             if scored and locs else "")
    return f"{subject} checked: scored {scored} Riftforce{where} and drew {plural(summary['drew'], 'card')}."


def _ask_prompt(ask: dict) -> str:
    if ask["what"] == "bot":
        return (f"Choose which of the trainer's {ask['data']['number']}s acts "
                f"(each would damage one of your elementals).")
    actor = card_name(ask["card"])
    return {
        "move_to": f"Choose where {actor} moves.",
        "aim": f"Choose the adjacent location {actor} strikes.",
        "place": f"Choose where to play the enemy captured by {actor}.",
        "target": f"Choose the enemy {actor} strikes.",
        "heal": f"Choose the ally {actor} heals.",
        "push": f"Choose where the trainer's {actor} pushes your elemental.",
    }[ask["what"]]


def _bot_prompt(ask: dict) -> str:
    """Words for a choice inside a bot's ability (the player decides for the trainer, Q6)."""
    actor = card_name(ask["card"])
    return {
        "aim": f"Choose which adjacent location the trainer's {actor} strikes (and pulls from).",
        "target": f"Choose which of your equally damaged elementals the trainer's {actor} strikes.",
        "push": f"Choose where the trainer's {actor} pushes your elemental.",
    }.get(ask["what"], _ask_prompt(ask))


def ask_prompt(ask: dict, for_plan: bool = False) -> str:
    """The `prompt` of a pending choice: inside an ability, or (`for_plan`) for the trainer's plan."""
    if for_plan and ask["what"] != "bot":
        return _bot_prompt(ask)
    return _ask_prompt(ask)


def plan_words(plan: str) -> str:
    """A plan card in words (the view's plan `words`)."""
    info = solo.PLANS[plan]
    loc = solo.plan_loc(plan)
    if info["kind"] == "control":
        return f"control: a bot at {loc_name(loc)}, then 1 Riftforce per location the trainer controls"
    numbers = list(info.get("numbers", []))
    return (f"attack {'-'.join(map(str, numbers))}: a bot at {loc_name(loc)}, then a bot of "
            f"each number in turn")


# ---- moves in words -------------------------------------------------------------------------------

def _position(s: State, card: str) -> str:
    try:
        loc, side = locate(s, card)
    except ValueError:
        return ""
    i = s["board"][loc][side].index(card)
    d = s["damage"].get(card, 0)
    hurt = f", {d} damage" if d else ""
    return f" ({_ordinal(i)} at {loc_name(loc)}{hurt})"


def describe_move(move: Any, s: State | None = None) -> str:
    if not isinstance(move, dict):
        return str(move)
    t = move.get("type")
    p = s["pending"] if s is not None else None
    ask = p["ask"] if p is not None else None
    try:
        if t == "pick":
            return f"Pick {GUILD_NAME[move['guild']]}"
        if t == "give":
            return f"Give {GUILD_NAME[move['guild']]} to the trainer"
        if t == "play":
            verb = "Also play" if p is not None else "Play"
            return f"{verb} {card_name(move['card'])} at {loc_name(move['loc'])}"
        if t == "end_play":
            return "End the play here"
        if t == "activate":
            return f"Activate: discard {card_name(move['card'])}"
        if t == "activate_elemental":
            where = _position(s, move["card"]) if s is not None else ""
            return f"Activate {card_name(move['card'])}{where}"
        if t == "done":
            if p is not None and not p.get("activated"):
                return "Activate nothing (the discard alone)"
            return "Stop activating"
        if t == "check":
            if s is None or s["turn"] is None:
                return "Check & Draw"
            seat = s["turn"]
            held = team.scored_locations(s, seat) if s["mode"] == "team" else controls(s, seat)
            # The draw stops when the pile and the discard (reshuffled) run out (rules Q13).
            can = len(s["deck"][seat]) + len(s["discard"][seat])
            return (f"Check & Draw (score {len(held)}, "
                    f"draw {min(7 - len(s['hand'][seat]), can)})")
        if t == "bot":
            where = _position(s, move["card"]) if s is not None else ""
            return f"The trainer's {card_name(move['card'])}{where} acts"
        actor = card_name(ask["card"]) if ask is not None and ask["card"] else "The elemental"
        if p is not None and p["kind"] == "plan":  # the player decides for a bot (Q6)
            if t == "aim":
                return f"The trainer's {actor} strikes {loc_name(move['loc'])}"
            if t == "push":
                return f"The trainer's {actor} pushes your elemental to {loc_name(move['loc'])}"
            if t == "target":
                where = _position(s, move["card"]) if s is not None else ""
                return f"The trainer's {actor} strikes your {card_name(move['card'])}{where}"
        if t == "push":
            return f"Push to {loc_name(move['loc'])}"
        if t == "move_to":
            return f"Move {actor} to {loc_name(move['loc'])}"
        if t == "aim":
            return f"{actor} strikes {loc_name(move['loc'])}"
        if t == "place":
            captured = ask["data"].get("captured") if ask is not None else None
            what = card_name(captured) if captured else "the captured enemy"
            return f"Play {what} at {loc_name(move['loc'])}"
        if t == "target":
            where = _position(s, move["card"]) if s is not None else ""
            return f"{actor} strikes {card_name(move['card'])}{where}"
        if t == "heal":
            where = _position(s, move["card"]) if s is not None else ""
            return f"{actor} heals {card_name(move['card'])}{where}"
    except (KeyError, TypeError, IndexError):
        pass
    return str(move)


# ---- events in words ------------------------------------------------------------------------------

def describe_event(e: Event, viewer: int | None, s: State | None) -> str | None:
    """`e` as a sentence for `viewer` (None: a spectator), worded from `s`, the state `e` was
    applied to (None only for the setup event); None for bookkeeping events."""
    t = e["type"]
    if s is None or t in ("setup", "pending", "turn", "action_end", "plan_end"):
        return None
    mode = _mode(s)

    def who_(seat: int) -> str:
        return who(seat, viewer, mode)

    def whose_(seat: int) -> str:
        return whose(seat, viewer, mode)

    if mode == "solo":
        words = _solo_event(e, viewer, s)
        if words is not None:
            return words
    if t == "draft":
        return _draft_words(e, viewer, s, who_)
    if t == "pick":
        return f"{who_(e['seat'])} picked {GUILD_NAME[e['guild']]}."
    if t == "draft_end":
        left = _and([GUILD_NAME[g] for g in e["removed"]])
        starter = who_(e["start"])
        return f"The draft is over ({left} left out). {starter} {'take' if starter == 'You' else 'takes'} the first turn."
    if t == "deck":
        return f"{whose_(e['seat'])} {e['count']} elementals were shuffled into a draw pile."
    if t == "reshuffle":
        return f"{whose_(e['seat'])} discard pile ({plural(e['count'], 'card')}) was shuffled into a new draw pile."
    if t == "draw":
        n = e["count"]
        words = f"{who_(e['seat'])} drew {n} card{'s' if n != 1 else ''}"
        if viewer == e["seat"] and e.get("cards"):
            words += ": " + _and([card_name(c) for c in e["cards"]])
        return words + "."
    if t == "enter":
        subj, card, where = who_(e["seat"]), card_name(e["card"]), loc_name(e["loc"])
        if e["from"] == "deck":
            return f"{subj} put {card} from the top of the draw pile at {where}."
        if e["from"] == "capture":
            return f"{subj} played the captured {card} at {where}."
        return f"{subj} played {card} at {where}."
    if t == "discard":
        return f"{who_(e['seat'])} discarded {card_name(e['card'])} to activate."
    if t == "activated":
        return f"{who_(e['seat'])} activated {card_name(e['card'])} at {loc_name(e['loc'])}."
    if t == "damage":
        if e["by"] == e["card"]:
            victim = "itself"
        elif e["seat"] == e["by_seat"]:  # Fire's and Lava's self-damage
            victim = f"{'your' if viewer == e['seat'] else 'their'} own {card_name(e['card'])}"
        else:
            victim = f"{_lc(whose_(e['seat']))} {card_name(e['card'])}"
        return (f"{whose_(e['by_seat'])} {card_name(e['by'])} dealt {e['amount']} damage to "
                f"{victim}.")
    if t == "heal":
        return (f"{whose_(e['seat'])} {card_name(e['by'])} removed {e['amount']} damage from "
                f"{'itself' if e['by'] == e['card'] else card_name(e['card'])}.")
    if t == "move":
        return (f"{whose_(e['seat'])} {card_name(e['card'])} moved from {loc_name(e['from'])} "
                f"to {loc_name(e['to'])}.")
    if t == "destroyed":
        return f"{whose_(e['seat'])} {card_name(e['card'])} at {loc_name(e['loc'])} was destroyed."
    if t == "captured":
        victim = e.get("owner", 1 - e["seat"])
        return (f"{whose_(e['seat'])} {card_name(e['by'])} captured "
                f"{_lc(whose_(victim))} {card_name(e['card'])}.")
    if t == "score":
        why = "for controlled locations" if e["reason"] == "check" else "for a destroyed enemy"
        subject = team_words(e["team"], viewer) if "team" in e else who_(e["seat"])
        return f"{subject} gained {e['points']} Riftforce {why} (now {e['total']})."
    if t == "game_over":
        a, b = e["scores"]
        if mode == "team":
            if len(e["winners"]) and len({w & 1 for w in e["winners"]}) == 1:
                w = team_words(e["winners"][0] & 1, viewer)
                return f"The game is over: {_lc(w)} wins, {max(a, b)} to {min(a, b)}."
            return f"The game is over: a tie at {a}."
        if len(e["winners"]) == 1:
            w = who_(e["winners"][0])
            return f"The game is over: {w} {'win' if w == 'You' else 'wins'}, {max(a, b)} to {min(a, b)}."
        return f"The game is over: a tie at {a}."
    return None


def _draft_words(e: Event, viewer: int | None, s: State, who_) -> str:
    dealt = e["dealt"]
    offer = _and([GUILD_NAME[g] for g in e["offer"]])
    first = who_(e["first"])
    picks = f"{first} {_verb(first, 'pick')} first."
    if s["mode"] == "team":
        got = "; ".join(f"{_lc(who_(seat))} got {GUILD_NAME[g]}" for seat, g in enumerate(dealt))
        return f"Draft: {got + '; ' if got else ''}on offer: {offer}. {picks}"
    if s["options"].get("guilds") == "base":
        # House rule Q16: a dealt summoner is known only to its player until the draft ends.
        if viewer in (0, 1):
            got = (f"you got {GUILD_NAME[dealt[viewer]]}, {_lc(who_(1 - viewer))} got a summoner "
                   f"you will see when the draft ends")
        else:
            got = "each player got a summoner only they know until the draft ends"
        return f"Draft: {got}; on offer: {offer}. {picks}"
    return (f"Draft: {_lc(who_(0))} got {GUILD_NAME[dealt[0]]}, {_lc(who_(1))} got "
            f"{GUILD_NAME[dealt[1]]}; on offer: {offer}. {picks}")


def _names(guilds: list[str]) -> str:
    return _and([GUILD_NAME[g] for g in guilds])


def trainer_rule(standing: Any, viewer: int | None) -> str:
    """How the trainer's guilds are decided once the player kept 4 (option "trainer_guilds" of a
    game set up under rules_version "3": "choose", "random" or 4 named guilds; solo.py)."""
    you, choose = ("you", "choose") if viewer == 0 else ("the player", "chooses")
    if standing == "random":
        return "Once 4 are kept, the trainer gets 4 of the 14 guilds not kept, at random."
    if isinstance(standing, list):
        return (f"Once 4 are kept, the trainer gets {_names(standing)}, named at setup; for each of "
                f"them kept, {you} {choose} another from the guilds not kept.")
    return f"Once 4 are kept, {you} {choose} the trainer's 4 guilds from the 14 not kept."


def _trainer_draft_words(e: Event, viewer: int | None, s: State) -> str:
    """The trainer's guilds after the keep (event `trainer_draft`, solo.after_draft)."""
    you, choose = ("you", "choose") if viewer == 0 else ("the player", "chooses")
    given, need = e["given"], solo.KEEP - len(e["given"])
    if e["how"] == "choose":
        return f"Now {you} {choose} the trainer's 4 guilds from the 14 not kept."
    if e["how"] == "random":
        return f"The trainer gets {_names(given)}, drawn at random from the 14 guilds not kept."
    if not need:
        return f"The trainer gets {_names(given)}, as named at setup."
    kept = [g for g in s["options"].get("trainer_guilds", []) if g not in given]
    got = (f"The trainer gets {_names(given)}, as named at setup" if given
           else "The trainer gets none of the guilds named at setup")
    return (f"{got}; {_names(kept)} {'was' if len(kept) == 1 else 'were'} kept, so {you} {choose} "
            f"{need}{' more' if given else ''} from the guilds not kept.")


def _solo_event(e: Event, viewer: int | None, s: State) -> str | None:
    """Words for the trainer's side of a solo game; None falls back to the common wording."""
    t = e["type"]
    if t == "draft":
        keep = f"Solo setup: keep 4 of {_names(e['offer'])}."
        if "trainer" in e:  # set up before rules_version "3": the trainer's guilds were fixed
            return f"{keep} The trainer plays {_names(e['trainer'])}."
        return f"{keep} {trainer_rule(s['options'].get('trainer_guilds', 'choose'), viewer)}"
    if t == "trainer_draft":
        return _trainer_draft_words(e, viewer, s)
    if t == "give":
        return f"{who(e['seat'], viewer, 'solo')} gave {GUILD_NAME[e['guild']]} to the trainer."
    if t == "draft_end" and "trainer_offer" in s["draft"]:
        starter = who(e["start"], viewer, "solo")
        return (f"The setup is over: the trainer plays {_names(e['trainer'])}. {starter} "
                f"{'take' if starter == 'You' else 'takes'} the first turn.")
    if t == "plans":
        note = " (our placeholder plan deck, not the printed one)" if e.get("placeholder") else ""
        return f"The trainer's {e['count']} plans lie face up{note}."
    if t == "plan":
        return f"The trainer carries out its plan: {plan_words(e['plan'])}."
    if t == "plans_recycled":
        return "The trainer's plan pile is turned face up again, in the same order."
    if t == "enter" and e["seat"] == 1:
        return f"The trainer put a bot, {card_name(e['card'])}, at {loc_name(e['loc'])}."
    if t == "activated" and e["seat"] == 1:
        n, stars = e["challenge"].split("-")
        return (f"The trainer's bot {card_name(e['card'])} at {loc_name(e['loc'])} acts "
                f"({n} {'*' * int(stars)}).")
    if t == "damage" and e["by_seat"] == 1:
        return (f"The trainer's bot {card_name(e['by'])} dealt {e['amount']} damage to "
                f"{'your' if viewer == 0 else 'the player' + chr(39) + 's'} {card_name(e['card'])}.")
    if t == "score" and e["seat"] == 1:
        why = {"control": "for controlled locations", "kill": "for a destroyed elemental"}
        return (f"The trainer gained {e['points']} Riftforce {why.get(e['reason'], '')} "
                f"(now {e['total']}).")
    if t == "game_over":
        a, b = e["scores"]
        if e["winners"]:
            return f"The game is over: {_lc(who(0, viewer, 'solo'))} beat the trainer, {a} to {b}."
        return f"The game is over: the trainer wins, {b} to {a}."
    return None


# ---- what the seat to act is asked (boards and the plain-text board) -----------------------------

def asked_words(v: dict) -> str | None:
    """What the decision in front of the seat to act is, from a view: the prompt of a choice inside
    an ability or the trainer's plan, the step of a Play or Activate in progress, a draft pick, or
    the three actions.  None once the game is over."""
    if v["phase"] == "over" or v["turn"] is None:
        return None
    d = v["draft"]
    if d is not None:
        if "trainer_offer" in d:
            return (f"choose the trainer's guilds from those not kept ({len(d['trainer'])} of "
                    f"{solo.KEEP} so far)")
        if "quota" in d and v["mode"] == "solo":
            return f"keep {d['quota'][0]} of the summoners on offer ({len(d['picks'][0])} kept so far)"
        return "pick a summoner from those on offer"
    p = v["pending"]
    if p is not None:
        if p.get("ask"):
            return p["ask"]["prompt"]
        if p["kind"] == "play":
            return "add another card to the Play, or end it"
        if p["kind"] == "activate":
            return (f"activate another of your elementals ({len(p['activated'])} of 3 so far), "
                    f"or stop")
    # Only the actions open now: Check & Draw needs fewer than 7 cards in hand, the others a card.
    players = v.get("players") or []
    held = players[v["turn"]].get("hand_count") if v["turn"] < len(players) else None
    if held is not None and held >= 7:
        return "Play or Activate"
    if held == 0:
        return "Check & Draw"
    return "Play, Activate, or Check & Draw"


# ---- the plain-text board (emails, screen readers: no layout tricks, no colour) ---------------------
# Every line says something whole: no line is a bare label ending in a colon (spam filters read
# "Location 3:" followed by nothing as a form to fill in), and the rift is one line per stack.

RIFT_HEADING = "THE RIFT (each stack listed front first: the front elemental faces the enemy)"


def _card(c: dict) -> str:
    hurt = f" ({c['damage']} damage)" if c.get("damage") else ""
    return f"{c['name']} {c['number']}{hurt}"


def _cards(cards: list[dict], tags: dict[int, str] | None = None) -> str:
    if not cards:
        return "empty"
    if tags is None:
        return ", ".join(_card(c) for c in cards)
    return ", ".join(f"{_card(c)} [{tags[c['owner']]}]" for c in cards)


def _aligned(rows: list[tuple[str, str, str]]) -> list[str]:
    """(location, side, cards) rows with the first two columns padded to line up."""
    a = max(len(r[0]) for r in rows)
    b = max(len(r[1]) for r in rows)
    return [f"  {r[0]:<{a}}  {r[1]:<{b}}  {r[2]}".rstrip() for r in rows]


def _locs(locs: list[int]) -> str:
    return _and([str(l + 1) for l in locs])


def _piles(p: dict) -> str:
    """A player's card counts, said the same way in every mode."""
    top = f" (top {_card(p['discard_top'])})" if p["discard_top"] else ""
    return (f"{p['hand_count']} in hand, {p['deck_count']} in the draw pile, "
            f"{p['discard_count']} discarded{top}")


def _summoner_lines(summoners: list[dict]) -> list[str]:
    return [f"    {g['name']}: {g['ability']}" for g in summoners]


def last_words(v: dict, names: Names = None) -> str | None:
    """The view's last action in words, its player named when `names` has them."""
    if v.get("last") is None or names is None:
        return v["last_action"]
    return summary_words(v["last"], v["seat"], v["mode"], names)


def _status(v: dict, label, over: str | None, names: Names) -> list[str]:
    """Whose turn and what is asked, the end if it came, and the last action."""
    lines = []
    if over is not None:
        lines.append(over)
    elif v["turn"] is not None:
        asked = asked_words(v)
        if v["turn"] == v["seat"]:
            lines.append(f"Your turn: {asked}.")
        else:
            lines.append(f"{label(v['turn'])} to play: {asked}.")
    if v["end_triggered"] and v["phase"] != "over":
        lines.append("The end is triggered: the round is being finished.")
    last = last_words(v, names)
    if last:
        lines.append(f"Last action: {last}")
    return lines


def _hand_lines(v: dict) -> list[str]:
    if v["hand"] is None:  # a spectator
        return []
    if not v["hand"]:
        return ["", "Your hand is empty."]
    return ["", f"Your hand ({len(v['hand'])}): " + ", ".join(_card(c) for c in v["hand"])]


def _lower(subject: str) -> str:
    """A subject `named` gave, inside a sentence: "you", "the trainer", names as they are."""
    return subject.lower() if subject in ("You", "The trainer", "Opponent") else subject


def _pending_lines(p: dict | None, label) -> list[str]:
    if p is None:
        return []
    who_ = label(p["seat"])
    if p["kind"] == "play":
        placed = _and([f"{_card(c)} at {loc_name(l)}" for c, l in zip(p["cards"], p["locs"])])
        line = f"Play in progress: {_lower(who_)} played {placed} so far."
    elif p["kind"] == "activate":
        acts = _and([_card(c) for c in p["activated"]]) if p["activated"] else "nothing yet"
        line = (f"Activate in progress: {_lower(who_)} discarded {_card(p['discarded'])} and "
                f"activated {acts}.")
    else:
        used = f"; bots used so far {_and([_card(c) for c in p['used']])}" if p["used"] else ""
        line = f"The trainer's plan is under way: {p['plan']['words']}{used}."
    return ["", line]


def render_text(v: dict, names: Names = None) -> str:
    """The board as plain text (the text part of every email): scores, whose turn and what is
    asked, the rift one line per stack, each player's piles and summoners, the viewer's hand.
    `names` (seat -> name) names the players; without it they are "Opponent", "Player 2"..."""
    if v["mode"] == "team":
        return _render_team(v, names)
    if v["mode"] == "solo":
        return _render_solo(v, names)
    me = v["seat"]

    def label(seat: int) -> str:
        return named(seat, me, None, names)

    # The viewer's own side is listed second, nearest to them, as at the table; spectators see
    # the second player above the first.
    top, bottom = (1, 0) if me is None or me == 0 else (0, 1)
    first = 1 if me == 1 else 0  # the viewer's own score first
    lines = [f"Riftforce. Score: {label(first)} {v['scores'][first]}, {label(1 - first)} "
             f"{v['scores'][1 - first]} (the end is triggered at {v['target']})."]
    over = None
    if v["phase"] == "over":
        winners = v["result"]["winners"] if v["result"] else []
        a, b = sorted(v["scores"], reverse=True)
        if len(winners) == 1:
            w = label(winners[0])
            over = f"Game over: {w} {'win' if w == 'You' else 'wins'}, {a} to {b}."
        else:
            over = f"Game over: a tie at {a}."
    lines += _status(v, label, over, names)
    lines.append("")
    if v["draft"] is not None:
        return "\n".join(lines + _duel_draft_lines(v, label)) + "\n"
    lines.append(RIFT_HEADING)
    rows = []
    for loc in v["locations"]:
        rows.append((str(loc["loc"] + 1), label(top), _cards(loc["sides"][top])))
        rows.append(("", label(bottom), _cards(loc["sides"][bottom])))
    lines += _aligned(rows)
    lines.append("")
    for p in (v["players"][top], v["players"][bottom]):
        subject = label(p["seat"])
        held = f", {_verb(subject, 'control')} {_locs(p['controls'])}" if p["controls"] else ""
        lines.append(f"{subject}: {p['score']} Riftforce{held}; {_piles(p)}.")
        lines.extend(_summoner_lines(p["summoners"]))
    return "\n".join(lines + _hand_lines(v) + _pending_lines(v["pending"], label)) + "\n"


def _duel_draft_lines(v: dict, label) -> list[str]:
    d = v["draft"]
    lines = ["THE GUILD DRAFT (each player picks 4 summoners)"]
    width = max(len(label(s)) for s in (0, 1))
    for s in (0, 1):
        known = ", ".join(g.capitalize() for g in d["picks"][s]) or "nothing yet"
        # Q16: a dealt summoner this viewer may not see is a null in `dealt`.
        secret = " and a dealt summoner seen when the draft ends" \
            if d["dealt"] and d["dealt"][s] is None else ""
        lines.append(f"  {label(s):<{width}}  {known}{secret}")
    return lines + _offer_lines(d)


def _offer_lines(d: dict) -> list[str]:
    return ["  Summoners on offer"] + _summoner_lines(d["offer"])


def _quota_draft_lines(v: dict, label, mode: str) -> list[str]:
    d = v["draft"]
    lines = ["THE GUILD DRAFT"]
    seats = [s for s in range(len(d["picks"])) if not (mode == "solo" and s == 1)]
    width = max(len(label(s)) for s in seats)
    if mode == "solo" and "trainer_offer" in d:
        width = max(width, len("The trainer"))  # its line follows, aligned
    for s in seats:
        picks = ", ".join(g.capitalize() for g in d["picks"][s]) or "nothing yet"
        lines.append(f"  {label(s):<{width}}  {picks} ({len(d['picks'][s])} of {d['quota'][s]})")
    if mode == "solo" and "trainer_offer" in d:
        have = _and([g["name"] for g in d["trainer"]]) if d["trainer"] else "nothing yet"
        lines.append(f"  {'The trainer':<{width}}  {have} ({len(d['trainer'])} of {solo.KEEP})")
        return lines + ["  Guilds that may go to the trainer (a bot uses its guild's ability only "
                        "once a Music captures it)"] + _summoner_lines(d["trainer_offer"])
    if "trainer" in d:
        lines.append("  The trainer plays " + _and([g["name"] for g in d["trainer"]]) + ".")
    elif mode == "solo":
        lines.append("  " + trainer_rule(v["options"].get("trainer_guilds", "choose"), v["seat"]))
    return lines + _offer_lines(d)


def _team_label(v: dict, t: int, label) -> str:
    """A team by its players, the viewer first: "You & Cat", "Bob & Dan", "You & Player 3"."""
    seats = sorted(v["teams"][t]["seats"], key=lambda s: s != v["seat"])
    return " & ".join(label(s) if i == 0 else _lower(label(s)) for i, s in enumerate(seats))


def _partner_mark(v: dict, seat: int) -> str:
    """" (your partner)" after the viewer's teammate (named like everyone else), else nothing."""
    me = v["seat"]
    return " (your partner)" if me is not None and seat == v["players"][me].get("partner") else ""


def _render_team(v: dict, names: Names) -> str:
    me = v["seat"]

    def label(seat: int) -> str:
        return named(seat, me, "team", names)

    mine = 0 if me is None else me & 1
    teams = [_team_label(v, t, label) for t in (0, 1)]
    ours = " (your team)" if me is not None else ""
    lines = [f"Riftforce, team play. Score: {teams[mine]}{ours} {v['team_scores'][mine]}, "
             f"{teams[1 - mine]} {v['team_scores'][1 - mine]} (the end is triggered at {v['target']})."]
    over = None
    if v["phase"] == "over":
        r = v["result"]
        if r["teams"][0]["score"] != r["teams"][1]["score"]:
            best = max(r["teams"], key=lambda x: x["score"])["team"]
            plural = len(v["teams"][best]["seats"]) > 1 or teams[best] == "You"
            over = (f"Game over: {teams[best]} {'win' if plural else 'wins'}, "
                    f"{r['teams'][best]['score']} to {r['teams'][1 - best]['score']}.")
        else:
            over = f"Game over: a tie at {r['teams'][0]['score']}."
    lines += _status(v, label, over, names)
    now = v["position"]
    order = ", ".join(f"{i + 1} {label(s)}{_partner_mark(v, s)}" for i, s in enumerate(v["turn_order"]))
    lines.append(f"Turn order: {order}" + (f"; now {now + 1}." if now is not None else "."))
    lines.append("")
    if v["draft"] is not None:
        return "\n".join(lines + _quota_draft_lines(v, label, "team")) + "\n"
    tags = name_tags(len(v["players"]), names)
    key = ", ".join(f"[{tags[s]}] {label(s)}" for s in range(len(v["players"])))
    lines.append(f"{RIFT_HEADING[:-1]}; green zone 1-3, grey zone 4-6; whose: {key})")
    top, bottom = 1 - mine, mine
    rows = []
    for loc in v["locations"]:
        rows.append((f"{loc['loc'] + 1} {loc['zone']}", teams[top], _cards(loc["sides"][top], tags)))
        rows.append(("", teams[bottom], _cards(loc["sides"][bottom], tags)))
    lines += _aligned(rows)
    lines.append("")
    for t in (top, bottom):
        held = v["teams"][t]["controls"]
        lines.append(f"{teams[t]}: {v['team_scores'][t]} Riftforce"
                     + (f", control {_locs(held)}." if held else "."))
        for s in v["teams"][t]["seats"]:
            p = v["players"][s]
            zone = "all six locations" if p["zone"] == "all" else f"the {p['zone']} zone"
            partner = ", your partner" if _partner_mark(v, s) else ""
            pos = p["positions"]
            lines.append(f"  {label(s)}{partner} (position{'s' if len(pos) > 1 else ''} "
                         f"{_and([str(x) for x in pos])}, checks {zone}): {_piles(p)}.")
            lines.extend(_summoner_lines(p["summoners"]))
    return "\n".join(lines + _hand_lines(v) + _pending_lines(v["pending"], label)) + "\n"


def _render_solo(v: dict, names: Names) -> str:
    me = v["seat"]

    def label(seat: int) -> str:
        return named(seat, me, "solo", names)

    you = label(0)
    lines = [f"Riftforce, solo against the trainer. Score: {you} {v['scores'][0]}, the trainer "
             f"{v['scores'][1]} (the end is triggered at {v['target']})."]
    over = None
    if v["phase"] == "over":
        a, b = v["scores"]
        over = (f"Game over: {_lower(you)} beat the trainer, {a} to {b}." if v["result"]["winners"]
                else f"Game over: the trainer wins, {b} to {a}.")
    lines += _status(v, label, over, names)
    lines.append("")
    if v["draft"] is not None:
        return "\n".join(lines + _quota_draft_lines(v, label, "solo")) + "\n"
    tr, plan = v["trainer"], v["plan"]
    lines.append("THE TRAINER")
    lines.append(f"  Its guilds are {_and([g['name'] for g in tr['guilds']])}; its bots use only the challenge "
                 f"of their number.")
    for c in tr["challenges"]:
        flag = " [unverified]" if c["unverified"] else ""
        lines.append(f"  Bots {c['number']} ({'*' * c['stars']}){flag}: {c['text']}")
    if tr["and"] is not None:
        lines.append(f"  & card, end {tr['and']['end']}, bots {tr['and']['number']}: {tr['and']['text']}")
    nxt = plan["next"]
    tag = " (placeholder plan deck)" if plan["placeholder"] else ""
    lines.append(f"  Next plan{tag}: {nxt['words'] if nxt else 'none'}; "
                 f"{plan['pile_count']} in the pile, {plan['discard_count']} done.")
    held = f"; it controls {_locs(tr['controls'])}" if tr["controls"] else ""
    top = f" (top {_card(tr['discard_top'])})" if tr["discard_top"] else ""
    lines.append(f"  {tr['deck_count']} bots in its pile, {tr['discard_count']} destroyed{top}{held}.")
    lines.append("")
    lines.append(RIFT_HEADING)
    rows = []
    for loc in v["locations"]:
        rows.append((str(loc["loc"] + 1), "Trainer", _cards(loc["sides"][1])))
        rows.append(("", you, _cards(loc["sides"][0])))
    lines += _aligned(rows)
    lines.append("")
    p = v["players"][0]
    held = f", {_verb(you, 'control')} {_locs(p['controls'])}" if p["controls"] else ""
    lines.append(f"{you}: {p['score']} Riftforce{held}; {_piles(p)}.")
    lines.extend(_summoner_lines(p["summoners"]))
    return "\n".join(lines + _hand_lines(v) + _pending_lines(v["pending"], label)) + "\n"
