"""The email kinds: one registry entry per kind of email, so one place (service/mail/compose.py) renders
them all.  An outbox row names its kind and carries the kind's `params`; the entry says:

- `template`   templates/<template>.txt and .html
- `first_line` the email's first line (the plain text starts with it, the HTML part's hidden preheader
               and lead say it): what changed and what is asked, from the rendered context
- `since`      where the "what happened since" lines start (None: no such lines)
- `context`    what the templates need besides the common context (position, links, names...)
- `wanted`     asked again at delivery: is the email still worth sending (a reminder after the player
               moved is not; a turn email to a player who turned them off is not)
- `tag`        its part of the deterministic Message-ID, from the params (the idempotency key)
- `move_links` whether it carries the links to the turn's choices
- `clock`      whether it states the deadline and the timeout policy (timed games)
- `requested`  sent only because the person asked for it on a page (a fresh link, the account link):
               it goes out even to an address that asked never to be emailed, since it is the only
               way back in; every other kind is skipped for such an address (service/mail/outbox.py)
- `subject`    a subject of its own, for an email that is about the person rather than the game
- `reply_to`   whether its Reply-To is the reader's signed reply address (every game email but the
               answers to replies; never on an unsolicited email or one with a thread of its own)
- `auto_submitted` its Auto-Submitted header (RFC 3834); `threading` its own In-Reply-To/References
- `unsolicited` written to an address that has not agreed to our emails (the invitation): it is never
               held, carries its own `subject`, no display name in To, no thread, and no text typed
               by whoever started the game beyond the inviter's name made unlinkable (`unlinkable`)

Every email of a game's thread has one subject, naming the game and its players (compose.subject);
the first line says what the email is.

The kinds: invitation (the one short email to an address that never played: accept or decline;
service/play/consent.py), invite (the thread's root; a seat that starts gets its first turn email as its invitation
instead, params {"invite": true}), turn, reminder, notice (a journal entry told at once: a pause),
timed_out (what the sweep played for a seat whose time ran out), game_over, partner (teammates'
notes: no longer written, see service/play/emails.py; kept so that rows queued before still render),
fresh_link (the player's new page link after "send me a fresh link", or all of the address's),
account_link (the one-hour link to the address's account page: no longer written, kept so that rows
queued before still render; the sign-in link replaced it), both written by service/people/access.py, and
signin (a sign-in link and code: service/people/signin.py), hung on one of the address's seats.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

from service import links, paths, running, store
from service.lang import sentences
from service.names import unlinkable
from service.store import current, signins
from service.store.inboxes import key
from service.store.models import (
    Game,
    GameClock,
    Invitation,
    JournalEntry,
    Outbox,
    Player,
    SigninRequest,
    as_utc,
    utcnow,
)
from service.views import followups, profile
from service.views.email_render import and_list, locale, ngettext
from service.views.email_render import gettext as _
from service.views.positions import title
from service.views.sentences import POLICY_WORDS, journal_sentence, played_words
from service.views.times import local_time

# Journal entries emailed the moment they happen (a notice each, to every player): a pause stops every
# clock and nobody's turn begins until someone plays, so the players hear of it now.  Every other entry
# (a vacation begun or ended, the game resumed) waits for the reader's next turn or game-over email,
# where it is one of the lines of what happened since (service/play/emails.py says the policy).
TOLD_AT_ONCE = frozenset({"paused"})
# Journal entries never shown among what happened since: a reminder is news to nobody else, and a
# forfeit is also the recorded end of the game (a system event with its own line).
NOT_NEWS = frozenset({"reminder", "forfeit"})


def told_at_once(entry_kind: str) -> bool:
    """Whether a journal entry of this kind is emailed at once (a notice), rather than told in the
    reader's next turn or game-over email."""
    return entry_kind in TOLD_AT_ONCE


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


def quoted(context: Context, text: str) -> str:
    """`text`, words still in English whatever the reader's language (an older timed-out row's moves,
    the inbound door's answer kept on its row), as a first line quotes them: noted in the context
    (`game_words`), so the HTML part marks them as English (email_render.marked).  The game's words
    worded for the reader (events, summaries, results: issue #26) are not quoted."""
    if text:
        context.setdefault("game_words", []).append(text)
    return text


def _game_said(context: Context, text: str) -> str:
    """The game's words in a first line: quoted as English only for a game whose engine still words in
    English (`words_english`: no message catalog); else worded in the reader's language."""
    return quoted(context, text) if context.get("words_english") else text


def game_ref(context: Context) -> str:
    """"Riftforce #12": the game's name (a name: never translated) and number."""
    return f"{context['title']} #{context['game'].id}"


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
    first_line: Callable[[Context], str]
    template: str = ""  # default: email/<name>
    since: Callable[[Session, Mail], int | None] = _none
    context: Callable[[Session, Mail], Context] = _nothing
    wanted: Callable[[Session, Mail], bool] = _always
    tag: Callable[[dict[str, Any]], str] | None = None  # default: the kind's name
    move_links: bool = False
    clock: bool = False
    requested: bool = False
    unsolicited: bool = False
    subject: Callable[[Context], str] | None = None  # default: the game's (compose.subject)
    # Whether its Reply-To is the reader's reply address (service/mail/reply_to.py): every email of a
    # game's thread, but an answer to a reply (service/mail/answers.py), so no reply loops through it.
    reply_to: bool = True
    # RFC 3834: "auto-generated" (what the service sends of itself), "auto-replied" (an answer to mail).
    auto_submitted: str = "auto-generated"
    # Threading of its own (In-Reply-To, References), instead of under the thread's root.
    threading: Callable[[Mail], dict[str, str]] | None = None

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


# ---- the clock: the deadline in the reader's time zone, and what happens when it passes -------------


def clock_context(session: Session, mail: Mail) -> Context:
    """{"clock": None} for an untimed game; else the game's time control as a reader sees it: hours a
    turn, what a timeout does, and this seat's deadline (absolute, in the person's time zone), or why
    its clock is stopped (a pause, a vacation), or None when it is not the seat's turn.

    The deadline is the one the row recorded when it was written (a turn email's params "due"); else
    the seat's deadline row, while it is still the deadline of the turn the email is about (the seat
    is to act and no turn of its own began after the email's position; a reminder is always about the
    deadline running now)."""
    clock = session.get(GameClock, mail.game.id)
    if clock is None or clock.deadline_hours is None:
        return {"clock": None}
    person = store.person_of(session, mail.player.email)
    due: datetime | None = None
    stopped = None
    if mail.params.get("due"):
        due = as_utc(datetime.fromisoformat(mail.params["due"]))
    elif mail.row.kind == "reminder" or _same_turn(session, mail):
        # (the seat's deadline row with the clock's, one statement on the DB-API cursor)
        seat = current.seat_clock(session.connection(), mail.game.id, mail.player.seat)
        due = as_utc(seat.due_at) if seat is not None and seat.due_at is not None else None
        if seat is not None and seat.deadline and due is None:
            stopped = "paused" if clock.paused_at is not None else "vacation"
    return {"clock": {
        "hours": clock.deadline_hours,
        "policy": clock.policy,
        "policy_words": _(POLICY_WORDS[clock.policy]) if clock.policy in POLICY_WORDS else "",
        "due": due,
        "due_local": local_time(due, person.time_zone, locale()) if due else None,
        "time_zone": person.time_zone,
        "stopped": stopped,  # why no deadline runs: "paused", "vacation" (the templates word it)
        "stopped_words": stopped_words(stopped),
    }}


def stopped_words(stopped: str | None) -> str:
    """Why a seat's clock is stopped, in a sentence ("" when it runs)."""
    if stopped == "paused":
        return _("No deadline runs while the game is paused.")
    if stopped == "vacation":
        return _("No deadline runs while you are on vacation.")
    return ""


def _same_turn(session: Session, mail: Mail) -> bool:
    seat, game = mail.player.seat, mail.game
    if seat not in game.to_act:
        return False
    latest = store.turn_starts(session, game.id, seat, game.seq, limit=1)
    return not latest or latest[0] <= mail.row.seq


def due_sentence(context: Context, due: str, undated: str) -> str:
    """`due` (a sentence with "%(time)s": "Your turn, due %(time)s.") with the deadline in a timed game,
    as the email's clock paragraph says it (one form of a time throughout an email); else `undated`,
    and why no deadline runs if the clock is stopped.  Both already translated."""
    clock = context.get("clock") or {}
    if clock.get("due_local"):
        return due % {"time": clock["due_local"]}
    return sentences((undated, clock.get("stopped_words") or ""), locale())


# ---- turn emails: what happened since, and what is asked -------------------------------------------


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


def _asked(context: Context) -> str:
    """What the email asks: a turn, or a decision inside someone else's turn (a defense, a discard)."""
    if context["params"].get("asked"):
        return due_sentence(context, _("You have a decision to make, due %(time)s."), _("You have a decision to make."))
    return due_sentence(context, _("Your turn, due %(time)s."), _("Your turn."))


def _with(summary: str, sentence: str) -> str:
    return sentences((summary, sentence), locale())


def _turn_line(context: Context) -> str:
    if context["params"].get("invite"):
        return sentences((context["invited"], _asked(context)), locale())
    return _with(_game_said(context, context["summary"]), _asked(context))


def _turn_wanted(session: Session, mail: Mail) -> bool:
    """Not to a player who turned turn emails off; an invitation always (it is the thread's root)."""
    return bool(mail.params.get("invite")) or mail.player.turn_emails


def _invited_words(mail: Mail, title: str) -> str:
    """"Ana invited you to a game of Riftforce with Bo and Cy." (the creator, seat 0, invited the
    others) or "Your game of Riftforce with Bo has begun." (to the creator); to everyone of an open
    game of the lobby, filled (params `lobby`), "... has begun: every seat is taken."."""
    others = [mail.names[p.seat] for p in mail.players if p.id != mail.player.id]
    creator = next((p for p in mail.players if p.seat == 0), None)
    if mail.params.get("lobby"):  # an open game filled (service/play/lobby.py): nobody invited anyone
        if others:
            return _("Your game of %(game)s with %(names)s has begun: every seat is taken.", game=title,
                     names=and_list(others))
        return _("Your game of %(game)s has begun: every seat is taken.", game=title)
    if creator is None or creator.id == mail.player.id:
        if others:
            return _("Your game of %(game)s with %(names)s has begun.", game=title, names=and_list(others))
        return _("Your game of %(game)s has begun.", game=title)
    rest = [mail.names[p.seat] for p in mail.players if p.id not in (mail.player.id, creator.id)]
    if rest:
        return _("%(creator)s invited you to a game of %(game)s with %(names)s.", creator=mail.names[creator.seat],
                 game=title, names=and_list(rest))
    return _("%(creator)s invited you to a game of %(game)s.", creator=mail.names[creator.seat], game=title)


def _invite_context(session: Session, mail: Mail) -> Context:
    return {"invited": _invited_words(mail, title(mail.game))}


def _invite_line(context: Context) -> str:
    starters = [context["names"][seat] for seat in context["position"].to_act if seat in context["names"]]
    if starters:
        starts = ngettext("%(names)s starts; we will email you when it is your turn.",
                          "%(names)s start; we will email you when it is your turn.", len(starters),
                          names=and_list(starters))
    else:
        starts = _("We will email you when it is your turn.")
    return sentences((context["invited"], starts), locale())


# ---- the end ---------------------------------------------------------------------------------------


def _game_over(session: Session, mail: Mail) -> Context:
    offer = followups.offer(session, mail.game)
    return {"offer": offer, "follow_up_template": followups.template(mail.game, offer) if offer else None}


def _game_over_line(context: Context) -> str:
    if context["result_words"]:
        return _("Game over: %(result)s", result=context["result_words"])
    return _("Game over: the game has ended.")


# ---- reminders, notices, timeouts ----------------------------------------------------------------------


def _reminder(session: Session, mail: Mail) -> Context:
    return {"reminder_hours": int(mail.params["hours"])}


def _reminder_line(context: Context) -> str:
    clock = context.get("clock") or {}
    if clock.get("due_local"):
        return ngettext("Reminder: your turn in %(game)s is due %(time)s (in about %(num)d hour).",
                        "Reminder: your turn in %(game)s is due %(time)s (in about %(num)d hours).",
                        context["reminder_hours"], game=game_ref(context), time=clock["due_local"])
    return _("Reminder: it is your turn in %(game)s.", game=game_ref(context))


def _reminder_wanted(session: Session, mail: Mail) -> bool:
    """Never after the player moved (or the game ended), nor to someone who stopped turn emails.  The
    game was read just now, for this delivery (compose.mail_of)."""
    game, player = mail.game, mail.player
    if not player.turn_emails or game.status != "active" or player.seat not in game.to_act:
        return False
    return store.last_own_seq(session, game.id, player.seat, game.seq + 1) <= mail.row.seq


def _notice(session: Session, mail: Mail) -> Context:
    entry = session.get(JournalEntry, int(mail.params["entry"]))
    return {"notice": journal_sentence(entry, mail.names, mail.player.seat, locale()) if entry is not None else ""}


def _timed_out_since(session: Session, mail: Mail) -> int:
    return int(mail.params["from"])


def _timed_out_line(context: Context) -> str:
    position = context["position"]
    # The moves played for the seat: stored as facts (sentences.move_fact), worded for this reader.
    items = context["params"].get("played") or []
    played = "; ".join(played_words(item, position.game.name, context["names"], position.seat, position.language)
                       for item in items)
    if any(not isinstance(item, dict) for item in items):
        played = quoted(context, played)  # an older row's English words, kept as they were
    what = (_("Time ran out on your turn, so the game chose for you: %(moves)s.", moves=played)
            if played else _("Time ran out on your turn, so the game chose for you."))
    if position.finished:
        after = _("The game is over: %(result)s", result=context["result_words"])
    elif position.my_turn:
        after = due_sentence(context, _("It is your turn again, due %(time)s."), _("It is your turn again."))
    else:
        waiting = [context["names"].get(seat, _("another player")) for seat in position.to_act]
        after = (_("Now it is %(names)s's turn; we will email you when it is yours.", names=and_list(waiting))
                 if waiting else _("We will email you when it is your turn."))
    return sentences((what, after), locale())


def _partner(session: Session, mail: Mail) -> Context:
    return {"actor": store.actor_at(session, mail.game.id, mail.row.seq)}


def _partner_since(session: Session, mail: Mail) -> int:
    """The partner's whole turn (its follow-up decisions included) and nothing earlier."""
    return store.run_start(session, mail.game.id, mail.row.seq, store.actor_at(session, mail.game.id, mail.row.seq))


def _partner_line(context: Context) -> str:
    actor = context["actor"]
    said = (_("Your partner %(name)s has played; we will email you when it is your turn.",
              name=context["names"][actor]) if actor is not None and actor in context["names"]
            else _("Your partner has played; we will email you when it is your turn."))
    return _with(_game_said(context, context["summary"]), said)


# ---- links the person asked for on a page: a fresh player link, the account link --------------------


def _fresh_link(session: Session, mail: Mail) -> Context:
    """The new page link(s), made from the current generations when the email is rendered: a link in
    this email is never already stale, even if another reset came in between."""
    if not mail.params.get("all"):
        return {"fresh_games": []}
    seats = session.execute(
        sa.select(Player, Game).join(Game, col(Game.id) == col(Player.game_id))
        .where(col(Player.address_key) == mail.player.address_key).order_by(col(Game.id).desc())
    ).all()
    return {"fresh_games": [
        (f"{title(game)} #{game.id}", game.status == "active",
         paths.url("play.page", token=links.player_token(player.id, player.row_key, player.link_generation)))
        for player, game in sorted(seats, key=lambda pair: pair[1].status != "active")]}


def _fresh_line(context: Context) -> str:
    if context["params"].get("all"):
        return _("Here are fresh links to all your games, as you asked: the links of every earlier email "
                 "no longer work.")
    return _("Here is a fresh link to %(game)s, as you asked: the links of earlier emails for this game no "
             "longer work.", game=game_ref(context))


def _account_alive(session: Session, mail: Mail) -> bool:
    """Only while its link still works: after a mail outage longer than its hour, the email would bring
    a dead link (the person asks again, and the pacing lets them: it counts from the request)."""
    issued = datetime.fromtimestamp(int(mail.params["issued_ms"]) / 1000, UTC)
    return utcnow() < issued + timedelta(seconds=running.config()["ACCOUNT_LINK_MAX_AGE"])


def _account(session: Session, mail: Mail) -> Context:
    issued = int(mail.params["issued_ms"]) // 1000
    expires = datetime.fromtimestamp(issued, UTC) + timedelta(seconds=running.config()["ACCOUNT_LINK_MAX_AGE"])
    person = store.person_of(session, mail.player.email)
    return {"account_url": paths.url("account.page", token=links.account_token(mail.player.email, issued)),
            "account_expires": local_time(expires, person.time_zone, locale())}


def _account_line(context: Context) -> str:
    return _("Here is the link to manage your Riftpost account (vacations, emails) that you asked for; it "
             "works until %(time)s.", time=context["account_expires"])


# ---- a sign-in link and code (service/people/signin.py) ------------------------------------------------


def _signin_request(session: Session, mail: Mail) -> SigninRequest | None:
    return session.get(SigninRequest, int(mail.params["request"]))


def _signin_alive(session: Session, mail: Mail) -> bool:
    """Only while it still signs in: not after its 15 minutes (a mail outage), nor once used or replaced."""
    request = _signin_request(session, mail)
    return request is not None and signins.dead(session, request, utcnow()) is None


def _signin(session: Session, mail: Mail) -> Context:
    request = _signin_request(session, mail)
    assert request is not None  # `wanted` saw it
    code = links.signin_code(request.nonce)
    person = store.person_of(session, mail.player.email)
    return {"signin_url": paths.url("signin.link", token=links.signin_token(request.id, request.nonce)),
            "signin_code": f"{code[:3]} {code[3:]}",
            "signin_expires": local_time(signins.expires(request), person.time_zone, locale())}


def _signin_line(context: Context) -> str:
    return _("Your Riftpost sign-in code is %(code)s, or open the link below. It works once, until %(time)s.",
             code=context["signin_code"], time=context["signin_expires"])


# ---- the invitation: the only email an address that has not consented ever gets ----------------------

def _invitation(session: Session, mail: Mail) -> Context:
    creator = next((p for p in mail.players if p.seat == 0), mail.player)
    invitation = session.get(Invitation, int(mail.params["invitation"]))  # its key (no query after `wanted`)
    assert invitation is not None
    token = links.invitation_token(invitation.id, invitation.row_key)
    self_invited = creator.id == mail.player.id
    return {
        "inviter": unlinkable(creator.name),
        "self_invited": self_invited,
        # Who asks, in one line of their record here (service/views/profile.py; never their address).
        "about": (None if self_invited
                  else profile.profile(session, creator.address_key).line(unlinkable(creator.name), locale())),
        "accept_url": paths.url("invitations.page", token=token),
        # The one-click decline: also the email's List-Unsubscribe target.
        "decline_url": paths.url("invitations.decline", token=token),
        "decline_page_url": paths.url("invitations.page", token=token, answer="decline"),
    }


def _invitation_wanted(session: Session, mail: Mail) -> bool:
    """Only while the address has not answered: one that accepted (another inviter's, say) or declined
    in the meantime needs no invitation."""
    invitation = session.get(Invitation, int(mail.params["invitation"]))
    return mail.player.consent == "asked" and invitation is not None and invitation.status == "asked"


def _invitation_line(context: Context) -> str:
    if context["self_invited"]:
        return _("Someone started a game of %(game)s on Riftpost with this address as its first player, "
                 "%(name)s. Was it you?", game=context["title"], name=context["inviter"])
    return _("%(name)s invited you to play %(game)s by email on Riftpost.", name=context["inviter"],
             game=context["title"])


def _invitation_subject(context: Context) -> str:
    if context["self_invited"]:
        return _("Did you start a game of %(game)s on Riftpost?", game=context["title"])
    return _("%(name)s invited you to play %(game)s", name=context["inviter"], game=context["title"])


# ---- a seat handed over for good (service/play/handover.py) -------------------------------------------
# Their rows carry `to` in their params: the reader, who is not (or no longer) the seat's row's holder.


def addressed(player: Any, to: dict[str, Any]) -> Player:
    """The seat as an email addressed by its `to` params sees it (service/mail/compose.py `mail_of`): the
    seat's old holder after a handover, or the person invited to take it before they accept.  A row of
    no session, never written."""
    return Player(id=player.id, game_id=player.game_id, seat=player.seat, name=to["name"], email=to["email"],
                  address_key=key(to["email"]), turn_emails=True, link_generation=int(to.get("generation", 0)),
                  consent=to["consent"], row_key=to["row_key"])


def _seat_invitation(session: Session, mail: Mail) -> Context:
    invitation = session.get(Invitation, int(mail.params["invitation"]))
    assert invitation is not None
    token = links.invitation_token(invitation.id, invitation.row_key)
    inviter = next((p for p in mail.players if p.address_key == invitation.inviter), None)
    name = unlinkable(inviter.name) if inviter is not None else _("A player")
    return {
        "inviter": name, "self_invited": False, "seat_players": len(mail.players),
        "about": profile.profile(session, invitation.inviter).line(name, locale()),
        "accept_url": paths.url("invitations.page", token=token),
        "decline_url": paths.url("invitations.decline", token=token),
        "decline_page_url": paths.url("invitations.page", token=token, answer="decline"),
    }


def _seat_invitation_wanted(session: Session, mail: Mail) -> bool:
    invitation = session.get(Invitation, int(mail.params["invitation"]))
    return invitation is not None and invitation.status == "asked" and mail.game.status == "active"


def _seat_invitation_line(context: Context) -> str:
    return _("%(name)s and the other players of a game of %(game)s on Riftpost invite you to take over a seat "
             "whose player stopped playing.", name=context["inviter"], game=context["title"])


def _seat_handed_over_line(context: Context) -> str:
    if context["params"].get("by") == "bot":
        return _("You missed two deadlines in %(game)s, so the other players handed your seat to a bot. The game "
                 "goes on without you; your links to it no longer work.", game=game_ref(context))
    return _("You missed two deadlines in %(game)s, so the other players handed your seat to another player. The "
             "game goes on without you; your links to it no longer work.", game=game_ref(context))


def _seat_taken_line(context: Context) -> str:
    mine = context["player"].seat in context["position"].to_act
    return (_("You took over a seat of this game: it is your turn.") if mine
            else _("You took over a seat of this game: we will email you when it is your turn."))


register(Kind("seat_invitation", _seat_invitation_line, context=_seat_invitation, wanted=_seat_invitation_wanted,
              unsolicited=True,
              subject=lambda c: _("%(name)s invites you to take a seat in %(game)s", name=c["inviter"], game=c["title"]),
              tag=lambda p: f"invitation{p['invitation']}"))
# Not governed by the notification modes (notify_policy.GOVERNED): it is not about a turn.
register(Kind("seat_handed_over", _seat_handed_over_line, tag=lambda p: "handed-over",
              subject=lambda c: _("Your seat in %(game)s was handed over", game=game_ref(c))))
register(Kind("seat_taken", _seat_taken_line, tag=lambda p: "invite", clock=True, move_links=True))
register(Kind("invitation", _invitation_line, context=_invitation, wanted=_invitation_wanted, unsolicited=True,
              subject=_invitation_subject,
              tag=lambda p: f"invitation{p['invitation']}"))
register(Kind("invite", _invite_line, context=_invite_context, clock=True))
register(Kind("turn", _turn_line, since=_turn_since, context=_invite_context, wanted=_turn_wanted,
              tag=lambda p: "invite" if p.get("invite") else "turn", move_links=True, clock=True))
register(Kind("reminder", _reminder_line, context=_reminder, wanted=_reminder_wanted,
              tag=lambda p: f"reminder-{p['hours']}h", move_links=True, clock=True))
register(Kind("notice", lambda c: c["notice"], context=_notice, tag=lambda p: f"n{p['entry']}"))
register(Kind("timed_out", _timed_out_line, since=_timed_out_since, wanted=_turn_emails_on,
              tag=lambda p: f"timeout-{p['from']}", clock=True))
register(Kind("game_over", _game_over_line, since=_turn_since, context=_game_over))
register(Kind("partner", _partner_line, since=_partner_since, context=_partner, wanted=_turn_emails_on))
register(Kind("fresh_link", _fresh_line, context=_fresh_link, requested=True,
              tag=lambda p: f"fresh{'-all' if p.get('all') else ''}-{p['generation']}",
              subject=lambda c: _("Fresh links to your Riftpost games") if c["params"].get("all") else c["subject"]))
register(Kind("signin", _signin_line, context=_signin, requested=True, wanted=_signin_alive,
              tag=lambda p: f"signin-{p['request']}-{p['issued_ms']}", subject=lambda c: _("Sign in to Riftpost")))
register(Kind("account_link", _account_line, context=_account, requested=True, wanted=_account_alive,
              tag=lambda p: f"account-{p['issued_ms']}", subject=lambda c: _("Your Riftpost account link")))
