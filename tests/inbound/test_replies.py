"""Replies by email, end to end: a game's emails go out through a real SMTP sink with a signed Reply-To,
players answer through the door's own SMTP port (as the embedded sink opens it) or through
`flask inbound` from a file, and what they wrote is played, posted as talk or refused, with an answer
to the seat's own address only; on SQLite and on PostgreSQL."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

import engine
from service import links, store
from service.inbound import door
from service.inbound import settings as reply_settings
from service.mail import reply_to as reply_address
from service.play import handle
from service.store import get_engine, read_session
from service.store.models import Event, Player, TalkMessage
from tests.conftest import app_on
from tests.inbound.helpers import (
    DOMAIN,
    SETTINGS,
    answers,
    apple_mail,
    door_port,
    emails_to,
    gmail,
    kept,
    latest,
    outlook,
    plain,
    reply,
    reply_to,
    send_all,
    smtp_send,
    start_game,
)
from tests.service.helpers import current
from tests.turns import drive, not_drafting, three_card_play


@pytest.fixture
def inbound_app(backend_url, tmp_path):
    with app_on(tmp_path, backend_url, **SETTINGS) as app:
        yield app


def events(game_id: int) -> int:
    with read_session(get_engine()) as session:
        return int(session.execute(sa.select(sa.func.count()).select_from(Event).where(Event.game_id == game_id)).scalar_one())


def answer_to(sink, address: str):
    """The answer emailed to `address` after the door read a reply (the worker's delivery run now)."""
    send_all()
    return latest(sink, address, "reply")


# ---- the reply address ------------------------------------------------------------------------------------


def test_every_game_email_has_a_signed_reply_address_and_says_one_can_reply(inbound_app, sink):
    start_game(inbound_app, sink)
    for message in sink.messages():
        address = reply_to(message)
        local, _, domain = address.partition("@")
        assert domain == DOMAIN and local.startswith("play+") and len(local) <= 64  # RFC 5321
        assert local == local.lower()  # survives servers that fold case
        assert "Reply with a choice's number or a move to play it" in plain(message)
    bo = latest(sink, "bo@example.org")
    assert re.search(r"^1\. Pick \w+$", plain(bo), re.MULTILINE)  # the choices are numbered for "reply 2"


def test_the_reply_token_holds_only_for_its_row_seq_and_generation(inbound_app):
    token = links.reply_token(7, "0123456789abcdef", 42, 1)
    found = links.read_reply_token(token.upper())  # any case
    assert found is not None and (found.player_id, found.seq, found.generation) == (7, 42, 1)
    assert links.reply_token_holds(found, "0123456789abcdef")
    assert not links.reply_token_holds(found, "fedcba9876543210")  # a row a restore gave the id: another key
    for other in (links.reply_token(8, "0123456789abcdef", 42, 1), links.reply_token(7, "0123456789abcdef", 43, 1),
                  links.reply_token(7, "0123456789abcdef", 42, 2)):
        forged = links.read_reply_token(other[:-16] + token[-16:])  # another seat/seq/generation, this MAC
        assert forged is None or not links.reply_token_holds(forged, "0123456789abcdef")
    assert links.read_reply_token("not-base32!") is None and links.read_reply_token("") is None
    assert links.read_reply_token(token[:-1]) is None  # cut short
    # One spelling per token: every other last letter is refused, even those that differ from the
    # token's only in the bits base32 drops past the last byte (which would decode to the same token).
    alphabet = "abcdefghijklmnopqrstuvwxyz234567"
    holding = [letter for letter in alphabet
               if (read := links.read_reply_token(token[:-1] + letter)) and links.reply_token_holds(read, "0123456789abcdef")]
    assert holding == [token[-1]]
    longest = links.reply_token(2**63 - 1, "0123456789abcdef", 2**35 - 1, 2**35 - 1)  # ids, seqs: never more
    assert len("play+" + longest) <= 64


# ---- playing by reply, through the real SMTP path -----------------------------------------------------------


def test_a_legal_move_by_reply_over_smtp_is_played_and_confirmed_to_the_seat_only(inbound_app, sink):
    game_id = start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")  # Bo picks first
    before = current(game_id)[0].seq
    # Sent from another address than the seat's (a forward): the token is the key, the answer goes to Bo.
    message = reply(turn, "pick fire", sender="someone.else@example.net")
    with door_port(inbound_app) as port:
        smtp_send(port, message, sender="someone.else@example.net")
    assert current(game_id)[0].seq > before
    row = kept()[-1]
    assert row.outcome == "played" and row.player_id is not None and b"pick fire" in row.raw
    assert row.sender == "someone.else@example.net" and row.rcpt == str(message["To"])
    answer = answer_to(sink, "bo@example.org")
    assert plain(answer).startswith("Played: Pick Fire.")
    assert not emails_to(sink, "someone.else@example.net")  # never the From
    assert answer["In-Reply-To"] == message["Message-ID"] and message["Message-ID"] in answer["References"]
    assert answer["Auto-Submitted"] == "auto-replied" and answer["Reply-To"] is None


def test_a_choice_number_plays_the_choice_the_email_listed(inbound_app, sink):
    game_id = start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    second = re.search(r"^2\. (.+)$", plain(turn), re.MULTILINE).group(1)
    with door_port(inbound_app) as port:
        smtp_send(port, apple_mail(turn, "2"))
    assert kept()[-1].outcome == "played"
    assert plain(answer_to(sink, "bo@example.org")).startswith(f"Played: {second}.")
    assert current(game_id)[0].seq > 2


def test_a_whole_turn_by_reply_is_played_all_at_once(inbound_app, sink):
    game_id = start_game(inbound_app, sink, seed=5)
    game, state, seat = drive(game_id, not_drafting)
    moves = three_card_play(state, seat, game.secret, game.seq)
    rules = engine.get("riftforce")
    texts, now, at = [], state, game.seq
    from tests.turns import after
    for move in moves:
        texts.append(rules.move_text(now, seat, move))
        now, produced = after(rules, now, seat, move, game.secret, at)
        at += len(produced)
    send_all()
    email = players_email(game_id, seat)
    turn = latest(sink, email)
    assert reply_address.token_of(reply_to(turn)) is not None
    with door_port(inbound_app) as port:
        smtp_send(port, gmail(turn, "\n".join(texts)))
    assert kept()[-1].outcome == "played", kept()[-1].detail
    assert "played 3 move(s)" in kept()[-1].detail
    assert current(game_id)[0].seq == at


def players_email(game_id: int, seat: int) -> str:
    with read_session(get_engine()) as session:
        return next(p.email for p in store.players_of(session, game_id) if p.seat == seat)


def test_an_illegal_move_plays_nothing_and_the_answer_lists_the_choices(inbound_app, sink):
    game_id = start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    before = events(game_id)
    with door_port(inbound_app) as port:
        smtp_send(port, reply(turn, "pick light"))  # the notation, but Light is not on offer
    assert events(game_id) == before
    assert kept()[-1].outcome == "illegal"
    text = plain(answer_to(sink, "bo@example.org"))
    assert text.startswith("Not played:")
    assert "Your choices now" in text and re.search(r"^1\. Pick \w+$", text, re.MULTILINE)  # (its text form: the label)
    assert "Nothing of your reply was played" not in text  # said only of several moves


def test_a_reply_to_an_old_turn_is_refused_with_what_changed(inbound_app, sink):
    game_id = start_game(inbound_app, sink)
    old = latest(sink, "bo@example.org")
    game = current(game_id)[0]
    handle(game_id, 1, ["pick fire"], game.seq)  # Bo picked on the page meanwhile
    before = events(game_id)
    with door_port(inbound_app) as port:
        smtp_send(port, reply(old, "pick ice"))
    assert events(game_id) == before and kept()[-1].outcome == "stale"
    text = plain(answer_to(sink, "bo@example.org"))
    assert text.startswith("Not played: the game moved on")
    assert "Since that email:" in text and "You picked Fire." in text


def test_anything_else_is_table_talk(inbound_app, sink):
    game_id = start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    with door_port(inbound_app) as port:
        smtp_send(port, outlook(turn, "Good luck, have fun! www.example.org/rules"))
    with read_session(get_engine()) as session:
        said = session.execute(sa.select(TalkMessage)).scalars().all()
    assert [(m.text, m.source, m.channel) for m in said] == [("Good luck, have fun! www.example.org/rules", "email", "all")]
    assert said[0].game_id == game_id
    answer = answer_to(sink, "bo@example.org")
    assert plain(answer).startswith("Your message is posted to the table.")
    # The answer quotes it as talk is told: the link is text (rule: links in talk are not clickable in emails).
    assert "www[.]example[.]org/rules" in plain(answer) and "www.example.org" not in answer.as_string()


# ---- the shapes of real mail programs ---------------------------------------------------------------------


@pytest.mark.parametrize("shape", [gmail, outlook, apple_mail], ids=["gmail", "outlook-html-only", "apple-mail"])
def test_replies_shaped_as_gmail_outlook_and_apple_mail_are_read_for_their_new_text(inbound_app, sink, shape):
    start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    with door_port(inbound_app) as port:
        smtp_send(port, shape(turn, "pick earth"))
    assert kept()[-1].outcome == "played", kept()[-1].detail
    assert plain(answer_to(sink, "bo@example.org")).startswith("Played: Pick Earth.")


def test_the_new_text_leaves_out_history_signatures_footers_and_scripts():
    from email import message_from_bytes, policy

    from service.inbound.reading import new_text

    html = ('<div>Nice game<script>document.write("pick fire")</script></div><div id="Signature">Ann Smith</div>'
            '<blockquote type="cite">On ... wrote: pick ice</blockquote>')
    message = message_from_bytes(
        b"Content-Type: text/html; charset=utf-8\r\n\r\n" + html.encode(), policy=policy.default)
    assert new_text(message) == "Nice game"
    bottom = message_from_bytes(b"Content-Type: text/plain\r\n\r\n> Your turn.\n> 1. Pick Fire\n\npick fire\n",
                                policy=policy.default)
    assert new_text(bottom) == "pick fire"  # bottom-posted: the quoted history above the new words


# ---- what is never answered, never played -----------------------------------------------------------------


def test_an_auto_reply_is_kept_and_ignored_without_an_answer(inbound_app, sink):
    game_id = start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    before = events(game_id)
    with door_port(inbound_app) as port:
        smtp_send(port, reply(turn, "I am out of the office until Monday.\npick fire",
                              headers={"Auto-Submitted": "auto-replied"}))
        smtp_send(port, reply(turn, "pick fire", headers={"Precedence": "bulk"}))
    assert [row.outcome for row in kept()] == ["ignored", "ignored"]
    assert events(game_id) == before and not answers()


def test_a_reply_to_our_own_answer_is_a_loop_and_ignored(inbound_app, sink):
    start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    with door_port(inbound_app) as port:
        smtp_send(port, reply(turn, "hello"))
        answer = answer_to(sink, "bo@example.org")
        # An autoresponder answering our answer (to the turn email's reply address it found in the thread).
        looped = reply(turn, "Thanks for your message!")
        looped.replace_header("In-Reply-To", answer["Message-ID"])
        smtp_send(port, looped)
    assert kept()[-1].outcome == "ignored" and "our own answers" in kept()[-1].detail
    assert len(answers()) == 1


def test_more_than_the_hourly_limit_per_seat_is_ignored(inbound_app, sink):
    inbound_app.config["INBOUND_REPLIES_PER_HOUR"] = 2
    start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    for text in ("one", "two", "three"):
        door.receive(reply(turn, text).as_bytes(), reply_to(turn))
    assert [row.outcome for row in kept()] == ["talk", "talk", "ignored"]
    assert len(answers()) == 2


def test_a_forged_token_is_kept_refused_and_emails_nobody(inbound_app, sink):
    game_id = start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    address = reply_to(turn)
    local, _, domain = address.partition("@")
    flipped = local[:-1] + ("a" if local[-1] != "a" else "b")
    forged = reply(turn, "pick fire")
    forged.replace_header("To", f"{flipped}@{domain}")
    before = events(game_id)
    got = door.receive(forged.as_bytes(), f"{flipped}@{domain}")
    assert got.outcome == "refused" and events(game_id) == before
    row = kept()[-1]
    assert row.player_id is None and row.raw == forged.as_bytes()  # kept as received
    assert not answers()
    # A token of another game's seat, its seat id swapped in: the MAC covers the id and the row key.
    other = start_game(inbound_app, sink, seed=9)
    with read_session(get_engine()) as session:
        seat = session.execute(sa.select(Player).where(Player.game_id == other, Player.seat == 1)).scalar_one()
    swapped = links.reply_token(seat.id, seat.row_key, 2)[:-16] + local.removeprefix("play+")[-16:]
    assert door.receive(forged.as_bytes(), f"play+{swapped}@{domain}").outcome == "refused"


def test_a_reply_address_of_replaced_links_is_answered_but_not_played(inbound_app, sink):
    game_id = start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    with store.write_session(get_engine()) as session:
        session.execute(sa.update(Player).where(Player.game_id == game_id, Player.seat == 1)
                        .values(link_generation=Player.link_generation + 1))
    before = events(game_id)
    assert door.receive(reply(turn, "pick fire").as_bytes(), reply_to(turn)).outcome == "answered"
    assert events(game_id) == before
    assert "links you replaced with fresh ones" in plain(answer_to(sink, "bo@example.org"))


def test_confirmations_off_means_played_and_nothing_emailed_back(inbound_app, sink):
    game_id = start_game(inbound_app, sink)
    reply_settings.set_confirmations("bo@example.org", False)
    turn = latest(sink, "bo@example.org")
    assert door.receive(reply(turn, "pick fire").as_bytes(), reply_to(turn)).outcome == "played"
    assert current(game_id)[0].seq > 2 and not answers()


def test_a_thousand_lines_of_moves_a_huge_message_and_crlf_headers_never_fail(inbound_app, sink):
    game_id = start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    before = events(game_id)
    many = door.receive(reply(turn, "\n".join(["pick fire"] * 1000)).as_bytes(), reply_to(turn))
    assert many.outcome == "illegal" and events(game_id) == before
    huge = reply(turn, "pick fire\n\n" + "x" * (door.MAX_BYTES * 2))
    got = door.receive(huge.as_bytes(), reply_to(turn))
    assert got.outcome in ("played", "illegal", "answered") and kept()[-1].truncated
    evil = reply(turn, "hello")
    raw = evil.as_bytes().replace(b"Message-ID: <", b"Message-ID: <x>\r\nBcc: victim@example.net\r\n <", 1)
    assert door.receive(raw, reply_to(turn)).outcome in ("talk", "played", "answered")
    send_all()
    assert not emails_to(sink, "victim@example.net")
    for answer in emails_to(sink, "bo@example.org", "reply"):
        assert "victim" not in str(answer["In-Reply-To"]) + str(answer["References"])


def test_a_failure_inside_is_kept_shown_to_the_operator_and_can_be_read_again(inbound_app, sink, monkeypatch):
    game_id = start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    from service.inbound import replies

    def broken(*args, **kwargs):
        raise RuntimeError("the engine fell over")

    monkeypatch.setattr(replies, "read", broken)
    got = door.receive(reply(turn, "pick fire").as_bytes(), reply_to(turn))
    assert got.outcome == "failed"
    row = kept()[-1]
    assert row.outcome == "failed" and "the engine fell over" in row.error and row.game_id == game_id
    listing = inbound_app.test_cli_runner().invoke(args=["inbound-log", "--trouble"])
    assert f"#{row.id}" in listing.output and "failed" in listing.output
    monkeypatch.undo()
    again = inbound_app.test_cli_runner().invoke(args=["inbound-retry", str(row.id)])
    assert "played" in again.output, again.output
    assert kept(row.id)[0].outcome == "played"


# ---- `flask inbound`: one message on standard input (an MTA's pipe) --------------------------------------------


def test_flask_inbound_reads_a_reply_from_a_file(inbound_app, sink, tmp_path):
    game_id = start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    path = tmp_path / "reply.eml"
    path.write_bytes(gmail(turn, "pick shadow").as_bytes())
    # Postfix's pipe sets $ORIGINAL_RECIPIENT and $SENDER; the headers would do without them.
    result = inbound_app.test_cli_runner().invoke(args=["inbound"], input=path.read_bytes(),
                                                  env={"ORIGINAL_RECIPIENT": reply_to(turn), "SENDER": "bo@example.org"})
    assert result.exit_code == 0, result.output
    assert "played" in result.output
    assert current(game_id)[0].seq > 2
    assert plain(answer_to(sink, "bo@example.org")).startswith("Played: Pick Shadow.")


def test_flask_inbound_without_an_envelope_reads_the_address_from_the_headers(inbound_app, sink):
    start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    result = inbound_app.test_cli_runner().invoke(args=["inbound"], input=reply(turn, "Well played").as_bytes())
    assert result.exit_code == 0 and "talk" in result.output, result.output


def test_flask_inbound_of_mail_for_nobody_of_ours_is_kept_and_refused(inbound_app):
    result = inbound_app.test_cli_runner().invoke(
        args=["inbound", "--rcpt", "someone@example.org"], input=b"From: a@b.example\r\nSubject: hi\r\n\r\nhello\r\n")
    assert result.exit_code == 0 and "refused" in result.output
    assert kept()[-1].outcome == "refused"
    garbage = inbound_app.test_cli_runner().invoke(args=["inbound"], input=b"\x00\xff not an email at all")
    assert garbage.exit_code == 0 and kept()[-1].outcome == "refused"


# ---- DMARC, when the configuration asks for it; seats that never agreed to our emails -------------------------


def test_a_failing_dmarc_is_refused_only_when_the_configuration_asks(inbound_app, sink):
    game_id = start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    ours = "mx.riftpost.test; spf=pass smtp.mailfrom=example.org; dkim=fail; dmarc=fail header.from=example.org"
    theirs = "mx.riftpost.test; dmarc=pass header.from=example.org"  # written by the sender, under ours
    failing = reply(turn, "pick fire", headers={"Authentication-Results": ours})
    failing["Authentication-Results"] = theirs
    inbound_app.config.update(INBOUND_REQUIRE_DMARC=True, INBOUND_AUTHSERV_ID="mx.riftpost.test")
    before = events(game_id)
    assert door.receive(failing.as_bytes(), reply_to(turn)).outcome == "answered"
    assert events(game_id) == before and "DMARC fail" in kept()[-1].detail
    passing = reply(turn, "pick fire", headers={"Authentication-Results": "mx.riftpost.test; dmarc=pass"})
    assert door.receive(passing.as_bytes(), reply_to(turn)).outcome == "played"
    inbound_app.config["INBOUND_REQUIRE_DMARC"] = False  # the default: the token is the proof
    send_all()
    ann = latest(sink, "ann@example.org")
    assert door.receive(reply(ann, "Nice pick").as_bytes(), reply_to(ann)).outcome == "talk"  # no header at all


def test_a_seat_that_has_not_agreed_to_our_emails_gets_no_answer(inbound_app, sink):
    game_id = start_game(inbound_app, sink)
    turn = latest(sink, "bo@example.org")
    with store.write_session(get_engine()) as session:
        session.execute(sa.update(Player).where(Player.game_id == game_id, Player.seat == 1).values(consent="asked"))
    assert door.receive(reply(turn, "hello table").as_bytes(), reply_to(turn)).outcome == "talk"
    assert not answers()
