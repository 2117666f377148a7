"""Player pages, reached only through the player's signed links.

GETs show; POSTs act.  The move form and the confirm page both end in `handle`, with the seq the page
was made for, so a resubmitted or stale form is "the game moved on" and acts on nothing.

Without JavaScript a turn is composed as the JavaScript composer composes it: the steps chosen so far
travel in the page's address (`?seq=N&move=...&move=...`, each a move's text form or JSON), each GET
replays them through the preview (which writes nothing) to show the board they lead to and the next
choices, and only the one "Confirm turn" POST plays them, all or none, through `handle`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import format_date, get_locale, gettext, ngettext
from jinja2 import Environment, pass_environment
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup, escape

import engine
from service import jsontext, links, paths, store
from service.errors import Conflict, Invalid, StaleState
from service.lang import N_
from service.mail import bounces, outbox
from service.people import access
from service.play import handle, handover
from service.play.batch import MAX_MOVES, MAX_TEXT, Played
from service.play.preview import preview
from service.store import deal, read_session, write_session
from service.store.current import AnyPlayer
from service.store.db import get_engine
from service.store.models import utcnow
from service.views import bounced, followups, history, invitations, positions
from service.views.positions import LegalMove, Position
from service.views.times import local_time
from service.web import language
from service.web.clock import panel
from service.web.errors import said
from service.web.play_api import HIDDEN_NOTE
from service.web.talk_panel import page_talk
from service.web.tokens import current_player, load_player, page_token, player_of, seat_of

bp = Blueprint("play", __name__)


@bp.app_context_processor
def _composer_words() -> dict[str, Any]:
    return {"composer_words_html": composer_words_html}  # (the words themselves: composer_words)


# composer_words by locale: the same words for every page in a language, so made once per language
# (about a tenth of a player page's CPU otherwise).  At most one entry per language the site speaks:
# the locale is one of those (service/web/language.py).
_COMPOSER_WORDS: dict[str, dict[str, Any]] = {}


def composer_words() -> dict[str, Any]:
    """What static/composer.js says, in the page's language (issue #26): the page carries it in the
    composer's `data-words`.  "{step}" and "{reason}" are filled in by the script; a count's words
    come for every count a turn can have (1 to MAX_MOVES), each in its language's plural form."""
    locale = str(get_locale())
    found = _COMPOSER_WORDS.get(locale)
    if found is None:
        found = _COMPOSER_WORDS[locale] = _composer_words_now()
    return found


# composer_words as the composer's `data-words` attribute (`|tojson|forceescape`: ~14 KB of JSON made
# and escaped again for every page with a turn to compose, ~0.1 ms), by locale as the words themselves.
_COMPOSER_HTML: dict[str, Markup] = {}


def composer_words_html() -> Markup:
    """`composer_words()|tojson|forceescape`, as the template wrote it, made once per language."""
    locale = str(get_locale())
    found = _COMPOSER_HTML.get(locale)
    if found is None:
        # the template's own expression, rendered once by the same environment
        written = current_app.jinja_env.from_string("{{ words|tojson|forceescape }}").render(words=composer_words())
        found = _COMPOSER_HTML[locale] = Markup(written)
    return found


@bp.app_template_filter("move_value")
@pass_environment
def move_value(environment: Environment, legal: LegalMove) -> Markup:
    """`legal.move|tojson|forceescape` (a radio button's or a setting's option's value), as Jinja's
    filters make it with the environment's JSON policies, made once a legal move: the page lists ~25
    (~10 µs each through the two filters), and a position shown again, or a composed turn's steps,
    has its values made already."""
    found = legal.value_html
    if found is None:
        policies = environment.policies
        found = legal.value_html = escape(str(htmlsafe_json_dumps(
            legal.move, dumps=policies["json.dumps_function"], **policies["json.dumps_kwargs"])))
    return found


def _composer_words_now() -> dict[str, Any]:
    counts = range(1, MAX_MOVES + 1)
    return {
        "working": gettext("Working out the board after this step…"),
        "preview_failed": gettext("That step could not be previewed."),
        "recording": gettext("Recording your turn…"),
        "recorded": {n: ngettext("Your turn was recorded (%(num)d step).", "Your turn was recorded (%(num)d steps).", n)
                     for n in counts},
        "step_failed": gettext("Step %(step)s could not be played: %(reason)s. Nothing was played; undo back to it "
                               "and choose again.", step="{step}", reason="{reason}"),
        "not_recorded": gettext("Your turn could not be recorded; nothing was played. Try again."),
        "stale": gettext("The game moved on since this page was made, so nothing was played. Here is the current "
                         "position."),
        "offline": gettext("The server could not be reached; nothing was played. Check your connection and try again."),
        "after_confirm": gettext("The next steps are chosen after you confirm"),
        "complete": gettext("Your turn is complete"),
        "complete_hint": gettext("Confirm it below, or undo a step to change it."),
        "choose_one": gettext("%(step)s: choose one", step="{step}"),
        "this_step": gettext("This step"),
        "back": gettext("Back to all steps"),
        "next_step": gettext("Choose your next step"),
        "first_step": gettext("Choose your first step"),
        "predicted": gettext("Board after your steps (not played yet)"),
        "see_last": gettext("Confirm your turn to see what the last step brings."),
        "complete_status": gettext("Your turn is complete: confirm it."),
        "planned": {n: ngettext("%(num)d step planned. Choose the next, or confirm the turn as it is.",
                                "%(num)d steps planned. Choose the next, or confirm the turn as it is.", n)
                    for n in counts},
        "confirm": gettext("Confirm turn"),
        "confirm_n": {n: ngettext("Confirm turn (%(num)d step)", "Confirm turn (%(num)d steps)", n) for n in counts},
        "moved_while_loading": gettext("The game moved on while the page loaded. Here is the current position."),
        # A step's count of choices has no bound, so its words come by CLDR plural category; the script
        # asks the browser's Intl.PluralRules which category a count is in.
        "choices": plural_forms(lambda n: ngettext("%(count)s choice", "%(count)s choices", n, count="{n}")),
    }


def plural_forms(counted: Callable[[int], str]) -> dict[str, str]:
    """A counted phrase in the page's language per CLDR plural category ("one", "few", "many",
    "other"): `counted(n)`, the phrase gettext picks for a count n in it ("{n}" where the count goes)."""
    category = get_locale().plural_form
    forms: dict[str, str] = {}
    for n in range(0, 200):
        if category(n) not in forms:
            forms[category(n)] = counted(n)
    return forms

RECENT_EVENTS = 12
STEP_MAX = 200  # characters of a step's key (a move's text form) in a link
MOVE_MAX = 1000  # characters of one composed step in the address (a text form, or a move as JSON)
STALE_STEPS = N_("The game moved on since you chose these steps, so none of them was played: here are "
               "your choices now.")


class BadSteps(ValueError):
    """A composed turn's address that cannot be read (not a stale one: that is a notice, not an error)."""


@dataclass
class Composed:
    """A turn composed without JavaScript: the steps chosen so far from `seq`, as the preview played
    them (nothing recorded), and the position they lead to."""

    seq: int
    played: list[Played]
    position: Position  # as the player would see it after the steps (before a hidden outcome)
    hidden: int | None  # the step whose outcome is known only once the turn is confirmed
    complete: bool | None  # nothing more is asked after these steps

    @property
    def moves(self) -> list[str]:
        """The steps as text forms, for the next links and the confirm form."""
        return [played.text for played in self.played]


def _steps(args: Any) -> tuple[int, list[dict[str, Any] | str]] | None:
    """The composed steps of a page address (None: nothing composed); BadSteps for an address no page made."""
    raw = args.getlist("move")
    if not raw:
        return None
    try:
        seq = int(args.get("seq", ""))
    except ValueError:
        raise BadSteps(N_("This address names steps of a turn but not the position they start from.")) from None
    if not 0 <= seq < 2**53:
        raise BadSteps(N_("This address names steps of a turn but not the position they start from."))
    if len(raw) > MAX_MOVES:
        raise BadSteps(gettext("A turn has at most %(num)d steps.", num=MAX_MOVES))
    moves = [_step_of(text) for text in raw]
    if any(isinstance(move, str) and len(move) > MAX_TEXT for move in moves):
        raise BadSteps(N_("A step of this address is too long to be a move."))
    return seq, moves


def _step_of(text: str) -> dict[str, Any] | str:
    """One step as the address or the "Confirm turn" form carries it: a radio button's value (the move
    as JSON) or a move's text form; BadSteps for anything else."""
    text = text.strip()
    if not text or len(text) > MOVE_MAX:
        raise BadSteps(N_("A step of this address is empty or too long to be a move."))
    if not text.startswith("{"):
        return text
    try:
        move = jsontext.loads(text)
    except ValueError:
        move = None
    if not isinstance(move, dict):
        raise BadSteps(N_("A step of this address is not a move."))
    return move


def _compose(player: AnyPlayer, seq: int, moves: list[dict[str, Any] | str]) -> Composed:
    """The steps replayed through the preview (writes nothing): StaleState, IllegalMoveAt."""
    found = preview(player.game_id, player.seat, moves, seq, language.current())
    return Composed(seq, found.played, found.position, found.hidden, found.complete)


def _render_page(player: AnyPlayer, status: int = 200, error: str | None = None, step: str | None = None,
                 composed: Composed | None = None, **extra: Any) -> ResponseReturnValue:
    with read_session(get_engine(), keep_rows=True) as session:
        # The game with the rows of it the parts below read again (the clock: the position's and the
        # clock panel's; the talk's opening; the rematch it replays), in one statement, held for the
        # session's life: its `get`s of them are answered without a statement, none found included.
        found = store.game_page(session, player.game_id)
        game = found.game
        # The seats, and their people (the clock's and the talk's time zone, the mail notices' bounces),
        # read once, in one statement, and handed down.
        players, people = store.seats_and_people(session, game.id)
        names = store.seat_names(players)
        position = positions.kept(session, game, player.seat, recent=RECENT_EVENTS, players=players,
                                  language=language.current())
        offer = followups.offer(session, game)
        extra.setdefault("rematch_of", found.rematch)  # the link back to the game it replays
        chart = history.chart(session, game, names, language=language.current()) if position.finished else None
        clock = panel(session, player, people)
        mail_notices = bounced.notices(session, game, players, player, people)
        own_bounce = bounced.own(session, player, people)
        # Who has not accepted an invitation (or declined) tells whether an address has played here:
        # only the creator, who typed the addresses, reads it.
        notes = invitations.notes(session, players) if player.seat == 0 else {}
        # Only here, on the player's own page (the token is theirs): their address and what their mail
        # server said are nobody else's business.
        trouble = outbox.trouble(session, player)
        talk = page_talk(session, player, position.since, players=players, people=people)  # the table's talk and its forms (service/web/talk.py)
        # Seats the others may hand over (issue #25): shown only to those who decide.
        extra.setdefault("handover", [_handover_said(drop) for drop in handover.panel(session, game, players, player)])
        extra.setdefault("handover_me", handover.own_warning(session, game, players, player))
        del found
    # Words made below the request (marked there) in the reader's language.
    mail_notices = [said(line) for line in mail_notices]
    notes = {seat: said(words) for seat, words in notes.items()}
    if own_bounce is not None:
        english = language.current() == "en"  # (English keeps its "05 Nov 2026"; the others CLDR's date)
        own_bounce = own_bounce | {"words": said(str(own_bounce["words"])), "since": own_bounce["since"] if english
                                   else format_date(own_bounce["at"], "medium")}  # type: ignore[arg-type]
    if trouble is not None:
        extra["mail_trouble"] = dataclasses.replace(trouble, words=said(trouble.words))
        # Masked, as every page reached by a link shows an address: links get forwarded.
        extra["mail_trouble_address"] = access.masked(trouble.address)
        extra["mail_trouble_since"] = local_time(trouble.since, clock["time_zone"], language.current())
    if composed is not None and composed.seq != position.seq:
        composed, extra["steps_note"] = None, gettext(STALE_STEPS)  # the game moved on while the page was made
    shown = composed.position if composed is not None else position
    steps = shown.first_steps() if shown.decisions and position.decisions else []
    chosen = next((found for found in steps if found.key == step), None)
    if step is not None and chosen is None:
        extra["step_note"] = gettext("The choice your link named is not open any more (the game moved on, or "
                                      "the link is old): here are your choices now.")
    if composed is not None:
        token = page_token(player)
        extra.update(
            back_url=url_for("play.page", token=token, seq=composed.seq, move=composed.moves[:-1])
            if len(composed.moves) > 1 else url_for("play.page", token=token),
            start_url=url_for("play.page", token=token), hidden_note=gettext(HIDDEN_NOTE),
        )
    return (
        render_template(
            "play/page.html",
            player=player, game=game, players=players, names=names, position=position,
            token=page_token(player), error=error, title=positions.title(game),
            heading=positions.heading(game, players, position.teams, language.current()),
            result_words=positions.result_words(game, position.result, names, player.seat, language.current()),
            clock=clock, chart=chart,
            offer=offer, follow_up_template=followups.template(game, offer) if offer else None,
            chosen=chosen, mail_notices=mail_notices, own_bounce=own_bounce, notes=notes,
            deal=deal.shown(game), composed=composed, shown=shown, talk=talk, **extra,
        ),
        status,
    )


def _stale(player: AnyPlayer) -> ResponseReturnValue:
    """The answer to a link or form made for an earlier position: 409 and the current position."""
    return _render_page(
        player, 409,
        stale="This link is out of date: the game moved on since it was made, so nothing was "
        "played. Here is the current position.",
    )


@bp.get(paths.rule("play.page"))
def page(token: str) -> ResponseReturnValue:
    """The player's page; `?step=<text form>` (a turn email's link) opens it with that first step
    chosen.  A step no longer open is ignored with a short note.  `?seq=N&move=...` (repeated): the
    steps of a turn composed so far without JavaScript, shown played on the board (nothing recorded);
    steps made for a position the game has left are a notice and the choices now."""
    player = load_player(token)
    step = request.args.get("step", "")[:STEP_MAX].strip() or None
    try:
        steps = _steps(request.args)
    except BadSteps as exc:
        return _render_page(player, 400, error=str(exc))
    if steps is None:
        return _render_page(player, step=step)
    seq, moves = steps
    try:
        composed = _compose(player, seq, moves)
    except StaleState:
        return _render_page(player, steps_note=gettext(STALE_STEPS))
    except engine.IllegalMove as exc:
        index = getattr(exc, "index", 0)
        kept = None
        if index:  # the steps before the refused one still stand: the player goes on from them
            try:
                kept = _compose(player, seq, moves[:index])
            except (StaleState, engine.IllegalMove):
                kept = None
        return _render_page(player, 422, composed=kept,
                            error=gettext("Step %(num)d of this turn cannot be played: %(reason)s. Nothing was played.",
                                          num=index + 1, reason=said(exc.reason)))
    return _render_page(player, step=step, composed=composed)


@bp.post("/p/<token>/move")
def move(token: str) -> ResponseReturnValue:
    """A move, or a whole turn (one `move` field per step, from the composed page's "Confirm turn"),
    played all or none through `handle`, from the form's `seq`."""
    player = load_player(token)
    try:
        expected_seq = int(request.form.get("seq", ""))
        moves = [_step_of(raw) for raw in request.form.getlist("move")[:MAX_MOVES + 1]]
    except (TypeError, ValueError):  # BadSteps is a ValueError
        moves = []
    if not moves or len(moves) > MAX_MOVES:
        return _render_page(player, 400, error="Choose one of the moves below, then press the button.")
    turn = request.form.get("turn") == "1"
    return _act(player, moves, expected_seq, token, turn=turn)


def _act(player: AnyPlayer, chosen: dict[str, Any] | list[dict[str, Any] | str], expected_seq: int,
         token: str | None = None, *, turn: bool = False) -> ResponseReturnValue:
    """Play through `handle` (all or none) and go back to the page; `turn`: a composed turn's steps."""
    try:
        handle(player.game_id, player.seat, chosen, expected_seq)
    except StaleState:
        return _stale(player)
    except engine.IllegalMove as exc:
        if turn and isinstance(chosen, list) and len(chosen) > 1:  # which step, of a turn played at once
            index = getattr(exc, "index", 0)
            return _render_page(player, 422, error=gettext("Step %(num)d of your turn is not allowed: %(reason)s. "
                                                                "Nothing was played.", num=index + 1, reason=said(exc.reason)))
        return _render_page(player, 422, error=gettext("That move is not allowed: %(reason)s", reason=said(exc.reason)))
    if turn and isinstance(chosen, list):
        flash(ngettext("Your turn was recorded (%(num)d step).", "Your turn was recorded (%(num)d steps).", len(chosen)))
    else:
        flash(gettext("Your move was recorded."))
    return redirect(url_for("play.page", token=token or page_token(player)), 303)


@bp.route("/m/<token>", methods=["GET", "POST"])
def confirm(token: str) -> ResponseReturnValue:
    """The target of an emailed move link: GET shows what it would do, only the POST does it."""
    link = links.read_move_token(token)
    if request.method == "POST":
        # Straight to the move: `handle` checks the link's seq itself (a stale link is the 409 page),
        # so the position the GET shows is not built for nothing.
        return _act(seat_of(link), link.move, link.seq)
    with read_session(get_engine()) as session:
        player = current_player(session, link)
        game = store.get_game(session, player.game_id)
        current = game.seq == link.seq
        if current:
            players = store.players_of(session, game.id)
            position = positions.build(session, game, player.seat, players=players, language=language.current())
    if not current:
        return _stale(player)
    return render_template(
        "play/confirm.html", player=player, game=game, position=position, label=position.describe_move(link.move),
        names=store.seat_names(players), title=positions.title(game),
        player_url=url_for("play.page", token=page_token(player)),
    )


def _handover_said(drop: handover.SeatPanel) -> handover.SeatPanel:
    """A seat's handover panel with its votes' words in the reader's language (made below, marked)."""
    return dataclasses.replace(
        drop, mine=said(drop.mine) if drop.mine else None, bot=said(drop.bot),
        proposals=[dataclasses.replace(proposal, words=said(proposal.words)) for proposal in drop.proposals])


@bp.post("/p/<token>/handover")
def handover_vote(token: str) -> ResponseReturnValue:
    """The player's vote to hand a seat that missed two deadlines over for good (service/play/handover.py)."""
    player = load_player(token)
    try:
        seat = int(request.form.get("seat", ""))
    except ValueError:
        return _render_page(player, 400, error=gettext("Choose a seat to hand over."))
    try:
        outcome = handover.vote(player.id, player.link_generation, seat, request.form.get("choice", "")[:20],
                                 request.form.get("address", "")[:254], request.form.get("name", "")[:80], utcnow())
    except (Invalid, Conflict) as exc:
        return _render_page(player, 422 if isinstance(exc, Invalid) else 409, error=said(exc.message))
    flash(said(outcome))
    return redirect(url_for("play.page", token=token), 303)


@bp.post("/p/<token>/notifications")
def notifications(token: str) -> ResponseReturnValue:
    wanted = request.form.get("turn_emails") == "on"
    with write_session(get_engine()) as session:
        player = player_of(session, token)
        player.turn_emails = wanted
        session.add(player)
    flash("Turn emails are on for this game." if wanted else "Turn emails are off for this game.")
    return redirect(url_for("play.page", token=token), 303)


@bp.post("/p/<token>/mail-again")
def mail_again(token: str) -> ResponseReturnValue:
    """The player whose address bounced asks us to try email again: the mark goes, in all their games.
    If the address still bounces, the next bounce marks it again (only emails sent from now on count).

    Playing a move through the page does not clear the mark by itself: it proves the player has a link,
    not that their mail works again (they may be playing from an old email, or a bookmark), and
    emailing a dead address just to learn it is dead costs the server's reputation with every bounce.
    The button is on the very page they play on, with the reason."""
    player = load_player(token)
    if bounces.clear(player.email):
        flash(gettext("We will email you again. If your mail still bounces, this page will say so."))
    return redirect(url_for("play.page", token=token), 303)


@bp.route(paths.rule("play.unsubscribe"), methods=["GET", "POST"])
def unsubscribe(token: str) -> ResponseReturnValue:
    link = links.read_unsubscribe_token(token)
    with read_session(get_engine()) as session:
        player = current_player(session, link)
        game = store.get_game(session, player.game_id)
    done = False
    if request.method == "POST":
        with write_session(get_engine()) as session:
            row = store.get_player(session, player.id)
            row.turn_emails = False
            session.add(row)
        done = True
        if request.form.get("List-Unsubscribe") == "One-Click":
            return "Unsubscribed from turn emails for this game.\n", 200, {"Content-Type": "text/plain"}
    return render_template(
        "play/unsubscribe.html", player=player, game=game, done=done, title=positions.title(game),
        player_url=url_for("play.page", token=page_token(player)),
    )
