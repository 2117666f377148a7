"""Starting the follow-up a finished game offers (service/views/followups.py: what the game's adapter
offers, the next part of a campaign after a win, a replay after a loss).  The generic "play again" is a
rematch every player accepts first (service/play/rematch.py), not started here.

The follow-up is a new game for the same players in the same seats with the same time control; its
invitations go out as for any new game.  The press that starts it carries the party's choices from the
offer's form (the adapter turns them into start options, the engine judges them).  The offer is taken
once (a second press, or another player's, leads to the game already started, and its choices are
ignored): the claim is written in one transaction, the game created in the next (new_game has its
own), and the link in a third.
"""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import col, select

import engine
from service import store
from service.errors import Conflict, Invalid, TooMany
from service.games import FormData, adapter
from service.games.base import FOLLOW_UP_TITLE as TITLE
from service.lang import N_, Nf_
from service.play.moves import new_game
from service.store import read_session, write_session
from service.store.db import get_engine
from service.store.models import Campaign, CampaignGame, GameClock, Player, as_utc, utcnow
from service.views import followups

# A claim older than this is from a request that died between its transactions: it may be taken again.
STALE_CLAIM = timedelta(minutes=5)


def follow_up(game_id: int, player_id: int, form: FormData) -> int:
    """Start the follow-up a player of finished game `game_id` asked for (or find the one already
    started), with the party's choices in `form`; the id of the player's row in it.  Raises Conflict
    (none offered, or one being started right now) or Invalid (a choice the next game refuses)."""
    now = utcnow()
    with write_session(get_engine()) as session:
        # Locked: two presses at once (two players, a double click) take turns at the claim below.
        game = store.get_game(session, game_id, lock=True)
        offer = followups.offer(session, game)
        if offer is None:
            raise Conflict(N_("This game is not over yet: a new game can be started from it once it ends."), TITLE)
        if offer.kind == followups.AGAIN:  # everyone is asked first (service/play/rematch.py)
            raise Conflict(N_("Playing again asks every player first: use the Play again button on your game page."),
                           TITLE)
        # Before the claim: nothing to release.  Play-again takes no choices: the same options.
        options = (dict(offer.options) if offer.kind == followups.AGAIN
                   else adapter(game.name).follow_up_options(offer, form))
        link = followups.campaign_link(session, game_id)
        if link is None:  # the campaign record starts with the first game that is followed up
            campaign = Campaign(name=offer.campaign, created_at=now)
            session.add(campaign)
            session.flush()
            assert campaign.id is not None
            link = CampaignGame(campaign_id=campaign.id, game_id=game_id, scenario=offer.played,
                                carry=offer.played_carry)
        if link.follow_up_game_id is None:
            started = link.follow_up_started_at
            if started is not None and as_utc(started) > now - STALE_CLAIM:
                raise Conflict(N_("The next game is being started right now; reload the page in a moment."), TITLE)
            link.follow_up_started_at = now
            if offer.rewards is not None:
                link.rewards = offer.rewards  # the win's record, kept with the campaign
        session.add(link)
        session.flush()
        existing, campaign_id = link.follow_up_game_id, link.campaign_id
        players = store.players_of(session, game_id)
        seat = next(p.seat for p in players if p.id == player_id)
        clock = session.get(GameClock, game_id) or GameClock(game_id=game_id)  # none: an untimed game
    if existing is None:
        try:
            existing = new_game(game.name, [(p.name, p.email) for p in players], options,
                                deadline_hours=clock.deadline_hours, policy=clock.policy,
                                reminders=list(clock.reminders))
        except Exception as exc:
            # Whatever failed, the claim is released: the party may correct its choices and press again.
            with write_session(get_engine()) as session:
                _link(session, game_id).follow_up_started_at = None
            if isinstance(exc, engine.IllegalMove):
                raise Invalid(Nf_("The next game could not be started: %(reason)s. Change the choices on the player "
                                  "page and press again.", reason=exc.reason.rstrip(".")), TITLE) from exc
            if isinstance(exc, TooMany):  # its words name the address: not another player's to read
                raise TooMany(N_("The next game could not be started now: one of the players has been named in "
                                 "as many new games today as we allow. Try again later."), exc.retry_after,
                              exc.title) from exc
            raise
        with write_session(get_engine()) as session:
            _link(session, game_id).follow_up_game_id = existing
            session.add(CampaignGame(campaign_id=campaign_id, game_id=existing, scenario=offer.part,
                                     carry=offer.carry))
    with read_session(get_engine()) as session:
        return session.exec(select(col(Player.id)).where(col(Player.game_id) == existing, col(Player.seat) == seat)).one()


def _link(session, game_id: int) -> CampaignGame:
    found = followups.campaign_link(session, game_id)
    assert found is not None
    session.add(found)
    return found
