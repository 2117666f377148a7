"""Beyond the Rift campaigns in the service (issue 8): the games of "Old Friends" linked one to the next.

The engine does the campaign's rules: a won scenario's `result()["rewards"]` is the next scenario's
`options["carry"]` (items by body part, the alternate side, which scenarios were won).  The service keeps
the series: when a campaign game ends, its players are offered one follow-up, taken by a POST from a
player page:

- after a win, the campaign's next scenario, with the rewards as the carry-over (none after the last);
- after a loss, the same scenario again with the same carry-over (a replay).

The follow-up is a new game for the same players in the same seats with the same heroes and time
control; its invitations go out as for any new game.  The press that starts it may also re-arrange the
party's equipment from the stash and choose unlocked alternate sides (section 1.21): the engine's
`equip` and `heroes` options, which the engine checks.  The offer is taken once (a second press, or the
other player's, leads to the game already started, and its choices are ignored): the claim is written in
one transaction, the game created in the next (moves.new_game has its own), and the link in a third.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import Session, select

import engine
from service import store
from service.db import get_engine, read_session, write_session
from service.models import Campaign, CampaignGame, Game, GameClock, Player, utcnow

GAME = "beyond-the-rift"
# A claim older than this is from a request that died between its transactions: it may be taken again.
STALE_CLAIM = timedelta(minutes=5)


class FollowUpError(Exception):
    """No follow-up can be started (not a finished campaign game, the last scenario won, a follow-up
    being started right now); `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 409):
        super().__init__(message)
        self.message, self.status = message, status


WHERE = {"stash": "kept in the stash", "reward_deck": "back under the reward deck"}  # else a body part


@dataclass
class Offer:
    kind: str  # "next" | "replay"
    scenario: str
    title: str
    carry: dict | None
    campaign_title: str
    rewards: dict | None  # the rewards the win recorded ("next" only)
    follow_up_game_id: int | None  # the follow-up already started, if any
    heroes: list[tuple[str, str]]  # (hero, side) per seat, as the finished game was played

    @property
    def drawn(self) -> list[dict]:
        """The items the win drew, named: {"hero": name or None (the party), "item": name, "to": where,
        "where": where, in words}."""
        return [dict(d, hero=hero_name(d["hero"]) if d.get("hero") else None, item=item_name(d["item"]),
                     where=WHERE.get(d["to"]) or "equipped, " + d["to"].replace("_", " "))
                for d in (self.rewards or {}).get("drawn", [])]

    def equipment(self) -> list[dict]:
        """Per hero, what the offer's form may change before the follow-up starts: for each body part the
        item equipped now and the stash items that fit that part and hero, [(id, words)]; the sides to
        choose from, [(side, words)], empty unless one is unlocked."""
        from engine.beyond_the_rift.content import PARTS

        content, carry = _content(), self.carry or {}
        out = []
        for hero, side in self.heroes:
            equipped = carry.get("equipped", {}).get(hero, {})
            parts = [{"part": part, "label": part.replace("_", " ").capitalize(),
                      "now": item_name(equipped[part]) if equipped.get(part) else None,
                      "choices": [(item, item_words(item)) for item in carry.get("stash", [])
                                  if content.items[item]["part"] == part and content.item_allowed(item, hero)]}
                     for part in PARTS]
            unlocked = carry.get("unlocked_sides", {}).get(hero, [])
            sides = [(s, content.board(hero, s)["name"] + (" (standard side)" if s == "standard" else ""))
                     for s in ["standard", *unlocked]] if unlocked else []
            out.append({"hero": hero, "name": hero_name(hero), "side": side, "sides": sides, "parts": parts})
        return out


def _content():
    from engine.beyond_the_rift.content import CONTENT

    return CONTENT


def hero_name(hero: str) -> str:
    return _content().board(hero, "standard")["name"]


def item_name(item: str) -> str:
    return _content().items[item]["name"]


def item_words(item: str) -> str:
    """An item's name and the cards it puts into the deck, e.g. "Company Brigandine: 2x Brigandine of
    the Ninth (Defense 3 (cost 0, range 1))"."""
    from engine.beyond_the_rift.text import card_text

    cards = ", ".join(f"{c['count']}x {c['name']} ({card_text(c)})" for c in _content().items[item]["cards"])
    return f"{item_name(item)}: {cards}"


def _scenario(game: Game) -> str:
    return (game.options or {}).get("scenario", "tutorial")


def offer(session: Session, game: Game) -> Offer | None:
    """What a finished campaign game offers its players; None for other games and after the campaign's
    last scenario was won.  Reads only."""
    if game.name != GAME or game.status != "finished" or not isinstance(game.result, dict):
        return None
    content = _content()
    scenario = _scenario(game)
    campaign = content.scenarios.get(scenario, {}).get("campaign")
    if campaign is None:
        return None
    order = content.campaigns[campaign]["scenarios"]
    link = session.exec(select(CampaignGame).where(CampaignGame.game_id == game.id)).first()
    outcome = game.result.get("outcome")
    state, _ = store.load_state(session, game)
    if outcome == "win":
        following = order.index(scenario) + 1
        if following >= len(order):
            return None
        kind, target, carry = "next", order[following], game.result.get("rewards") or {}
    elif outcome == "loss":
        # The engine's campaign state, i.e. the carry-over with the lost game's own `equip` applied: a
        # replay keeps the equipment the party chose for it.
        kind, target, carry = "replay", scenario, state["campaign"]
    else:  # a forfeit on timeout (service/ending.py): no outcome the campaign can build on
        return None
    return Offer(kind, target, content.scenarios[target]["title"], carry, content.campaigns[campaign]["title"],
                 game.result.get("rewards") if outcome == "win" else None,
                 link.follow_up_game_id if link else None,
                 [(h["hero"], h["side"]) for h in state["heroes"]])


def follow_up(game_id: int, player_id: int, equip: dict | None = None, sides: dict | None = None) -> int:
    """Start the follow-up game a player of finished campaign game `game_id` asked for (or find the one
    already started); the id of the player's row in it.  `equip` ({hero: {part: item id or None}}, only
    the changes) and `sides` ({hero: side}) are the party's choices for a game not yet started.  Raises
    FollowUpError."""
    now = utcnow()
    with write_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        found = offer(session, game)
        if found is None:
            raise FollowUpError("This game offers no next scenario: it is not a finished campaign game, "
                                "or it won the campaign's last scenario.")
        strangers = set(sides or {}) - {hero for hero, _ in found.heroes}
        if strangers:  # before the claim: nothing to release
            raise FollowUpError(f"Cannot choose a side for {', '.join(sorted(strangers))}: not a hero of this "
                                "party.", 422)
        link = session.exec(select(CampaignGame).where(CampaignGame.game_id == game.id)).first()
        if link is None:  # the campaign record starts with the first game that is followed up
            campaign = Campaign(name=_content().scenarios[_scenario(game)]["campaign"], created_at=now)
            session.add(campaign)
            session.flush()
            link = CampaignGame(campaign_id=campaign.id, game_id=game.id, scenario=_scenario(game),
                                carry=(game.options or {}).get("carry"))
        if link.follow_up_game_id is None:
            started = link.follow_up_started_at
            if started is not None and started.replace(tzinfo=now.tzinfo) > now - STALE_CLAIM:
                raise FollowUpError("The next game is being started right now; reload the page in a moment.")
            link.follow_up_started_at = now
            if found.kind == "next":
                link.rewards = found.rewards  # the win's record, kept with the campaign
        session.add(link)
        session.flush()
        existing, campaign_id = link.follow_up_game_id, link.campaign_id
        players = list(session.exec(select(Player).where(Player.game_id == game.id).order_by(Player.seat)))
        me = session.get(Player, player_id)
        clock = session.get(GameClock, game.id)
        options = {k: v for k, v in (game.options or {}).items() if k not in ("scenario", "carry", "equip")}
        settings = dict(deadline_hours=clock.deadline_hours, policy=clock.policy, reminders=list(clock.reminders)) \
            if clock is not None else {}
    if existing is None:
        from service.moves import new_game

        options.update(scenario=found.scenario)
        if found.carry:
            options["carry"] = found.carry
        if equip:
            options["equip"] = equip
        picks = [(hero, (sides or {}).get(hero, side)) for hero, side in found.heroes]
        if picks != found.heroes:
            options["heroes"] = [hero if side == "standard" else {"hero": hero, "side": side} for hero, side in picks]
        try:
            existing = new_game(GAME, [(p.name, p.email) for p in players], options, **settings)
        except Exception as exc:
            # Whatever failed, the claim is released: the party may correct its choices and press again.
            with write_session(get_engine()) as session:
                link = session.exec(select(CampaignGame).where(CampaignGame.game_id == game_id)).one()
                link.follow_up_started_at = None
                session.add(link)
            if isinstance(exc, engine.IllegalMove):
                raise FollowUpError(f"The next game could not be started: {exc.reason.rstrip('.')}. Change the "
                                    "choices on the player page and press again.", 422) from exc
            raise
        with write_session(get_engine()) as session:
            link = session.exec(select(CampaignGame).where(CampaignGame.game_id == game_id)).one()
            link.follow_up_game_id = existing
            session.add(link)
            session.add(CampaignGame(campaign_id=campaign_id, game_id=existing, scenario=found.scenario,
                                     carry=found.carry or None))
    with read_session(get_engine()) as session:
        return session.exec(select(Player.id).where(Player.game_id == existing, Player.seat == me.seat)).one()


def games_of(session: Session, game_id: int) -> list[CampaignGame]:
    """The campaign games linked with `game_id`, in order of creation ([] when it is in none)."""
    link = session.exec(select(CampaignGame).where(CampaignGame.game_id == game_id)).first()
    if link is None:
        return []
    return list(session.exec(select(CampaignGame).where(CampaignGame.campaign_id == link.campaign_id)
                             .order_by(CampaignGame.id)))
