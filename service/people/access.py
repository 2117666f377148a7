"""Who may act for a person, and how they are reached: link generations, the account link, never-email.

- A player's links all carry the seat's `link_generation`; `fresh_link` increments it (for one game, or
  for every seat of the address) and mails the new page link to the address itself, so whoever holds a
  forwarded email loses the game, and the owner gets it back from their own inbox.
- Account-wide actions (a vacation in all games, never-email) act only for a signed-in browser: its
  sign-in link is mailed to the address on request (`signin_link`, service/people/signin.py).  A
  forwarded game email lets its reader ask for one, but the link goes to the owner.  The one-hour
  account links mailed before sign-in existed open a page that signs in; a fresh link (for one game or
  all) still ends every account link issued before it (`account_link_alive`).
- Each of the two is mailed at most once per LINK_MAIL_INTERVAL per address: enough for someone who
  lost the first email, too slow to flood an inbox from a page.
- `set_never_email`: the RFC 8058 one-click and the account page.  Delivery skips every email to such an
  address except the links the person asks for on a page (service/mail/kinds.py `requested`): without
  those, someone who said "never" could never take it back.
No function here reads the clock: `now` is an argument.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, col

from service import store
from service.errors import LINK_TITLE, Conflict, Gone, TooMany
from service.mail import outbox
from service.people import signin
from service.people.identity import person
from service.store import read_session, write_session
from service.store.db import get_engine
from service.store.inboxes import key as inbox_key
from service.store.models import Game, Person, Player, as_utc

LINK_MAIL_INTERVAL = timedelta(minutes=5)


def masked(email: str) -> str:
    """The address as a page may show it to whoever holds a link: "b***@example.org"."""
    local, _, domain = email.rpartition("@")
    return f"{local[:1]}***@{domain}" if local else f"***@{domain}"


def _pace(last: datetime | None, now: datetime, what: str) -> None:
    if last is None:
        return
    wait = as_utc(last) + LINK_MAIL_INTERVAL - now
    if wait > timedelta(0):
        minutes = max(1, round(wait.total_seconds() / 60))
        raise TooMany(f"We emailed you {what} at {as_utc(last):%H:%M} UTC, a few minutes ago: look for it in "
                      f"your inbox (and the spam folder). You can ask for another in {minutes} minute"
                      f"{'' if minutes == 1 else 's'}.", int(wait.total_seconds()) + 1, "Please wait a little")


def _reachable(who: Person) -> None:
    """A link is mailed only where it can arrive: to an address whose mail bounces, renewing the links
    would end the old ones and send the new ones nowhere."""
    if who.bounced_at is not None:
        raise Conflict("Mail to your address bounces, so a new link could not reach you (and your links "
                       "would end). Press \"Email me again\" on your game page first.", "Your mail bounces")


def games_of(session: Session, email: str) -> list[tuple[Player, Game]]:
    """Every seat of the address, running games first, then the newest."""
    rows = session.execute(
        sa.select(Player, Game).join(Game, col(Game.id) == col(Player.game_id))
        .where(col(Player.address_key) == inbox_key(email)).order_by(col(Game.id).desc())
    ).all()
    return sorted(((player, game) for player, game in rows), key=lambda pair: pair[1].status != "active")


def fresh_link(player_id: int, everywhere: bool, now: datetime) -> str:
    """End every link of the player (`everywhere`: of every seat of their address) and mail the new ones
    to the address; the address."""
    with write_session(get_engine()) as session:
        player = store.get_player(session, player_id)
        who = person(session, player.email, lock=True)  # one request per address at a time: the pacing holds
        _reachable(who)
        _pace(who.fresh_link_sent_at, now, "a fresh link")
        where = col(Player.address_key) == player.address_key if everywhere else col(Player.id) == player.id
        session.execute(sa.update(Player).where(where).values(link_generation=col(Player.link_generation) + 1)
                        .execution_options(synchronize_session=False))
        session.refresh(player)
        who.fresh_link_sent_at = now
        session.add(who)
        game = store.get_game(session, player.game_id)
        rows = outbox.add(session, game, [player], "fresh_link",
                          {"generation": player.link_generation, "all": everywhere})
        ids = outbox.ids(session, rows)
        email = player.email
    outbox.kick(ids)
    return email


def signin_link(player_id: int, now: datetime) -> str:
    """Mail a sign-in link (and code) to the player's address, asked for on one of its game pages ("Sign
    in to see all your games", "Email me a link to manage my account"); the address.  The person's own
    way in, so it reaches even an address that asked never to be emailed (service/people/signin.py)."""
    with write_session(get_engine()) as session:
        player = store.get_player(session, player_id)
        who = person(session, player.email, lock=True)
        _reachable(who)
        # The pacing of the account link it replaced, and its column: one per address per five minutes.
        _pace(who.account_link_sent_at, now, "a sign-in link")
        who.account_link_sent_at = now
        session.add(who)
        ids = signin.open_request(session, player, now)
        email = player.email
    outbox.kick(ids)
    return email


def account_link_alive(session: Session, email: str, issued: int) -> None:
    """Gone (410) when the address asked for a fresh link since the account link was issued (`issued`:
    its request's second): "send me a fresh link" ends every link out there, and this one lists the
    new ones.  A fresh link asked for in the same second as the account link ends it too: the order
    within a second is unknown, and ending one link too many only costs a new request."""
    fresh = store.person_of(session, email).fresh_link_sent_at
    if fresh is not None and issued <= int(as_utc(fresh).timestamp()):
        raise Gone("This account link ended when you asked for a fresh link to your games, as every earlier "
                   "link did. Ask for a new one from the button on any of your game pages.", LINK_TITLE)


def set_never_email(email: str, never: bool, now: datetime) -> bool:
    """Stop (or allow again) every email to the address; whether it changed anything.  Only an address
    that has games has a row to keep it in: the one-click of a stranger's address does nothing."""
    with read_session(get_engine()) as session:
        known = session.execute(sa.select(col(Player.id)).where(col(Player.address_key) == inbox_key(email))
                                .limit(1)).first()
    if known is None:
        return False
    with write_session(get_engine()) as session:
        who = person(session, email, lock=True)
        if (who.never_email_at is not None) == never:
            return False
        who.never_email_at = now if never else None
        session.add(who)
    return True
