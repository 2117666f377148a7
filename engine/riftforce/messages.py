"""Riftforce's events, moves, action summaries and ability prompts as messages (engine/messages.py,
issue #26): keys and facts, no words.  The words are the catalog's (service/games/riftforce_catalog.py,
English, and service/translations/<language>/LC_MESSAGES/riftforce.po); `KEYS` lists every key a
message here may use, and tests/engine/riftforce/test_riftforce_messages.py plays games of every mode
to hold the code to it.

Each function mirrors its sentence in words.py (kept for render_text and the views' data), and
`event_messages` words the event as `events.redact_event` gives it to the viewer, so a message cannot
carry what the viewer may not see (a teammate's draw, a base draft's dealt summoner), although the
state it is handed is whole.

Seats are `Seat`s (the service makes them "you", "your partner" or a name); the solo trainer, who
holds no seat, is the message "trainer".  A card of someone's is a phrase of its own (`card.of*`,
`.you` for the reader's), one per grammatical role (subject, "to", object), so a language that
declines can; a location is a `Place` of kind "location" (subject), "location.in" (at, from) or
"location.to" (to), for the same reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.messages import Arg, Card, Count, Joined, Message, Number, Place, Seat, Term, msg

from . import solo, team
from .events import redact_event
from .state import State, controls, locate

# Events that are bookkeeping: no line (words.describe_event says None for them too).
SILENT = ("setup", "pending", "turn", "action_end", "plan_end")


# ---- the pieces -------------------------------------------------------------------------------------

def guild(g: str) -> Term:
    return Term("guild", g)


def loc(i: int, case: str = "in") -> Place:
    """A location: case "" (subject), "in" (at, from) or "to" (where something goes)."""
    return Place("location" + (f".{case}" if case else ""), i)


def listed(items: Sequence[Arg]) -> Arg:
    """Items as a list ("A, B and C"; "nothing" for none): nested messages, so each language joins its own way."""
    if not items:
        return msg("list.none")
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return msg("list.two", a=items[0], b=items[1])
    return msg("list.more", a=items[0], rest=listed(items[1:]))


def _solo(s: State | None) -> bool:
    return s is not None and s["mode"] == "solo"


def subject(seat: int, s: State | None) -> Arg:
    """Who did it: a seat, or the solo trainer (seat 1 of a solo game)."""
    return msg("trainer") if _solo(s) and seat == 1 else Seat(seat)


def card_of(seat: int, card: str, s: State | None, role: str = "") -> Message:
    """Someone's card: "Ana's Fire 5", "your Fire 5" (`.you`), "the trainer's Fire 5"; `role` "" (a
    subject), "to" (the one something is done to) or "obj" (an object)."""
    suffix = f".{role}" if role else ""
    if _solo(s) and seat == 1:
        return msg("card.trainer" + suffix, card=Card(card))
    return msg("card.of" + suffix, actor=Seat(seat), card=Card(card))


def ordinal(i: int) -> Message:
    return msg(f"ord.{i}") if i < 3 else msg("ord.n", n=Number(i + 1))


def position(s: State | None, card: str) -> Message | None:
    """Where an elemental stands: " (first at location 2, 3 damage)"; None off the board."""
    if s is None:
        return None
    try:
        where, side = locate(s, card)
    except ValueError:
        return None
    i = s["board"][where][side].index(card)
    d = s["damage"].get(card, 0)
    if d:
        return msg("position.hurt", ordinal=ordinal(i), loc=loc(where), damage=damage(d))
    return msg("position", ordinal=ordinal(i), loc=loc(where))


def damage(n: int) -> Message:
    return msg("damage", count=Count(n))


def riftforce(n: int) -> Message:
    return msg("riftforce", count=Count(n))


def team_words(team_: int, viewer: int | None) -> Message:
    """A team for the reader: "your team", "the opposing team", "Team 1"."""
    if viewer is None:
        return msg("team.n", n=Number(team_ + 1))
    return msg("team.own" if viewer & 1 == team_ else "team.other")


def guilds(gs: list[str]) -> Arg:
    return listed([guild(g) for g in gs])


# ---- plans, prompts and summaries -------------------------------------------------------------------

def plan_message(plan: str) -> Message:
    """A plan card (words.plan_words)."""
    info = solo.PLANS[plan]
    where = loc(solo.plan_loc(plan))
    if info["kind"] == "control":
        return msg("plan.control", loc=where)
    numbers = [msg("number", n=Number(n)) for n in info.get("numbers", [])]
    return msg("plan.attack", numbers=Joined(tuple(numbers), "sep.dash"), loc=where)


_ASK = ("move_to", "aim", "place", "target", "heal", "push")
_BOT_ASK = ("aim", "target", "push")


def ask_message(ask: dict, for_plan: bool = False) -> Message:
    """The prompt of a pending choice (words.ask_prompt): inside an ability, or (`for_plan`) one the
    player makes for the trainer's bot."""
    if ask["what"] == "bot":
        return msg("ask.bot", number=Number(ask["data"]["number"]))
    actor = Card(ask["card"])
    if for_plan and ask["what"] in _BOT_ASK:
        return msg(f"ask.plan.{ask['what']}", card=actor)
    return msg(f"ask.{ask['what']}", card=actor)


def summary_message(summary: dict, s: State | None = None) -> Message:
    """The last completed action (words.summary_words; the view's `last`, an `action_end`'s summary)."""
    who = subject(summary["seat"], s)
    kind = summary["action"]
    if kind == "pick":
        return msg("event.pick", actor=who, guild=guild(summary["guild"]))
    if kind == "give":
        return msg("event.give", actor=who, guild=guild(summary["guild"]))
    if kind == "play":
        cards, locs = summary["cards"], summary["locs"]
        if len(set(locs)) == 1:
            return msg("summary.play", actor=who, cards=listed([Card(c) for c in cards]), loc=loc(locs[0]))
        parts = [msg("card_at", card=Card(c), loc=loc(l)) for c, l in zip(cards, locs, strict=False)]
        return msg("summary.play.spread", actor=who, parts=listed(parts))
    if kind == "activate":
        return msg("summary.activate", actor=who, card=Card(summary["discarded"]),
                   cards=listed([Card(c) for c in summary["activated"]]))
    scored, locs = summary["scored"], summary["locs"]
    where = (msg("summary.where", count=Count(len(locs)), locs=listed([Number(l + 1) for l in locs]))
             if scored and locs else None)
    return msg("summary.check", actor=who, points=riftforce(scored), where=where, count=Count(summary["drew"]))


def asked_message(v: dict) -> Message | None:
    """What the decision in front of the seat to act is, from a view (words.asked_words): the prompt of a
    choice inside an ability or the trainer's plan, the step of a Play or Activate in progress, a draft
    pick, or the actions open.  None once the game is over."""
    if v["phase"] == "over" or v["turn"] is None:
        return None
    d = v["draft"]
    if d is not None:
        if "trainer_offer" in d:
            return msg("asked.trainer_offer", count=Count(len(d["trainer"])), of=Number(solo.KEEP))
        if "quota" in d and v["mode"] == "solo":
            return msg("asked.keep", quota=Number(d["quota"][0]), count=Count(len(d["picks"][0])))
        return msg("asked.pick")
    p = v["pending"]
    if p is not None:
        if p.get("ask"):
            return Message.from_json(p["ask"]["message"])
        if p["kind"] == "play":
            return msg("asked.play")
        if p["kind"] == "activate":
            return msg("asked.activate", count=Count(len(p["activated"])))
    players = v.get("players") or []
    held = players[v["turn"]].get("hand_count") if v["turn"] < len(players) else None
    if held is not None and held >= 7:
        return msg("asked.actions.full")
    if held == 0:
        return msg("asked.actions.empty")
    return msg("asked.actions")


# ---- moves ------------------------------------------------------------------------------------------

def move_message(move: Any, s: State | None = None) -> Message:
    """A move as a message (words.describe_move): for buttons, links and confirm pages."""
    if not isinstance(move, dict):
        return msg("move.unknown")
    try:
        return _move(move, s)
    except (KeyError, TypeError, IndexError):
        return msg("move.unknown")


def _move(move: dict, s: State | None) -> Message:
    t = move.get("type")
    p = s["pending"] if s is not None else None
    ask = p["ask"] if p is not None else None
    if t == "pick":
        return msg("move.pick", guild=guild(move["guild"]))
    if t == "give":
        return msg("move.give", guild=guild(move["guild"]))
    if t == "play":
        return msg("move.play.also" if p is not None else "move.play", card=Card(move["card"]),
                   loc=loc(move["loc"], "to"))
    if t == "end_play":
        return msg("move.end_play")
    if t == "activate":
        return msg("move.activate", card=Card(move["card"]))
    if t == "activate_elemental":
        return msg("move.activate_elemental", card=Card(move["card"]), where=position(s, move["card"]))
    if t == "done":
        return msg("move.done.nothing" if p is not None and not p.get("activated") else "move.done")
    if t == "check":
        if s is None or s["turn"] is None:
            return msg("move.check")
        seat = s["turn"]
        held = team.scored_locations(s, seat) if s["mode"] == "team" else controls(s, seat)
        can = len(s["deck"][seat]) + len(s["discard"][seat])  # rules Q13: the draw stops when both run out
        return msg("move.check.counts", score=Number(len(held)), draw=Number(min(7 - len(s["hand"][seat]), can)))
    if t == "bot":
        return msg("move.bot", card=Card(move["card"]), where=position(s, move["card"]))
    actor: Arg = Card(ask["card"]) if ask is not None and ask["card"] else msg("the_elemental")
    if p is not None and p["kind"] == "plan":  # the player decides for a bot (Q6)
        if t == "aim":
            return msg("move.plan.aim", actor=actor, loc=loc(move["loc"], "to"))
        if t == "push":
            return msg("move.plan.push", actor=actor, loc=loc(move["loc"], "to"))
        if t == "target":
            return msg("move.plan.target", actor=actor, card=Card(move["card"]), where=position(s, move["card"]))
    if t == "push":
        return msg("move.push", loc=loc(move["loc"], "to"))
    if t == "move_to":
        return msg("move.move_to", actor=actor, loc=loc(move["loc"], "to"))
    if t == "aim":
        return msg("move.aim", actor=actor, loc=loc(move["loc"], "to"))
    if t == "place":
        captured = ask["data"].get("captured") if ask is not None else None
        return msg("move.place", card=Card(captured) if captured else msg("the_captured_enemy"),
                   loc=loc(move["loc"], "in"))
    if t == "target":
        return msg("move.target", actor=actor, card=Card(move["card"]), where=position(s, move["card"]))
    if t == "heal":
        return msg("move.heal", actor=actor, card=Card(move["card"]), where=position(s, move["card"]))
    return msg("move.unknown")


# ---- events -----------------------------------------------------------------------------------------

def event_messages(event: dict, viewer: int | None = None, s: State | None = None) -> list[Message]:
    """The event as messages for `viewer` (None: a spectator), worded from `s`, the state it was applied
    to; [] for bookkeeping (and the setup, which has no state before it)."""
    e = redact_event(event, viewer)
    t = e["type"]
    if s is None or t in SILENT:
        return []
    if s["mode"] == "solo":
        said = _solo_event(e, viewer, s)
        if said is not None:
            return said
    return _event(e, t, viewer, s)


def _first(seat: int, s: State) -> Message:
    return msg("event.first_turn", actor=subject(seat, s))


def _event(e: dict, t: str, viewer: int | None, s: State) -> list[Message]:
    actor = subject(e["seat"], s) if isinstance(e.get("seat"), int) else None
    if t == "draft":
        return _draft(e, viewer, s)
    if t == "pick":
        return [msg("event.pick", actor=actor, guild=guild(e["guild"]))]
    if t == "draft_end":
        return [msg("event.draft_end", left=guilds(e["removed"])), _first(e["start"], s)]
    if t == "deck":
        return [msg("event.deck", actor=actor, count=Count(e["count"]))]
    if t == "reshuffle":
        return [msg("event.reshuffle", actor=actor, count=Count(e["count"]))]
    if t == "draw":
        if viewer == e["seat"] and e.get("cards"):
            return [msg("event.draw.own", count=Count(e["count"]), cards=listed([Card(c) for c in e["cards"]]))]
        return [msg("event.draw", actor=actor, count=Count(e["count"]))]
    if t == "enter":
        key = {"deck": "event.enter.deck", "capture": "event.enter.capture"}.get(e["from"], "event.enter")
        return [msg(key, actor=actor, card=Card(e["card"]), loc=loc(e["loc"]))]
    if t == "discard":
        return [msg("event.discard", actor=actor, card=Card(e["card"]))]
    if t == "activated":
        return [msg("event.activated", actor=actor, card=Card(e["card"]), loc=loc(e["loc"]))]
    if t == "damage":
        if e["by"] == e["card"]:
            victim: Message = msg("itself")
        elif e["seat"] == e["by_seat"]:  # Fire's and Lava's self-damage
            victim = msg("card.own.to", actor=Seat(e["seat"]), card=Card(e["card"]))
        else:
            victim = card_of(e["seat"], e["card"], s, "to")
        return [msg("event.damage", by=card_of(e["by_seat"], e["by"], s), amount=damage(e["amount"]), victim=victim)]
    if t == "heal":
        what: Arg = msg("itself.from") if e["by"] == e["card"] else Card(e["card"])
        return [msg("event.heal", by=card_of(e["seat"], e["by"], s), amount=damage(e["amount"]), card=what)]
    if t == "move":
        return [msg("event.move", card=card_of(e["seat"], e["card"], s), **{"from": loc(e["from"])},
                    to=loc(e["to"], "to"))]
    if t == "destroyed":
        return [msg("event.destroyed", card=card_of(e["seat"], e["card"], s), loc=loc(e["loc"]))]
    if t == "captured":
        victim_seat = e.get("owner", 1 - e["seat"])
        return [msg("event.captured", by=card_of(e["seat"], e["by"], s),
                    card=card_of(victim_seat, e["card"], s, "obj"))]
    if t == "score":
        why = "check" if e["reason"] == "check" else "kill"
        if "team" in e:
            return [msg(f"event.score.team.{why}", team=team_words(e["team"], viewer), points=riftforce(e["points"]),
                        total=Number(e["total"]))]
        return [msg(f"event.score.{why}", actor=actor, points=riftforce(e["points"]), total=Number(e["total"]))]
    if t == "game_over":
        a, b = e["scores"]
        if s["mode"] == "team":
            if len(e["winners"]) and len({w & 1 for w in e["winners"]}) == 1:
                return [msg("event.game_over.team", team=team_words(e["winners"][0] & 1, viewer),
                            high=Number(max(a, b)), low=Number(min(a, b)))]
            return [msg("event.game_over.tie", score=Number(a))]
        if len(e["winners"]) == 1:
            return [msg("event.game_over", actor=subject(e["winners"][0], s), high=Number(max(a, b)),
                        low=Number(min(a, b)))]
        return [msg("event.game_over.tie", score=Number(a))]
    return []


def _draft(e: dict, viewer: int | None, s: State) -> list[Message]:
    dealt = e["dealt"]
    offer = guilds(e["offer"])
    first = msg("event.picks_first", actor=Seat(e["first"]))
    if s["mode"] == "team":
        got = [msg("got", actor=Seat(seat), guild=guild(g)) for seat, g in enumerate(dealt)]
        if not got:
            return [msg("event.draft.none", offer=offer), first]
        return [msg("event.draft", got=Joined(tuple(got), "sep.semicolon"), offer=offer), first]
    if s["options"].get("guilds") == "base":
        # House rule Q16: a dealt summoner is known only to its player until the draft ends.
        if viewer in (0, 1):
            return [msg("event.draft.secret", guild=guild(dealt[viewer]), other=Seat(1 - viewer), offer=offer), first]
        return [msg("event.draft.hidden", offer=offer), first]
    got = [msg("got", actor=Seat(seat), guild=guild(dealt[seat])) for seat in (0, 1)]
    return [msg("event.draft", got=Joined(tuple(got), "sep.comma"), offer=offer), first]


def trainer_rule(standing: Any) -> Message:
    """How the trainer's guilds are decided once the player kept 4 (words.trainer_rule); the player is
    seat 0, "you" to themselves."""
    if standing == "random":
        return msg("rule.trainer.random")
    if isinstance(standing, list):
        return msg("rule.trainer.named", actor=Seat(0), guilds=guilds(standing))
    return msg("rule.trainer.choose", actor=Seat(0))


def _trainer_draft(e: dict, s: State) -> Message:
    given, need = e["given"], solo.KEEP - len(e["given"])
    if e["how"] == "choose":
        return msg("event.trainer_draft.choose", actor=Seat(0))
    if e["how"] == "random":
        return msg("event.trainer_draft.random", guilds=guilds(given))
    if not need:
        return msg("event.trainer_draft.named", guilds=guilds(given))
    kept = [g for g in s["options"].get("trainer_guilds", []) if g not in given]
    if given:
        return msg("event.trainer_draft.some", actor=Seat(0), guilds=guilds(given), kept=guilds(kept),
                   count=Count(len(kept)), need=Number(need))
    return msg("event.trainer_draft.none", actor=Seat(0), kept=guilds(kept), count=Count(len(kept)),
               need=Number(need))


def _solo_event(e: dict, viewer: int | None, s: State) -> list[Message] | None:
    """The trainer's side of a solo game; None falls back to the common messages."""
    t = e["type"]
    if t == "draft":
        keep = msg("event.solo.draft", guilds=guilds(e["offer"]))
        if "trainer" in e:  # set up before rules_version "3": the trainer's guilds were fixed
            return [keep, msg("event.solo.trainer_plays", guilds=guilds(e["trainer"]))]
        return [keep, trainer_rule(s["options"].get("trainer_guilds", "choose"))]
    if t == "trainer_draft":
        return [_trainer_draft(e, s)]
    if t == "give":
        return [msg("event.give", actor=subject(e["seat"], s), guild=guild(e["guild"]))]
    if t == "draft_end" and "trainer_offer" in s["draft"]:
        return [msg("event.solo.setup_over", guilds=guilds(e["trainer"])), _first(e["start"], s)]
    if t == "plans":
        return [msg("event.plans.placeholder" if e.get("placeholder") else "event.plans", count=Count(e["count"]))]
    if t == "plan":
        return [msg("event.plan", plan=plan_message(e["plan"]))]
    if t == "plans_recycled":
        return [msg("event.plans_recycled")]
    if t == "enter" and e["seat"] == 1:
        return [msg("event.solo.enter", card=Card(e["card"]), loc=loc(e["loc"]))]
    if t == "activated" and e["seat"] == 1:
        n, stars = e["challenge"].split("-")
        return [msg("event.solo.activated", card=Card(e["card"]), loc=loc(e["loc"]),
                    challenge=msg(f"challenge.{int(stars)}", n=Number(int(n))))]
    if t == "damage" and e["by_seat"] == 1:
        return [msg("event.solo.damage", card=Card(e["by"]), amount=damage(e["amount"]),
                    victim=msg("card.player.to", actor=Seat(0), card=Card(e["card"])))]
    if t == "score" and e["seat"] == 1:
        why = {"control": "control", "kill": "kill"}.get(e["reason"], "other")
        return [msg(f"event.solo.score.{why}", points=riftforce(e["points"]), total=Number(e["total"]))]
    if t == "game_over":
        a, b = e["scores"]
        if e["winners"]:
            return [msg("event.game_over.solo.won", actor=Seat(0), a=Number(a), b=Number(b))]
        return [msg("event.game_over.solo.lost", a=Number(a), b=Number(b))]
    return None


# ---- every key --------------------------------------------------------------------------------------

KEYS = frozenset({
    # pieces
    "list.none", "list.two", "list.more", "trainer", "card.of", "card.of.to", "card.of.obj", "card.trainer",
    "card.trainer.to", "card.trainer.obj", "card.own.to", "card.player.to", "ord.0", "ord.1", "ord.2", "ord.n",
    "position", "position.hurt", "damage", "riftforce", "team.n", "team.own", "team.other", "number", "sep.dash",
    "sep.semicolon", "sep.comma", "itself", "itself.from", "got", "the_elemental", "the_captured_enemy",
    "card_at", "place.location", "place.location.in", "place.location.to",
    *(f"challenge.{n}" for n in range(1, 5)),
    # plans, prompts, summaries
    "plan.control", "plan.attack", "ask.bot", *(f"ask.{w}" for w in _ASK), *(f"ask.plan.{w}" for w in _BOT_ASK),
    "summary.play", "summary.play.spread", "summary.activate", "summary.where", "summary.check",
    "asked.trainer_offer", "asked.keep", "asked.pick", "asked.play", "asked.activate", "asked.actions.full",
    "asked.actions.empty", "asked.actions",
    # moves
    "move.unknown", "move.pick", "move.give", "move.play", "move.play.also", "move.end_play", "move.activate",
    "move.activate_elemental", "move.done", "move.done.nothing", "move.check", "move.check.counts", "move.bot",
    "move.plan.aim", "move.plan.push", "move.plan.target", "move.push", "move.move_to", "move.aim", "move.place",
    "move.target", "move.heal",
    # events
    "event.first_turn", "event.picks_first", "event.pick", "event.give", "event.draft_end", "event.deck", "event.reshuffle", "event.draw",
    "event.draw.own", "event.enter", "event.enter.deck", "event.enter.capture", "event.discard", "event.activated",
    "event.damage", "event.heal", "event.move", "event.destroyed", "event.captured", "event.score.check",
    "event.score.kill", "event.score.team.check", "event.score.team.kill", "event.game_over", "event.game_over.team",
    "event.game_over.tie", "event.draft", "event.draft.none", "event.draft.secret", "event.draft.hidden",
    "rule.trainer.random", "rule.trainer.named", "rule.trainer.choose", "event.trainer_draft.choose",
    "event.trainer_draft.random", "event.trainer_draft.named", "event.trainer_draft.some",
    "event.trainer_draft.none", "event.solo.draft", "event.solo.trainer_plays", "event.solo.setup_over",
    "event.plans", "event.plans.placeholder", "event.plan", "event.plans_recycled", "event.solo.enter",
    "event.solo.activated", "event.solo.damage", "event.solo.score.control", "event.solo.score.kill",
    "event.solo.score.other", "event.game_over.solo.won", "event.game_over.solo.lost",
})
