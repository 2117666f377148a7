"""Row keys (migration 0010b): every link, return path and Message-ID names its row by its id and a
random key, because a restore hands the ids of rolled-back rows to new ones, never their keys.  A
link with another key (or none) is refused; a row from before keys (its key NULL) keeps the keyless
links, return path and Message-IDs it was given.  The restore drill itself is in
tests/service/test_backup.py."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from sqlmodel import select

from service import links
from service.mail import outbox
from service.play import handle, new_game
from service.store import get_engine, read_session, write_session
from service.store.models import Invitation, Player
from tests import tokens
from tests.consent import preconsent
from tests.service import toygame
from tests.service.helpers import current, outbox_rows
from tests.web.pages import csrf_token, text

PLAYERS = [("Ann", "ann@example.org"), ("Bob", "bob@example.org")]
OTHER_KEY = "0123456789abcdef"
NO_GAME = "This link belongs to no game here."


def players(game_id: int) -> list[Player]:
    with read_session(get_engine()) as session:
        return list(session.exec(select(Player).where(Player.game_id == game_id).order_by(Player.seat)))


def invitations(game_id: int) -> list[Invitation]:
    with read_session(get_engine()) as session:
        return list(session.exec(select(Invitation).where(Invitation.game_id == game_id)))


def from_before_keys(model, **where) -> None:
    """Rows as migration 0010b leaves the ones it finds: no key."""
    with write_session(get_engine()) as session:
        session.execute(sa.update(model).where(*[getattr(model, k) == v for k, v in where.items()]).values(row_key=None))


@pytest.fixture
def game_id(app):
    preconsent("ann@example.org", "bob@example.org")
    return new_game(toygame.NAME, PLAYERS, {"target": 20}, seed=21)


def every_link(player: Player, key: str | None, seq: int, move: dict) -> dict[str, str]:
    """Each route a player's links reach, with a link of this key (GET: pages; the API: its own)."""
    page = links.player_token(player.id, key, player.link_generation)
    return {
        "page": f"/p/{page}",
        "history": f"/p/{page}/history",
        "account": f"/p/{page}/account",
        "move": f"/m/{links.move_token(player.id, key, seq, move, player.link_generation)}",
        "unsubscribe": f"/u/{links.unsubscribe_token(player.id, key, player.link_generation)}",
    }


def test_every_new_row_gets_its_own_random_key(game_id):
    keys = [p.row_key for p in players(game_id)] + [row.row_key for row in outbox_rows(game_id)]
    other = new_game(toygame.NAME, PLAYERS, seed=21)
    keys += [p.row_key for p in players(other)] + [row.row_key for row in outbox_rows(other)]
    assert all(re.fullmatch(r"[0-9a-f]{16}", key) for key in keys)
    assert len(set(keys)) == len(keys)


def test_a_link_with_another_key_or_none_is_refused_and_tells_nothing_of_the_seat(client, game_id):
    ann, _ = players(game_id)
    game, state = current(game_id)
    move = toygame.GAME.legal_moves(state, ann.seat)[0]
    for key in (OTHER_KEY, None):
        for what, url in every_link(ann, key, game.seq, move).items():
            answer = client.get(url)
            assert answer.status_code == 404 and NO_GAME in text(answer), (key, what, answer.status_code)
            assert "a***@" not in text(answer) and "Bob" not in text(answer)
        api = f"/api/play/{links.player_token(ann.id, key)}"
        assert client.get(api).status_code == 403
        assert client.post(api, json={"seq": game.seq, "moves": [move]}).status_code == 403
    # The POSTs of a page opened with the right link, sent with another key: nothing happens.
    page = text(client.get(f"/p/{tokens.page(ann)}"))
    bad = links.player_token(ann.id, OTHER_KEY)
    answer = client.post(f"/p/{bad}/move", data={"csrf_token": csrf_token(page), "seq": str(game.seq),
                                                 "move": '{"type": "pass"}'})
    assert answer.status_code == 404
    assert client.post(f"/p/{bad}/notifications", data={"csrf_token": csrf_token(page)}).status_code == 404
    assert client.post(f"/u/{links.unsubscribe_token(ann.id, OTHER_KEY)}",
                       data={"List-Unsubscribe": "One-Click"}).status_code == 404
    assert current(game_id)[0].seq == game.seq and players(game_id)[0].turn_emails
    # The row's own key opens everything.
    for what, url in every_link(ann, ann.row_key, game.seq, move).items():
        assert client.get(url).status_code == 200, what
    assert client.get(f"/api/play/{tokens.page(ann)}").status_code == 200


def test_a_key_changed_in_a_signed_link_breaks_its_signature(client, game_id):
    """The key cannot be swapped for another (or dropped) in a link without our secret: 400."""
    ann, _ = players(game_id)
    stamped = tokens.page(ann).partition(".")[2]  # its time stamp and signature
    for key in (OTHER_KEY, None):
        forged = links.player_token(ann.id, key).partition(".")[0]
        assert client.get(f"/p/{forged}.{stamped}").status_code == 400


def test_a_keyless_link_stands_only_for_a_row_from_before_keys(client, game_id):
    ann, bob = players(game_id)
    game, state = current(game_id)
    move = toygame.GAME.legal_moves(state, ann.seat)[0]
    from_before_keys(Player, id=ann.id)
    for what, url in every_link(ann, None, game.seq, move).items():
        assert client.get(url).status_code == 200, what
    assert client.get(f"/api/play/{links.player_token(ann.id, None)}").status_code == 200
    # A link with a key names a row made since: not this one.
    for what, url in every_link(ann, ann.row_key, game.seq, move).items():
        assert client.get(url).status_code == 404, what
    # Bob's row has its key: his keyless links are refused.
    assert client.get(f"/p/{links.player_token(bob.id, None)}").status_code == 404
    # The move of a keyless link plays, once.
    played = client.post(f"/m/{links.move_token(ann.id, None, game.seq, move)}",
                         data={"csrf_token": csrf_token(text(client.get(f"/p/{links.player_token(ann.id, None)}")))})
    assert played.status_code == 303 and current(game_id)[0].seq > game.seq


def test_the_pages_and_emails_of_a_row_carry_its_key(app, client, game_id, sink):
    """Every link a page or an email hands out carries the key (a row made today refuses any other)."""
    app.config["SMTP_URL"] = sink.url
    ann, _ = players(game_id)
    page = text(client.get(f"/p/{tokens.page(ann)}"))
    for token in set(re.findall(r'/p/([^/"?#]+)', page)):
        assert links.read_player_token(token).key == ann.row_key
    for row in outbox_rows(game_id):
        assert outbox.deliver(row.id) == "sent"
    message = next(m for m in sink.wait_for(2) if m["To"] == "Ann <ann@example.org>")
    body = message.get_body(("plain",)).get_content()
    found = {(kind, token) for kind, token in re.findall(r"http://riftpost\.test/([pmu])/([^/\s?]+)", body)}
    assert {kind for kind, _ in found} >= {"p", "u"}
    for kind, token in found:
        read = links.read_player_token if kind == "p" else links.read_unsubscribe_token
        assert read(token).key == ann.row_key


def test_an_invitation_link_with_another_key_or_none_is_refused(app, client, sink):
    app.config["SMTP_URL"] = sink.url
    preconsent("ann@example.org")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 20}, seed=21)
    (invitation,) = invitations(game_id)
    for key in (OTHER_KEY, None):
        token = links.invitation_token(invitation.id, key)
        assert client.get(f"/i/{token}").status_code == 404
        page = text(client.get(f"/i/{links.invitation_token(invitation.id, invitation.row_key)}"))
        assert client.post(f"/i/{token}/accept", data={"csrf_token": csrf_token(page)}).status_code == 404
        assert client.post(f"/i/{token}/decline", data={"List-Unsubscribe": "One-Click"}).status_code == 404
    assert invitations(game_id)[0].status == "asked"
    # The emailed link is the invitation's, with its key, and it works.
    for row in outbox_rows(game_id):
        if row.status == "pending":
            assert outbox.deliver(row.id) == "sent"
    email = next(m for m in sink.wait_for(1) if m["X-Riftpost-Kind"] == "invitation")
    (token,) = set(re.findall(r"http://riftpost\.test/i/([^/\s?\"]+)", email.get_body(("plain",)).get_content()))
    assert links.read_invitation_token(token) == links.InvitationLink(invitation.id, invitation.row_key)
    page = text(client.get(f"/i/{token}"))
    assert client.post(f"/i/{token}/accept", data={"csrf_token": csrf_token(page)}).status_code == 303


def test_an_invitation_from_before_keys_is_answered_by_its_keyless_link(app, client):
    preconsent("ann@example.org")
    game_id = new_game(toygame.NAME, PLAYERS, {"target": 20}, seed=21)
    (invitation,) = invitations(game_id)
    from_before_keys(Invitation, id=invitation.id)
    token = links.invitation_token(invitation.id, None)
    page = client.get(f"/i/{token}")
    assert page.status_code == 200
    assert client.get(f"/i/{links.invitation_token(invitation.id, invitation.row_key)}").status_code == 404
    assert client.post(f"/i/{token}/decline", data={"csrf_token": csrf_token(text(page))}).status_code == 200
    assert invitations(game_id)[0].status == "declined"


def test_message_ids_carry_the_players_key_and_a_thread_from_before_keys_keeps_its_own(app, game_id, sink):
    app.config["SMTP_URL"] = sink.url
    ann, bob = players(game_id)
    rows = outbox_rows(game_id)
    assert rows and all(row.message_id.startswith(f"<riftpost.g{game_id}.p{row.player_id}-") for row in rows)
    assert f"<riftpost.g{game_id}.p{ann.id}-{ann.row_key}@localhost>" in {row.message_id for row in rows}  # her root
    # Bob's seat as one from before keys: his emails are named as they were before, in his old thread.
    from_before_keys(Player, id=bob.id)
    for _ in range(10):
        game, state = current(game_id)
        if game.to_act == [bob.seat]:
            break
        handle(game_id, game.to_act[0], toygame.GAME.legal_moves(state, game.to_act[0])[0], game.seq)
    (turn,) = [row for row in outbox_rows(game_id) if row.player_id == bob.id and row.kind == "turn"]
    named = re.fullmatch(rf"<riftpost\.([0-9a-f]{{12}})\.g{game_id}\.p{bob.id}\.turn\.s\d+@localhost>", turn.message_id)
    assert named, turn.message_id
    assert outbox.deliver(turn.id) == "sent"
    sent = sink.wait_for(1)[-1]
    assert sent["Message-ID"] == turn.message_id
    assert sent["In-Reply-To"] == f"<riftpost.{named.group(1)}.g{game_id}.p{bob.id}@localhost>"
