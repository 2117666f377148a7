"""What a game's pages say about seats whose address has not agreed to Riftpost's emails yet (or
declined): service/play/consent.py decides; these are its words, for the creator's own page only
(seat 0's: who typed the addresses).  A page anyone may open (the "game started" page, the public
page) must not say them: they tell whether an address has played here.  Names only, never an address."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, col

from service.store import seat_names
from service.store.models import Invitation, Player


def notes(session: Session, players: list[Player], fresh: bool = False) -> dict[int, str]:
    """A sentence per seat that is not being emailed as usual, keyed by seat.  `fresh`: said just after
    the game was created (whether its invitation went out now or an earlier one is still unanswered)."""
    waiting = [p for p in players if p.consent]
    if not waiting:
        return {}
    names = seat_names(players)  # as shown: no link can pass (service/names.py)
    creator = names.get(0, "the game's creator")
    asked_now = set(session.execute(sa.select(col(Invitation.player_id)).where(
        col(Invitation.player_id).in_([p.id for p in waiting]))).scalars().all())
    words = {}
    for p in waiting:
        name = names[p.seat]
        if p.consent == "creator":  # the creator (seat 0) has not confirmed their address yet
            words[p.seat] = (f"Nobody else is emailed until {creator} confirms their address: {name} gets "
                             "the game's emails (or an invitation) once the link we emailed to "
                             f"{creator} is opened and accepted.")
        elif p.consent == "declined":
            words[p.seat] = (f"{name} declined the invitation: the game does not email them."
                             if not fresh else
                             f"{name} declined invitations from {creator} before, so we did not email them.")
        elif p.id in asked_now:
            words[p.seat] = (f"We asked {name} to join; the game starts emailing them once they accept."
                             if fresh else
                             f"{name} has not answered the invitation yet; the game starts emailing them once "
                             "they accept.")
        else:
            words[p.seat] = (f"{name} has not answered an earlier invitation from {creator} yet, so we sent "
                             "nothing new; the game starts emailing them once they accept.")
    return words
