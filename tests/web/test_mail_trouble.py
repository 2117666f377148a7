"""A player whose emails do not get through is told so on their own page, and nowhere else."""

from __future__ import annotations

import html
from datetime import timedelta

import sqlalchemy as sa
from sqlmodel import select

from service import links
from service.mail import outbox
from service.play import new_game
from service.store import get_engine, read_session, write_session
from service.store.models import Outbox, Player, as_utc, utcnow
from service.views.times import local_time
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import outbox_rows
from tests.smtp import RefusingSink
from tests.web.pages import text

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
DOWN = "smtp://127.0.0.1:1"  # nothing listens there


def players(game_id):
    with read_session(get_engine()) as session:
        return list(session.exec(select(Player).where(Player.game_id == game_id).order_by(Player.seat)))


def set_row(row_id: int, **values) -> None:
    with write_session(get_engine()) as session:
        session.execute(sa.update(Outbox).where(Outbox.id == row_id).values(**values))


def notice(page: str) -> str | None:
    """The page's "we could not reach you" paragraph, as plain text."""
    start = page.find('id="mail-trouble">')
    if start < 0:
        return None
    body = page[start + len('id="mail-trouble">'):page.index("</p>", start)]
    return " ".join(html.unescape(body).split())


def urls(game_id: int, player: Player) -> list[str]:
    """Every page and JSON view another player or a spectator can open about the game."""
    token = links.player_token(player.id, player.row_key)
    return [f"/p/{token}", f"/api/play/{token}", f"/games/{game_id}", f"/api/games/{game_id}"]


def test_a_refused_address_is_shown_on_that_players_own_page_only(backend_app, tmp_path):
    client = backend_app.test_client()
    refusing = RefusingSink(tmp_path / "refusing", refused={"bob@example.org"})
    try:
        backend_app.config["SMTP_URL"] = refusing.url
        preconsent("ann@example.org")  # a confirmed creator: Bob's invitation goes at once
        game_id = new_game(toygame.NAME, PLAYERS, seed=4)
        ann, bob = players(game_id)
        before = notice(text(client.get(f"/p/{links.player_token(bob.id, bob.row_key)}")))
        assert before is None  # queued, not yet tried: nothing to say
        for row in outbox_rows(game_id):
            outbox.deliver(row.id)
    finally:
        refusing.stop()
    failed = [row for row in outbox_rows(game_id) if row.status == "failed"]
    assert [row.player_id for row in failed] == [bob.id]
    statuses = [(row.id, row.status, row.attempts) for row in outbox_rows(game_id)]

    page = text(client.get(f"/p/{links.player_token(bob.id, bob.row_key)}"))
    since = local_time(as_utc(failed[0].created_at), None)
    assert notice(page) == (
        f"We could not reach you at b***@example.org since {since}: the mail server refused your address. "
        "We stopped trying; the people who run this site can see it. Until your emails arrive again, "
        "this page is where to follow the game: it always shows it as it stands.")
    assert 'role="alert" id="mail-trouble"' in page
    # Nobody else sees Bob's address or his trouble: not Ann (whose mail got through), not a spectator,
    # not in any JSON view.
    for url in urls(game_id, ann):
        shown = text(client.get(url))
        assert "bob@example.org" not in shown and "could not reach" not in shown, url
    assert "bob@example.org" not in text(client.get(f"/api/games/{game_id}"))
    # Showing it changed nothing.
    assert [(row.id, row.status, row.attempts) for row in outbox_rows(game_id)] == statuses


def test_the_page_tells_of_retries_after_an_hour_and_forgets_them_once_mail_gets_through(backend_app, sink):
    client = backend_app.test_client()
    backend_app.config["SMTP_URL"] = DOWN
    preconsent("ann@example.org")  # a confirmed creator: Bob's invitation goes at once
    game_id = new_game(toygame.NAME, PLAYERS, seed=4)
    ann, bob = players(game_id)
    invite = [row for row in outbox_rows(game_id) if row.player_id == bob.id][0]
    assert outbox.deliver(invite.id) == "retrying"
    bob_url = f"/p/{links.player_token(bob.id, bob.row_key)}"
    assert notice(text(client.get(bob_url))) is None  # a few minutes of retries: not worth a word

    queued = utcnow() - timedelta(hours=2)
    set_row(invite.id, created_at=queued)
    words = notice(text(client.get(bob_url)))
    assert words == (
        f"We could not reach you at b***@example.org since {local_time(queued, None)}: our mail server could "
        "not be reached. We keep trying. Until your emails arrive again, this page is where to follow the "
        "game: it always shows it as it stands.")
    # In the zone Bob chose.

    from service.people import identity

    identity.set_time_zone("bob@example.org", "Asia/Tokyo", utcnow())
    assert local_time(queued, "Asia/Tokyo") in notice(text(client.get(bob_url)))

    backend_app.config["SMTP_URL"] = sink.url
    set_row(invite.id, next_attempt_at=utcnow())
    assert outbox.deliver(invite.id) == "sent"
    assert notice(text(client.get(bob_url))) is None


def test_plain_words_never_repeat_the_servers_own_text():
    assert outbox.plain_words("SMTPRecipientsRefused: {'x@y': (550, b'5.1.1 unknown')}") == (
        "the mail server refused your address")
    assert outbox.plain_words("SMTPDataError: (554, b'5.7.1 spam')") == "the mail server refused the email"
    assert outbox.plain_words("SMTPDataError: (451, b'4.3.0 later')") == "the mail server asked us to try again later"
    assert outbox.plain_words("ConnectionRefusedError: [Errno 111] Connection refused") == (
        "our mail server could not be reached")
    assert outbox.plain_words("SendTimeout: the SMTP server did not finish in time") == (
        "our mail server could not be reached")
    assert outbox.plain_words("KeyError: 'board'") == "the email could not be sent"
