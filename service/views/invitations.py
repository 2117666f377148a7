"""What a game's pages say about seats whose address has not agreed to Riftpost's emails yet (or
declined): service/play/consent.py decides; these are its words, for the creator's own page only
(seat 0's: who typed the addresses).  A page anyone may open (the "game started" page, the public
page) must not say them: they tell whether an address has played here.  Names only, never an address."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, col

from service.lang import Nf_
from service.store import seat_names
from service.store.models import BOT_CONSENT, Invitation, Player

# Built once (issue #27): the creator's player page reads it on every view while a seat is waiting.
_ASKED = sa.select(col(Invitation.player_id)).where(col(Invitation.player_id).in_(sa.bindparam("ids", expanding=True)))


def notes(session: Session, players: list[Player], fresh: bool = False) -> dict[int, str]:
    """A sentence per seat that is not being emailed as usual, keyed by seat.  `fresh`: said just after
    the game was created (whether its invitation went out now or an earlier one is still unanswered).
    Marked `Words` (service/lang.py): the page says them in its reader's language."""
    waiting = [p for p in players if p.consent and not p.consent.startswith(BOT_CONSENT)]  # a bot needs no say
    if not waiting:
        return {}
    names = seat_names(players)  # as shown: no link can pass (service/names.py)
    # (plain columns on the session's connection: the ORM's execution cost twice the statement)
    asked_now = set(session.connection().execute(_ASKED, {"ids": [p.id for p in waiting]}).scalars().all())
    words: dict[int, str] = {}
    for p in waiting:
        name, creator = names[p.seat], names.get(0)
        if p.consent == "creator":  # the creator (seat 0) has not confirmed their address yet
            words[p.seat] = Nf_("Nobody else is emailed until %(creator)s confirms their address: %(name)s gets the "
                                "game's emails (or an invitation) once the link we emailed to %(creator)s is opened "
                                "and accepted.", creator=creator or Nf_("the game's creator"), name=name)
        elif p.consent == "declined":
            words[p.seat] = (Nf_("%(name)s declined the invitation: the game does not email them.", name=name)
                             if not fresh else
                             Nf_("%(name)s declined invitations from %(creator)s before, so we did not email them.",
                                 name=name, creator=creator or Nf_("the game's creator")))
        elif p.id in asked_now:
            words[p.seat] = (Nf_("We asked %(name)s to join; the game starts emailing them once they accept.",
                                 name=name)
                             if fresh else
                             Nf_("%(name)s has not answered the invitation yet; the game starts emailing them once "
                                 "they accept.", name=name))
        else:
            words[p.seat] = Nf_("%(name)s has not answered an earlier invitation from %(creator)s yet, so we sent "
                                "nothing new; the game starts emailing them once they accept.",
                                name=name, creator=creator or Nf_("the game's creator"))
    return words
