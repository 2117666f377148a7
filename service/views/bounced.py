"""Bounced addresses in words: why mail to a person stopped (from the RFC 3463 code that decided it),
and what the other players of a game are told.  Never the address itself: addresses are private (no
page shows one), so a player is named as the game names them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from sqlmodel import Session, col, select

from service.lang import N_, Nf_, Words
from service.names import player_name
from service.store.current import AnyPlayer
from service.store.inboxes import key as inbox_key
from service.store.models import Game, Person, Player

# The codes a bounce is marked for (service/mail/dsn.py), said for a player; by class and subject after.
WORDS = {
    "5.1.1": N_("the address does not exist"),
    "5.1.2": N_("its mail domain does not exist"),
    "5.1.3": N_("the address is not valid"),
    "5.1.6": N_("the mailbox has moved"),
    "5.1.10": N_("its mail domain accepts no mail"),
    "5.2.1": N_("the mailbox is disabled"),
    "5.4.1": N_("its mail server does not accept the address"),
    "5.4.4": N_("its mail domain cannot be reached"),
}
SUBJECT_WORDS = {
    "2": N_("the mailbox is full or over its limit"),
    "3": N_("its mail server refuses our emails"),
    "7": N_("its mail server refuses our emails"),
}


def words(status: str | None) -> str:
    """Why mail to the address stopped, in plain words ("the address does not exist")."""
    status = status or ""
    if status in WORDS:
        return WORDS[status]
    if status[:2] in ("4.", "5.") and status[2:3] in SUBJECT_WORDS:
        return SUBJECT_WORDS[status[2:3]]
    if status.startswith("4."):
        return N_("delivery has failed for days")
    return N_("it cannot be delivered")


def undeliverable(session: Session, emails: list[str], people: Mapping[str, Person] | None = None) -> dict[str, Person]:
    """The people among `emails` whose address (any spelling: service/store/inboxes.py) is marked
    undeliverable, by address as given.  `people`: the stored people of these addresses by inbox key,
    read already (a page reads its game's people once); else they are read here."""
    if not emails:
        return {}
    keys = {inbox_key(email): email for email in emails}
    if people is not None:
        found: Iterable[Person] = [person for k in keys if (person := people.get(k)) is not None
                                   and person.bounced_at is not None]
    else:
        found = session.exec(select(Person).where(col(Person.email).in_(list(keys)), col(Person.bounced_at).is_not(None)))
    by_key = {person.email: person for person in found}
    return {email: by_key[k] for email in emails if (k := inbox_key(email)) in by_key}


def notices(session: Session, game: Game, players: list[Player], reader: AnyPlayer,
            people: Mapping[str, Person] | None = None) -> list[str]:
    """What `reader` is told about the other players of an active game whose mail bounces (marked
    `Words`: the page says them in its reader's language); `people` as for `undeliverable`."""
    if game.status != "active":
        return []
    others = [p for p in players if p.address_key != reader.address_key]
    dead = undeliverable(session, sorted({p.email for p in others}), people)
    lines: list[str] = []
    for player in others:
        person = dead.get(player.email)
        if person is None:
            continue
        name, why = player_name(player.name, player.seat), Words(words(person.bounce_status))
        lines.append(Nf_("Mail to %(name)s bounces (%(why)s); they may not know it is their turn.", name=name, why=why)
                     if player.seat in game.to_act else
                     Nf_("Mail to %(name)s bounces (%(why)s); they will not hear from us when it is their turn.",
                         name=name, why=why))
    return lines


def own(session: Session, reader: AnyPlayer, people: Mapping[str, Person] | None = None) -> dict[str, object] | None:
    """What a player whose own address bounces is told on their page: when (`since` in English, `at`)
    and why (marked: the page words it), or None; `people` as for `undeliverable`."""
    person = undeliverable(session, [reader.email], people).get(reader.email)
    if person is None:
        return None
    assert person.bounced_at is not None
    since: datetime = person.bounced_at
    return {"since": f"{since:%d %b %Y}", "at": since, "words": words(person.bounce_status)}
