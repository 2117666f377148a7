"""One sweep timing out several games of one address sends one email naming every game (#22 item 9:
"four timeouts in one sweep send four emails in the same second"), through the real SMTP path: each
game keeps its outbox row (sent, the digest's recorded as `sent_in`), each game's part carries that
game's own links, a failed send loses none of them, and a lone timeout is the usual email."""

from __future__ import annotations

import re

import pytest

from service import links
from service.mail import outbox
from service.mail.threads import thread_root
from service.store import get_engine, read_session
from service.store.models import Outbox, Player
from tests.conftest import app_on
from tests.deadlines.helpers import rows, sweep, timed_game

LINK = re.compile(r"http://riftpost\.test/p/([^/\s?\"]+)")


@pytest.fixture
def mailer(app, sink):
    app.config["SMTP_URL"] = sink.url
    app.config["OUTBOX_RETRY_BASE_SECONDS"] = 0  # a failed attempt is due again at once
    return sink


def timed_out_rows(game_ids) -> list[Outbox]:
    return sorted((row for game_id in game_ids for row in rows(Outbox, game_id=game_id, kind="timed_out")),
                  key=lambda row: row.id)


def deliver_all(game_ids) -> list[str]:
    """Deliver every due row of the games, oldest first, as the beat scan would."""
    return [outbox.deliver(row.id) for row in sorted(
        (row for game_id in game_ids for row in rows(Outbox, game_id=game_id)), key=lambda row: row.id)
        if row.status == "pending"]


def ann(game_id: int) -> Player:
    return next(p for p in rows(Player, game_id=game_id) if p.seat == 0)


def to_ann(messages, kind="timed_out"):
    return [m for m in messages if m["To"].addresses[0].addr_spec == "ann@example.org" and m["X-Riftpost-Kind"] == kind]


@pytest.fixture
def both(backend_url, tmp_path, sink):
    """The app on SQLite and on PostgreSQL, mailing to the sink (the candidates' query runs on both)."""
    with app_on(tmp_path, backend_url, SMTP_URL=sink.url, OUTBOX_RETRY_BASE_SECONDS=0) as app:
        yield app


def test_four_timeouts_in_one_sweep_are_one_email_naming_each_game_with_its_own_links(both, sink, monkeypatch):
    mailer, client = sink, both.test_client()
    games = [timed_game(hours=48, seed=n) for n in range(4)]
    kicked: list[int] = []
    monkeypatch.setattr(outbox, "kick", lambda ids: kicked.extend(ids))
    counts = sweep(48)
    assert counts["timeouts"] == 4 and counts["timed_out_emails"] == 4
    written = timed_out_rows(games)
    assert len(written) == 4 and len({row.params["sweep"] for row in written}) == 1
    assert [row_id for row_id in kicked if row_id in {row.id for row in written}] == [written[0].id]  # one kick

    deliver_all(games)
    sent = to_ann(mailer.wait_for(1))
    assert len(sent) == 1, [m["Subject"] for m in sent]
    message = sent[0]
    assert message["Subject"] == "Time ran out on your turn in 4 games"
    assert message["X-Riftpost-Games"] == ", ".join(str(g) for g in games)
    assert message["In-Reply-To"] is None  # a thread of its own
    plain = message.get_body(("plain",)).get_content()
    markup = message.get_body(("html",)).get_content()
    assert plain.startswith("Time ran out on your turn in 4 games, so each game chose for you")
    for game_id in games:
        assert f"#{game_id}: Ann vs Bob" in plain and f"#{game_id}: Ann vs Bob" in markup
    # Each game's part links that game's page, signed for Ann's row in that game (its key), and opens it.
    tokens = list(dict.fromkeys(LINK.findall(plain)))
    found = {links.read_player_token(token).player_id: links.read_player_token(token) for token in tokens}
    for game_id in games:
        mine = ann(game_id)
        assert mine.id in found and found[mine.id].key == mine.row_key, game_id
    for token in tokens:
        page = client.get(f"/p/{token}")
        assert page.status_code == 200
    for game_id in games:
        token = next(t for t in tokens if links.read_player_token(t).player_id == ann(game_id).id)
        assert f"#{game_id}" in client.get(f"/p/{token}").get_data(as_text=True)
    assert set(re.findall(r'href="http://riftpost\.test/p/([^/"?]+)"', markup)) == set(tokens)

    # Each game's outbox says its email went: the lead's own, the others in it.
    after = timed_out_rows(games)
    assert [row.status for row in after] == ["sent"] * 4
    assert after[0].sent_in is None and [row.sent_in for row in after[1:]] == [after[0].id] * 3
    assert deliver_all(games) == []  # nothing left to send, nothing sent twice
    assert len(to_ann(mailer.messages())) == 1


def test_a_single_timeout_is_the_usual_email_in_its_games_thread(mailer):
    game_id = timed_game(hours=48)
    sweep(48)
    [row] = timed_out_rows([game_id])
    assert outbox.deliver(row.id) == "sent"
    [message] = to_ann(mailer.wait_for(1))
    assert message["Message-ID"] == row.message_id
    with read_session(get_engine()) as session:
        game_ann = session.get(Player, row.player_id)
        from service import store

        root = thread_root(store.get_game(session, game_id), game_ann)
    assert message["In-Reply-To"] == root
    assert message["Subject"].endswith(f"#{game_id}: Ann vs Bob")
    assert message["X-Riftpost-Games"] is None
    assert message.get_body(("plain",)).get_content().startswith("Time ran out on your turn, so the game chose for you")
    assert rows(Outbox, id=row.id)[0].sent_in is None


def test_a_failed_digest_puts_every_game_back_and_the_next_attempt_sends_them_all(mailer):
    games = [timed_game(hours=48, seed=n) for n in range(3)]
    sweep(48)
    lead = timed_out_rows(games)[0]
    mailer.stop()  # the mail server is down
    try:
        assert outbox.deliver(lead.id) == "retrying"
    finally:
        mailer.start()
    back = timed_out_rows(games)
    assert [row.status for row in back] == ["pending"] * 3 and all(row.last_error for row in back)
    assert all(row.sent_in is None for row in back)
    # Whichever is delivered next carries the others: one email, every game in it.
    assert outbox.deliver(back[2].id) == "sent"
    [message] = to_ann(mailer.wait_for(1))
    assert message["Subject"] == "Time ran out on your turn in 3 games"
    done = timed_out_rows(games)
    assert [row.status for row in done] == ["sent"] * 3
    assert [row.sent_in for row in done] == [back[2].id, back[2].id, None]


def test_a_row_no_longer_wanted_is_skipped_on_its_own_and_left_out_of_the_digest(mailer):
    """Here: turn emails stopped for one of the games (as a move made meanwhile would, too)."""
    games = [timed_game(hours=48, seed=n) for n in range(3)]
    sweep(48)
    from service.store import write_session

    with write_session(get_engine()) as session:
        session.get(Player, ann(games[1]).id).turn_emails = False
    deliver_all(games)
    [message] = to_ann(mailer.wait_for(1))
    assert message["Subject"] == "Time ran out on your turn in 2 games"
    plain = message.get_body(("plain",)).get_content()
    assert f"#{games[0]}:" in plain and f"#{games[2]}:" in plain and f"#{games[1]}:" not in plain
    statuses = {row.game_id: (row.status, row.skip_reason) for row in timed_out_rows(games)}
    # The turn emails switch of the game is the person's notification choice: the delivery log says so.
    assert statuses[games[1]] == ("skipped", "turned_off")


def test_when_the_kicked_row_is_skipped_the_next_one_is_kicked_and_carries_the_rest(mailer, monkeypatch):
    games = [timed_game(hours=48, seed=n) for n in range(3)]
    sweep(48)
    lead, second, third = timed_out_rows(games)
    from service.store import write_session

    with write_session(get_engine()) as session:
        session.get(Player, lead.player_id).turn_emails = False
    kicked: list[int] = []
    monkeypatch.setattr(outbox, "kick", lambda ids: kicked.extend(ids))
    assert outbox.deliver(lead.id) == "skipped"
    assert kicked == [second.id]
    assert outbox.deliver(second.id) == "sent"
    [message] = to_ann(mailer.wait_for(1))
    assert message["Subject"] == "Time ran out on your turn in 2 games"
    assert [row.sent_in for row in timed_out_rows(games)] == [None, None, second.id]
