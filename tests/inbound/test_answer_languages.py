"""The answer to a reply by email in its reader's language (issue #26): the door keeps facts on the row
(message ids and params, the seqs of what happened, the choices' keys), and the answer is worded when it
is rendered, in the seat's language (service/mail/reader.py).  Over real SMTP, on SQLite and PostgreSQL:
Bo reads Ukrainian or Traditional Chinese, replies a choice's number out of range, a move in the game's
notation, an old email's number and table talk; each answer's own lines are in his script with no
English word but names, and none is marked English.  An older row's English lines are shown as they
are (marked English); a choice's number is read the same in any language."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from service import store
from service.mail import answers as answer_kind
from service.mail import compose, outbox
from service.people import languages
from service.store import get_engine, read_session, write_session
from service.store.models import Outbox, utcnow
from tests.inbound.helpers import SETTINGS, apple_mail, door_port, kept, latest, plain, reply, smtp_send, start_game
from tests.inbound.test_replies import answer_to, inbound_app  # noqa: F401 - a fixture

SCRIPT = {"uk": re.compile(r"[\u0400-\u04ff]"), "zh_Hant": re.compile(r"[\u4e00-\u9fff]")}
NAMES = {"Ann", "Bo", "Riftforce", "Riftpost"}
BO = "bo@example.org"
assert SETTINGS  # (the fixture's app settings: tests/inbound/helpers.py)


def own_lines(message) -> list[str]:
    """The answer's own lines in its plain part: before the footer, without what the player wrote
    (quoted) and without a choice's move notation in brackets (the same in every language)."""
    text = plain(message).split("\n--\n")[0]
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith(">")]
    return [re.sub(r" \([^()]*\)$", "", line) if re.match(r"^\d+\. ", line) else line for line in lines]


def english_words(line: str) -> list[str]:
    return sorted({w for w in re.findall(r"[A-Za-z][A-Za-z']*", line) if w not in NAMES})


def assert_in(language: str, message) -> list[str]:
    lines = own_lines(message)
    for line in lines:
        assert SCRIPT[language].search(line), (line, lines)
        assert english_words(line) == [], (line, lines)
    assert 'lang="en"' not in message.get_body(("html",)).get_content()
    return lines


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_the_answers_to_replies_are_in_the_senders_language(inbound_app, sink, language):
    languages.choose(BO, language, utcnow())
    start_game(inbound_app, sink)
    turn = latest(sink, BO)  # Bo picks first
    with door_port(inbound_app) as port:
        # A number the email did not list: refused, with the choices now (their labels in his words).
        smtp_send(port, apple_mail(turn, "99"), sender=BO)
        refused = answer_to(sink, BO)
        lines = assert_in(language, refused)
        assert kept()[-1].outcome == "illegal" and "99" in lines[0]
        assert any(re.match(r"^1\. ", line) for line in lines), lines
        # A move in the game's notation: played; the first line names the move in his words.
        smtp_send(port, reply(turn, "pick fire", sender=BO), sender=BO)
        played = answer_to(sink, BO)
        assert kept()[-1].outcome == "played"
        first = assert_in(language, played)[0]
        assert first.startswith({"uk": "Зіграно: ", "zh_Hant": "已出牌："}[language]), first
        # A number from the same (now old) email: not played, with what happened since in his words.
        smtp_send(port, apple_mail(turn, "2"), sender=BO)
        stale = answer_to(sink, BO)
        assert kept()[-1].outcome == "stale"
        lines = assert_in(language, stale)
        assert any(line.startswith("- ") for line in lines), lines
        # Anything else is table talk: the answer says where it went.
        smtp_send(port, reply(turn, "good luck, Ann", sender=BO), sender=BO)
        talk = answer_to(sink, BO)
        assert kept()[-1].outcome == "talk"
        assert_in(language, talk)


def test_the_same_answer_row_renders_in_english_for_an_english_reader(inbound_app, sink):
    languages.choose(BO, "uk", utcnow())
    start_game(inbound_app, sink)
    turn = latest(sink, BO)
    with door_port(inbound_app) as port:
        smtp_send(port, reply(turn, "pick fire", sender=BO), sender=BO)
    with read_session(get_engine()) as session:
        row = [r for r in session.execute(sa.select(Outbox).order_by(Outbox.id)).scalars() if r.kind == answer_kind.KIND][-1]
        assert isinstance(row.params["first"], dict) and "Pick Fire" not in str(row.params)  # facts, not words
        english = compose.build(session, row, locale="en")
    assert plain(english).startswith("Played: Pick Fire.\n"), plain(english)
    assert "Now it is Ann's turn; we will email you when it is yours." in plain(english)


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_an_older_answer_row_with_english_lines_is_shown_as_it_is_marked_english(inbound_app, sink, language):
    languages.choose(BO, language, utcnow())
    game_id = start_game(inbound_app, sink)
    params = {
        "inbound": 1,
        "first": "Not played: the game moved on just now.",
        "lines": ["Since that email:", "- Bo picks Fire."],
        "choices": [[1, "Pick Water", "pick water"]],
        "quoted": ["2"],
        "reply_id": "",
        "references": [],
    }
    with write_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        bo = next(p for p in store.players_of(session, game_id) if p.seat == 1)
        (queued,) = outbox.add(session, game, [bo], answer_kind.KIND, params)
        row_id = outbox.ids(session, [queued])[0]
    with read_session(get_engine()) as session:
        message = compose.build(session, session.get(Outbox, row_id))
    text = plain(message)
    assert text.startswith("Not played: the game moved on just now.\n")
    assert "- Bo picks Fire." in text and "\n1. Pick Water\n" in text
    html = message.get_body(("html",)).get_content()
    assert re.search(r'<p lang="en"[^>]*>- Bo picks Fire\.</p>', html) and re.search(r'<ol lang="en"[ >]', html)
    assert SCRIPT[language].search(text)  # the email's own words around them are his


@pytest.mark.parametrize("language", ["uk", "zh_Hant"])
def test_a_choice_that_needs_one_more_decision_lists_its_moves_in_the_senders_words(inbound_app, sink, language):
    from tests.inbound.helpers import send_all
    from tests.turns import drive, not_drafting

    languages.choose("ann@example.org", language, utcnow())
    languages.choose(BO, language, utcnow())
    game_id = start_game(inbound_app, sink)
    _game, _state, seat = drive(game_id, not_drafting)
    send_all()
    address = ("ann@example.org", BO)[seat]
    turn = latest(sink, address)
    with door_port(inbound_app) as port:
        smtp_send(port, apple_mail(turn, "1"), sender=address)  # "Play Water 7…": where to, still to say
    assert kept()[-1].outcome == "illegal"
    message = answer_to(sink, address)
    lines = own_lines(message)
    moves = [line for line in lines if re.search(r"   \(.+\)$", line)]
    assert moves, lines
    # each move: its notation (the same in any language), then its label in the reader's words
    for line in [*[line for line in lines if line not in moves], *(re.search(r"\((.+)\)$", m).group(1) for m in moves)]:
        assert SCRIPT[language].search(line) and english_words(line) == [], (line, lines)
    assert 'lang="en"' not in message.get_body(("html",)).get_content()


def test_the_door_numbers_choices_as_the_players_own_turn_email_does_and_keeps_the_chosen_steps_key(inbound_app, sink):
    """The door reads "1" against the choices in the player's language (the turn email's list: one_click
    lists each label once, and labels are the language's), and the answer row names the choice by its
    key (its first move's text, the same in every language), never by a number a language numbered."""
    from service.inbound import replies
    from tests.inbound.helpers import send_all
    from tests.turns import drive, not_drafting

    languages.choose("ann@example.org", "uk", utcnow())
    languages.choose(BO, "uk", utcnow())
    game_id = start_game(inbound_app, sink)
    _game, _state, seat = drive(game_id, not_drafting)
    send_all()
    address = ("ann@example.org", BO)[seat]
    with read_session(get_engine()) as session:
        game = store.get_game(session, game_id)
        player = next(p for p in store.players_of(session, game_id) if p.seat == seat)
        door = replies.Seat(player.id, game_id, seat, game.seq, 0, 0, True)
        position, steps = replies._choices_now(session, game, door)
    assert position.language == "uk" and SCRIPT["uk"].search(steps[0].label), steps[0].label
    with door_port(inbound_app) as port:
        smtp_send(port, apple_mail(latest(sink, address), "1"), sender=address)
    with read_session(get_engine()) as session:
        row = session.exec(sa.select(Outbox).where(Outbox.kind == "reply").order_by(Outbox.id.desc())).first()[0]
    kept_step = [line["moves_of"] for line in row.params["lines"] if isinstance(line, dict) and "moves_of" in line]
    assert kept_step == [[game.seq, steps[0].key]]
    assert "" not in row.params["lines"]
