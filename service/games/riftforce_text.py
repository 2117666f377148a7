"""The Riftforce board as plain text in the reader's language (issue #26): the plain part of every email
and the history's text boards.

The same lines as the engine's English `render_text` (engine/riftforce/words.py, kept for the command
line): scores, whose turn and what is asked, the rift one line per stack, each player's piles and
summoners, the viewer's hand, the action in progress.  The board's own words are gettext's (the
`messages` domain, shared with the board templates where they say the same), the game's (guilds,
cards, abilities, plans, what is asked, the last action) the game catalog's, worded by `Wording` from
the messages the view carries (`last_message`, a plan's and an ask's `message`) or makes
(engine/riftforce/messages.py).  No sentence is edited after it is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.messages import Message, msg
from engine.riftforce import messages, solo
from engine.riftforce.words import name_tags
from service import lang
from service.games.textcols import columns, pad, width

# service/views/wording.py's Wording (the adapters sit below service/views: handed in, never imported)
Wording = Any


class _Board:
    def __init__(self, v: dict[str, Any], words: Wording, names: Mapping[int, str]):
        self.v = v
        self.w = words
        self.names = names
        self.me = v["seat"]
        found = lang.translations(words.language)
        self._ = found.gettext
        self.ngettext = found.ngettext
        self.gettext = lang.speaker(words.language)[0]  # its placeholders filled from keywords

    # ---- pieces ------------------------------------------------------------------------------------

    def label(self, seat: int) -> str:
        """A player: "You" for the viewer, the trainer, the player's name, "Player N"."""
        if self.v["mode"] == "solo" and seat == 1:
            return self.w(msg("trainer"))
        if self.me is not None and seat == self.me:
            return self._("You")
        if self.names.get(seat):
            return str(self.names[seat])
        return self.gettext("Player %(n)s", n=seat + 1)

    def card(self, c: dict[str, Any]) -> str:
        name = f"{self.w.term('guild', c['guild'])} {c['number']}"
        return (
            self.gettext("%(card)s (%(damage)s)", card=name, damage=self.w(messages.damage(c["damage"])))
            if c.get("damage")
            else name
        )

    def cards(self, cards: list[dict[str, Any]], tags: dict[int, str] | None = None) -> str:
        if not cards:
            return self._("empty")
        if tags is None:
            return self._(", ").join(self.card(c) for c in cards)
        return self._(", ").join(f"{self.card(c)} [{tags[c['owner']]}]" for c in cards)

    def points(self, n: int) -> str:
        """ "5 Riftforce" (a count: Ukrainian's plural forms)."""
        return self.w(messages.riftforce(n))

    def listed(self, items: list[str]) -> str:
        return self.w.and_list(items) if items else self._("nothing yet")

    def locs(self, locs: list[int]) -> str:
        return self.w.and_list([l + 1 for l in locs])

    def piles(self, p: dict[str, Any]) -> str:
        text = self.gettext(
            "%(hand)s in hand, %(draw)s in the draw pile, %(gone)s discarded",
            hand=p["hand_count"],
            draw=p["deck_count"],
            gone=p["discard_count"],
        )
        return text + (self.gettext(" (top %(card)s)", card=self.card(p["discard_top"])) if p["discard_top"] else "")

    def summoners(self, summoners: list[dict[str, Any]]) -> list[str]:
        return [
            "    "
            + self.gettext(
                "%(guild)s: %(ability)s", guild=self.w.term("guild", g["id"]), ability=self.w.term("ability", g["id"])
            )
            for g in summoners
        ]

    def guild_names(self, ids: list[str]) -> str:
        return self._(", ").join(self.w.term("guild", g) for g in ids)

    @staticmethod
    def aligned(rows: list[tuple[str, str, str]]) -> list[str]:
        return columns([list(r) for r in rows], "  ")

    def heading(self) -> str:
        return self._("THE RIFT (each stack listed front first: the front elemental faces the enemy)")

    # ---- parts -------------------------------------------------------------------------------------

    def status(self, over: str | None, end_words: str) -> list[str]:
        v = self.v
        lines = []
        if over is not None:
            lines.append(over)
        elif v["turn"] is not None:
            found = messages.asked_message(v)
            asked = self.w(found) if found is not None else ""
            if v["turn"] == self.me:
                lines.append(self.gettext("Your turn: %(asked)s", asked=asked))
            else:
                lines.append(self.gettext("%(name)s to play: %(asked)s", name=self.label(v["turn"]), asked=asked))
        if v["end_triggered"] and v["phase"] != "over":
            lines.append(end_words)
        last = v.get("last_message")
        if last:
            lines.append(self.gettext("Last action: %(action)s", action=self.w(Message.from_json(last))))
        return lines

    def hand(self) -> list[str]:
        v = self.v
        if v["hand"] is None:
            return []
        if not v["hand"]:
            return ["", self._("Your hand is empty.")]
        return [
            "",
            self.gettext(
                "Your hand (%(num)d): %(cards)s",
                num=len(v["hand"]),
                cards=self._(", ").join(self.card(c) for c in v["hand"]),
            ),
        ]

    def pending(self) -> list[str]:
        p = self.v["pending"]
        if p is None:
            return []
        mine = p["seat"] == self.me
        if p["kind"] == "play":
            placed = self.w.and_list(
                [
                    self.gettext("%(card)s at location %(n)s", card=self.card(c), n=l + 1)
                    for c, l in zip(p["cards"], p["locs"], strict=False)
                ]
            )
            line = (
                self.gettext("Play in progress: you played %(cards)s so far.", cards=placed)
                if mine
                else self.gettext(
                    "Play in progress: %(name)s played %(cards)s so far.", name=self.label(p["seat"]), cards=placed
                )
            )
        elif p["kind"] == "activate":
            acts = self.w.and_list([self.card(c) for c in p["activated"]]) if p["activated"] else self._("nothing yet")
            line = (
                self.gettext(
                    "Activate in progress: you discarded %(card)s and activated %(cards)s.",
                    card=self.card(p["discarded"]),
                    cards=acts,
                )
                if mine
                else self.gettext(
                    "Activate in progress: %(name)s discarded %(card)s and activated %(cards)s.",
                    name=self.label(p["seat"]),
                    card=self.card(p["discarded"]),
                    cards=acts,
                )
            )
        else:
            plan = self.w(Message.from_json(p["plan"]["message"]))
            line = (
                self.gettext(
                    "The trainer's plan is under way: %(plan)s; bots used so far %(cards)s.",
                    plan=plan,
                    cards=self.w.and_list([self.card(c) for c in p["used"]]),
                )
                if p["used"]
                else self.gettext("The trainer's plan is under way: %(plan)s.", plan=plan)
            )
        return ["", line]

    def offer(self, d: dict[str, Any]) -> list[str]:
        return ["  " + self._("Summoners on offer")] + self.summoners(d["offer"])

    def controls(self, seat: int, locs: list[int]) -> str:
        if not locs:
            return ""
        if seat == self.me:
            return self.gettext(", control %(locations)s", locations=self.locs(locs))
        return self.gettext(", controls %(locations)s", locations=self.locs(locs))

    # ---- the duel ----------------------------------------------------------------------------------

    def duel(self) -> str:
        v, label = self.v, self.label
        me = self.me
        top, bottom = (1, 0) if me is None or me == 0 else (0, 1)
        first = 1 if me == 1 else 0
        lines = [
            self.gettext(
                "Riftforce. Score: %(first)s %(a)s, %(second)s %(b)s (the end is triggered at %(target)s).",
                first=label(first),
                a=v["scores"][first],
                second=label(1 - first),
                b=v["scores"][1 - first],
                target=v["target"],
            )
        ]
        over = None
        if v["phase"] == "over":
            winners = v["result"]["winners"] if v["result"] else []
            a, b = sorted(v["scores"], reverse=True)
            if len(winners) == 1 and winners[0] == me:
                over = self.gettext("Game over: You win, %(high)s to %(low)s.", high=a, low=b)
            elif len(winners) == 1:
                over = self.gettext(
                    "Game over: %(name)s wins, %(high)s to %(low)s.", name=label(winners[0]), high=a, low=b
                )
            else:
                over = self.gettext("Game over: a tie at %(score)s.", score=a)
        lines += self.status(over, self._("The end is triggered: the round is being finished."))
        lines.append("")
        if v["draft"] is not None:
            return "\n".join(lines + self.duel_draft()) + "\n"
        lines.append(self.heading())
        rows = []
        for loc in v["locations"]:
            rows.append((str(loc["loc"] + 1), label(top), self.cards(loc["sides"][top])))
            rows.append(("", label(bottom), self.cards(loc["sides"][bottom])))
        lines += self.aligned(rows)
        lines.append("")
        for p in (v["players"][top], v["players"][bottom]):
            held = self.controls(p["seat"], p["controls"])
            lines.append(
                self.gettext(
                    "%(name)s: %(points)s%(held)s; %(piles)s.",
                    name=label(p["seat"]),
                    points=self.points(p["score"]),
                    held=held,
                    piles=self.piles(p),
                )
            )
            lines.extend(self.summoners(p["summoners"]))
        return "\n".join(lines + self.hand() + self.pending()) + "\n"

    def duel_draft(self) -> list[str]:
        d = self.v["draft"]
        lines = [self._("THE GUILD DRAFT (each player picks 4 summoners)")]
        wide = max(width(self.label(s)) for s in (0, 1))
        for s in (0, 1):
            known = self.guild_names(d["picks"][s]) or self._("nothing yet")
            if d["dealt"] and d["dealt"][s] is None:
                known = self.gettext("%(guilds)s and a dealt summoner seen when the draft ends", guilds=known)
            lines.append(f"  {pad(self.label(s), wide)}  {known}")
        return lines + self.offer(d)

    def quota_draft(self, mode: str) -> list[str]:
        v = self.v
        d = v["draft"]
        lines = [self._("THE GUILD DRAFT")]
        seats = [s for s in range(len(d["picks"])) if not (mode == "solo" and s == 1)]
        wide = max(width(self.label(s)) for s in seats)
        if mode == "solo" and "trainer_offer" in d:
            wide = max(wide, width(self.label(1)))
        for s in seats:
            picks = self.guild_names(d["picks"][s]) or self._("nothing yet")
            lines.append(
                f"  {pad(self.label(s), wide)}  "
                + self.gettext(
                    "%(guilds)s (%(have)s of %(quota)s)", guilds=picks, have=len(d["picks"][s]), quota=d["quota"][s]
                )
            )
        if mode == "solo" and "trainer_offer" in d:
            have = self.listed([self.w.term("guild", g["id"]) for g in d["trainer"]])
            lines.append(
                f"  {pad(self.label(1), wide)}  "
                + self.gettext(
                    "%(guilds)s (%(have)s of %(quota)s)", guilds=have, have=len(d["trainer"]), quota=solo.KEEP
                )
            )
            return (
                lines
                + [
                    "  "
                    + self._(
                        "Guilds that may go to the trainer (a bot uses its guild's ability only "
                        "once a Music captures it)"
                    )
                ]
                + self.summoners(d["trainer_offer"])
            )
        if "trainer" in d:
            lines.append(
                "  "
                + self.gettext(
                    "The trainer plays %(guilds)s.",
                    guilds=self.w.and_list([self.w.term("guild", g["id"]) for g in d["trainer"]]),
                )
            )
        elif mode == "solo":
            lines.append("  " + self.w(messages.trainer_rule(v["options"].get("trainer_guilds", "choose"))))
        return lines + self.offer(d)

    # ---- team play ---------------------------------------------------------------------------------

    def team_label(self, t: int) -> str:
        seats = sorted(self.v["teams"][t]["seats"], key=lambda s: s != self.me)
        return " & ".join(self.label(s) for s in seats)

    def partner(self, seat: int) -> bool:
        me = self.me
        return me is not None and seat == self.v["players"][me].get("partner")

    def team(self) -> str:
        v, label, me = self.v, self.label, self.me
        mine = 0 if me is None else me & 1
        teams = [self.team_label(t) for t in (0, 1)]
        ours = self._(" (your team)") if me is not None else ""
        lines = [
            self.gettext(
                "Riftforce, team play. Score: %(first)s%(ours)s %(a)s, %(second)s %(b)s (the end is "
                "triggered at %(target)s).",
                first=teams[mine],
                ours=ours,
                a=v["team_scores"][mine],
                second=teams[1 - mine],
                b=v["team_scores"][1 - mine],
                target=v["target"],
            )
        ]
        over = None
        if v["phase"] == "over":
            r = v["result"]
            if r["teams"][0]["score"] != r["teams"][1]["score"]:
                best = max(r["teams"], key=lambda x: x["score"])["team"]
                high, low = r["teams"][best]["score"], r["teams"][1 - best]["score"]
                many = len(v["teams"][best]["seats"]) > 1 or me in v["teams"][best]["seats"]
                over = (
                    self.gettext(
                        "Game over: %(names)s win, %(high)s to %(low)s.", names=teams[best], high=high, low=low
                    )
                    if many
                    else self.gettext(
                        "Game over: %(name)s wins, %(high)s to %(low)s.", name=teams[best], high=high, low=low
                    )
                )
            else:
                over = self.gettext("Game over: a tie at %(score)s.", score=r["teams"][0]["score"])
        lines += self.status(over, self._("The end is triggered: the round is being finished."))
        now = v["position"]
        order = self._(", ").join(
            f"{i + 1} " + (self.gettext("%(name)s (your partner)", name=label(s)) if self.partner(s) else label(s))
            for i, s in enumerate(v["turn_order"])
        )
        lines.append(
            self.gettext("Turn order: %(order)s; now %(now)s.", order=order, now=now + 1)
            if now is not None
            else self.gettext("Turn order: %(order)s.", order=order)
        )
        lines.append("")
        if v["draft"] is not None:
            return "\n".join(lines + self.quota_draft("team")) + "\n"
        tags = name_tags(len(v["players"]), self.names)
        key = self._(", ").join(f"[{tags[s]}] {label(s)}" for s in range(len(v["players"])))
        lines.append(
            self.gettext(
                "THE RIFT (each stack listed front first: the front elemental faces the enemy; green "
                "zone 1-3, grey zone 4-6; whose: %(key)s)",
                key=key,
            )
        )
        top, bottom = 1 - mine, mine
        zone = {"green": self._("green"), "grey": self._("grey")}
        rows = []
        for loc in v["locations"]:
            rows.append((f"{loc['loc'] + 1} {zone[loc['zone']]}", teams[top], self.cards(loc["sides"][top], tags)))
            rows.append(("", teams[bottom], self.cards(loc["sides"][bottom], tags)))
        lines += self.aligned(rows)
        lines.append("")
        for t in (top, bottom):
            held = v["teams"][t]["controls"]
            points = self.points(v["team_scores"][t])
            lines.append(
                self.gettext(
                    "%(team)s: %(points)s, control %(locations)s.",
                    team=teams[t],
                    points=points,
                    locations=self.locs(held),
                )
                if held
                else self.gettext("%(team)s: %(points)s.", team=teams[t], points=points)
            )
            for s in v["teams"][t]["seats"]:
                p = v["players"][s]
                checks = {
                    "all": self._("checks all six locations"),
                    "green": self._("checks the green zone"),
                    "grey": self._("checks the grey zone"),
                }[p["zone"]]
                pos = p["positions"]
                where = self.ngettext("position %(places)s", "positions %(places)s", len(pos)) % {
                    "places": self.w.and_list(pos)
                }
                who = self.gettext("%(name)s, your partner", name=label(s)) if self.partner(s) else label(s)
                lines.append(
                    "  "
                    + self.gettext(
                        "%(name)s (%(positions)s, %(checks)s): %(piles)s.",
                        name=who,
                        positions=where,
                        checks=checks,
                        piles=self.piles(p),
                    )
                )
                lines.extend(self.summoners(p["summoners"]))
        return "\n".join(lines + self.hand() + self.pending()) + "\n"

    # ---- solo --------------------------------------------------------------------------------------

    def solo(self) -> str:
        v = self.v
        you = self.label(0)
        lines = [
            self.gettext(
                "Riftforce, solo against the trainer. Score: %(you)s %(a)s, the trainer %(b)s (the end is "
                "triggered at %(target)s).",
                you=you,
                a=v["scores"][0],
                b=v["scores"][1],
                target=v["target"],
            )
        ]
        over = None
        if v["phase"] == "over":
            a, b = v["scores"]
            if not v["result"]["winners"]:
                over = self.gettext("Game over: the trainer wins, %(high)s to %(low)s.", high=b, low=a)
            elif self.me == 0:
                over = self.gettext("Game over: you beat the trainer, %(high)s to %(low)s.", high=a, low=b)
            else:
                over = self.gettext(
                    "Game over: %(name)s beat the trainer, %(high)s to %(low)s.", name=you, high=a, low=b
                )
        lines += self.status(over, self._("The end is triggered: the round is being finished."))
        lines.append("")
        if v["draft"] is not None:
            return "\n".join(lines + self.quota_draft("solo")) + "\n"
        tr, plan = v["trainer"], v["plan"]
        lines.append(self._("THE TRAINER"))
        lines.append(
            "  "
            + self.gettext(
                "Its guilds are %(guilds)s; its bots use only the challenge of their number.",
                guilds=self.w.and_list([self.w.term("guild", g["id"]) for g in tr["guilds"]]),
            )
        )
        for c in tr["challenges"]:
            flag = self._(" [unverified]") if c["unverified"] else ""
            lines.append(
                "  "
                + self.gettext(
                    "Bots %(n)s (%(stars)s)%(flag)s: %(ability)s",
                    n=c["number"],
                    stars="*" * c["stars"],
                    flag=flag,
                    ability=self.w.term("challenge", f"{c['number']}-{c['stars']}"),
                )
            )
        if tr["and"] is not None:
            lines.append(
                "  "
                + self.gettext(
                    "& card, end %(end)s, bots %(n)s: %(ability)s",
                    end=tr["and"]["end"],
                    n=tr["and"]["number"],
                    ability=self.w.term("and", tr["and"]["end"]),
                )
            )
        nxt = plan["next"]
        words = self.w(Message.from_json(nxt["message"])) if nxt else self._("none")
        lines.append(
            "  "
            + (
                self.gettext(
                    "Next plan (placeholder plan deck): %(plan)s; %(pile)s in the pile, %(done)s done.",
                    plan=words,
                    pile=plan["pile_count"],
                    done=plan["discard_count"],
                )
                if plan["placeholder"]
                else self.gettext(
                    "Next plan: %(plan)s; %(pile)s in the pile, %(done)s done.",
                    plan=words,
                    pile=plan["pile_count"],
                    done=plan["discard_count"],
                )
            )
        )
        held = (
            self.gettext("; it controls %(locations)s", locations=self.locs(tr["controls"])) if tr["controls"] else ""
        )
        top = self.gettext(" (top %(card)s)", card=self.card(tr["discard_top"])) if tr["discard_top"] else ""
        lines.append(
            "  "
            + self.gettext(
                "%(pile)s bots in its pile, %(gone)s destroyed%(top)s%(held)s.",
                pile=tr["deck_count"],
                gone=tr["discard_count"],
                top=top,
                held=held,
            )
        )
        lines.append("")
        lines.append(self.heading())
        rows = []
        for loc in v["locations"]:
            rows.append((str(loc["loc"] + 1), self._("Trainer"), self.cards(loc["sides"][1])))
            rows.append(("", you, self.cards(loc["sides"][0])))
        lines += self.aligned(rows)
        lines.append("")
        p = v["players"][0]
        lines.append(
            self.gettext(
                "%(name)s: %(points)s%(held)s; %(piles)s.",
                name=you,
                points=self.points(p["score"]),
                held=self.controls(0, p["controls"]),
                piles=self.piles(p),
            )
        )
        lines.extend(self.summoners(p["summoners"]))
        return "\n".join(lines + self.hand() + self.pending()) + "\n"


def render(view: dict[str, Any], words: Wording, names: Mapping[int, str] | None = None) -> str:
    """The board of `view` as plain text, worded by `words` (its reader, language and partners)."""
    board = _Board(view, words, names or {})
    if view["mode"] == "team":
        return board.team()
    if view["mode"] == "solo":
        return board.solo()
    return board.duel()
