"""Whose language an email is worded in (issue #26), chosen when it is rendered, never stored in its
row nor in any link's token (a forwarded link would carry one reader's language to another):

1. the reader's own setting (table `person_languages`, by their address key: service/people/languages.py
   writes it), so the players of one game may each read its emails in another language;
2. an email to an address that never agreed to ours and has no setting (an invitation, an invitation
   to take over a seat, a lobby join's confirmation): the language of whoever asked, the inviter's
   setting, since they chose to write to someone who probably reads what they read;
3. English.

One primary-key SELECT per email (two for an invitation to someone without a setting).
"""

from __future__ import annotations

from sqlmodel import Session

from service import lang
from service.mail.kinds import Mail
from service.store.models import Invitation, PersonLanguage

# The kinds written to an address on someone else's word: worded in the asker's language by default.
ASKED_BY_SOMEONE = frozenset({"invitation", "seat_invitation", "lobby_join"})


def setting(session: Session, address_key: str | None) -> str | None:
    """The person's chosen language, or None (none chosen, or one no longer spoken)."""
    if not address_key:
        return None
    found = session.get(PersonLanguage, address_key)
    return lang.known(found.language) if found is not None else None


def inviter_key(session: Session, mail: Mail) -> str | None:
    """The address key of whoever asked for an email of ASKED_BY_SOMEONE: the seat invitation's voter
    who invited, else the game's creator (seat 0)."""
    if mail.row.kind == "seat_invitation" and mail.params.get("invitation") is not None:
        invitation = session.get(Invitation, int(mail.params["invitation"]))
        if invitation is not None:
            return invitation.inviter
    creator = next((p for p in mail.players if p.seat == 0), None)
    return creator.address_key if creator is not None and creator.id != mail.player.id else None


def language(session: Session, mail: Mail) -> str:
    """The language `mail` is worded in (the module's docstring)."""
    own = setting(session, mail.player.address_key)
    if own is not None:
        return own
    if mail.row.kind in ASKED_BY_SOMEONE:
        return setting(session, inviter_key(session, mail)) or lang.ENGLISH
    return lang.ENGLISH
