"""The email kinds: one registry entry per kind of email, so one place (service/mail/compose.py) renders
them all.  An outbox row names its kind and carries the kind's `params`; the entry says:

- `template`   templates/<template>.txt and .html
- `subject`    the subject line, from the rendered context
- `since`      where the "what happened since" lines start (None: no such lines)
- `context`    what the templates need besides the common context (position, links, names...)
- `wanted`     asked again at delivery: is the email still worth sending (a reminder after the player
               moved is not; a turn email to a player who turned them off is not)
- `tag`        its part of the deterministic Message-ID, from the params (the idempotency key)
- `move_links` whether it carries the turn's one-click links

The kinds: invite (the thread's root), turn, partner (teammates), game_over, reminder and notice (a
journal entry told to the players: a vacation, a pause).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

from service import store
from service.games import adapter
from service.store.models import Deadline, Game, GameClock, JournalEntry, Outbox, Player, as_utc
from service.views import followups
from service.views.sentences import POLICY_WORDS, journal_sentence
from service.views.times import local_time


@dataclass
class Mail:
    """An outbox row with what every kind reads: its game, its player, everyone's names."""

    row: Outbox
    game: Game
    player: Player
    players: list[Player]
    names: dict[int, str]

    @property
    def params(self) -> dict[str, Any]:
        return self.row.params or {}


Context = dict[str, Any]


def _none(session: Session, mail: Mail) -> int | None:
    return None


def _nothing(session: Session, mail: Mail) -> Context:
    return {}


def _always(session: Session, mail: Mail) -> bool:
    return True


def _turn_emails_on(session: Session, mail: Mail) -> bool:
    return mail.player.turn_emails


@dataclass(frozen=True)
class Kind:
    name: str
    subject: Callable[[Context], str]
    template: str = ""  # default: email/<name>
    since: Callable[[Session, Mail], int | None] = _none
    context: Callable[[Session, Mail], Context] = _nothing
    wanted: Callable[[Session, Mail], bool] = _always
    tag: Callable[[dict[str, Any]], str] | None = None  # default: the kind's name
    move_links: bool = False

    @property
    def template_name(self) -> str:
        return self.template or f"email/{self.name}"

    def tag_of(self, params: dict[str, Any]) -> str:
        return self.tag(params) if self.tag is not None else self.name


KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    KINDS[kind.name] = kind
    return kind


def get(name: str) -> Kind:
    return KINDS[name]


# ---- turn and partner emails: what happened since ------------------------------------------------


def _turn_since(session: Session, mail: Mail) -> int:
    """From the player's last own move.  When that move itself began this turn (an automatic opponent
    or the game's automatic phases played inside it), the email tells the player's own decisions and
    what answered them: from the start of the player's previous turn, or of their unbroken run of
    decisions if that began later (a simultaneous phase, where other seats acted in that turn too)."""
    game, seat, seq = mail.game, mail.player.seat, mail.row.seq
    since = store.last_own_seq(session, game.id, seat, seq + 1)
    if since >= seq:
        starts = store.turn_starts(session, game.id, seat, seq)
        previous = starts[1] if len(starts) > 1 else 0
        since = max(previous, store.run_start(session, game.id, seq, seat))
    return since


def _partner_since(session: Session, mail: Mail) -> int:
    """The partner's whole turn (its follow-up decisions included) and nothing earlier."""
    return store.run_start(session, mail.game.id, mail.row.seq, store.actor_at(session, mail.game.id, mail.row.seq))


def _partner(session: Session, mail: Mail) -> Context:
    return {"actor": store.actor_at(session, mail.game.id, mail.row.seq)}


def _partner_subject(context: Context) -> str:
    actor = context["actor"]
    partner = context["names"].get(actor, "Your partner") if actor is not None else "Your partner"
    return f"{context['prefix']} Your partner {partner} has played"


# ---- the end ---------------------------------------------------------------------------------------


def _game_over(session: Session, mail: Mail) -> Context:
    offer = followups.offer(session, mail.game)
    return {"offer": offer, "follow_up_template": adapter(mail.game.name).follow_up_template if offer else None}


# ---- reminders and notices -------------------------------------------------------------------------


def _reminder(session: Session, mail: Mail) -> Context:
    """The deadline in the player's time zone and what happens when it passes."""
    deadline = session.execute(
        sa.select(Deadline).where(col(Deadline.game_id) == mail.game.id, col(Deadline.seat) == mail.player.seat)
    ).scalar_one_or_none()
    person = store.person_of(session, mail.player.email)
    due = as_utc(deadline.due_at) if deadline is not None and deadline.due_at is not None else None
    clock = session.get(GameClock, mail.game.id)
    return {
        "reminder_hours": int(mail.params["hours"]),
        "deadline_local": local_time(due, person.time_zone) if due else None,
        "time_zone": person.time_zone,
        "policy_words": POLICY_WORDS.get(clock.policy if clock is not None else "auto", ""),
    }


def _reminder_wanted(session: Session, mail: Mail) -> bool:
    """Never after the player moved (or the game ended), nor to someone who stopped turn emails.  The
    game was read just now, for this delivery (compose.mail_of)."""
    game, player = mail.game, mail.player
    if not player.turn_emails or game.status != "active" or player.seat not in game.to_act:
        return False
    return store.last_own_seq(session, game.id, player.seat, game.seq + 1) <= mail.row.seq


def _notice(session: Session, mail: Mail) -> Context:
    entry = session.get(JournalEntry, int(mail.params["entry"]))
    return {"notice": journal_sentence(entry, mail.names) if entry is not None else ""}


def _prefixed(words: Callable[[Context], str]) -> Callable[[Context], str]:
    return lambda context: f"{context['prefix']} {words(context)}"


register(Kind("invite", _prefixed(lambda c: f"You are invited to a game of {c['title']}")))
register(Kind("turn", _prefixed(lambda c: "Your turn"), since=_turn_since, wanted=_turn_emails_on,
              move_links=True))
register(Kind("partner", _partner_subject, since=_partner_since, context=_partner, wanted=_turn_emails_on))
register(Kind("game_over", _prefixed(lambda c: f"Game over: {c['result_words']}"), context=_game_over))
register(Kind("reminder", _prefixed(lambda c: f"Reminder: your move is due by {c['deadline_local'] or 'soon'}"),
              context=_reminder, wanted=_reminder_wanted, tag=lambda p: f"reminder-{p['hours']}h",
              move_links=True))
register(Kind("notice", _prefixed(lambda c: c["notice"]), context=_notice, tag=lambda p: f"n{p['entry']}"))

