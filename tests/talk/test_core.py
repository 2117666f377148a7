"""The talk core (service/talk/messages.py): what is kept, who reads it, the limits."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from service.errors import Invalid, TooMany
from service.store import get_engine, read_session, write_session
from service.store.models import Event, TalkMessage, TalkMute, TalkOpen, utcnow
from service.talk import messages
from tests.talk import helpers


def say(game_id: int, seat: int, text: str, **kw):
    with write_session(get_engine()) as session:
        player = session.merge(helpers.seat(game_id, seat))
        message = messages.post(session, player, text, **kw)
        return message.id


def read(game_id: int, seat: int | None, **kw) -> list[messages.Said]:
    with read_session(get_engine()) as session:
        viewer = session.merge(helpers.seat(game_id, seat)) if seat is not None else None
        return messages.visible(session, game_id, viewer, **kw)


def texts(game_id: int, seat: int | None, **kw) -> list[str]:
    return [said.text for said in read(game_id, seat, **kw)]


@pytest.fixture
def db(app, everyone_played_before):
    return app


def test_a_message_is_kept_with_the_games_seq_and_not_as_an_event(db):
    game_id = helpers.riftforce_duel()
    with read_session(get_engine()) as session:
        events_before = len(list(session.exec(select(Event).where(Event.game_id == game_id))))
        seq = session.get(__import__("service.store.models", fromlist=["Game"]).Game, game_id).seq
    message_id = say(game_id, 0, "  hello Bob \r\n\r\n\r\n\r\nready?  ", source="api")
    with read_session(get_engine()) as session:
        row = session.get(TalkMessage, message_id)
        assert (row.text, row.seq, row.seat, row.channel, row.source) == ("hello Bob\n\nready?", seq, 0, "all", "api")
        assert len(list(session.exec(select(Event).where(Event.game_id == game_id)))) == events_before
    assert texts(game_id, 1) == ["hello Bob\n\nready?"]
    assert read(game_id, 0)[0].mine and not read(game_id, 1)[0].mine


def test_empty_too_long_and_unknown_channel_are_refused_with_words(db):
    game_id = helpers.riftforce_duel()
    for text, words in (("   \n\t ", "empty"), ("x" * 1001, "at most 1,000 characters")):
        with pytest.raises(Invalid, match=words):
            say(game_id, 0, text)
    assert say(game_id, 0, "y" * 1000)
    with pytest.raises(Invalid, match="whole table"):
        say(game_id, 0, "hi", channel="shout")
    # Control and invisible direction characters go; the rest is kept as typed.
    say(game_id, 0, "a\x00b\u202ec\x1b[31m <b>d</b>")
    assert texts(game_id, 1)[-1] == "abc[31m <b>d</b>"


def test_the_team_channel_is_read_by_the_team_only(db):
    game_id = helpers.riftforce_team(4)  # 0 & 2 against 1 & 3
    say(game_id, 0, "psst, partner", channel="team")
    say(game_id, 1, "good luck all")
    say(game_id, 3, "our plan", channel="team")
    assert texts(game_id, 0) == texts(game_id, 2) == ["psst, partner", "good luck all"]
    assert texts(game_id, 1) == texts(game_id, 3) == ["good luck all", "our plan"]


def test_a_lone_seat_and_games_without_teams_have_no_team_channel(db):
    three = helpers.riftforce_team(3)  # 0 & 2 against seat 1 alone
    with pytest.raises(Invalid, match="no teammate"):
        say(three, 1, "me, myself", channel="team")
    say(three, 2, "just us", channel="team")
    assert texts(three, 0) == ["just us"] and texts(three, 1) == []
    for game_id in (helpers.riftforce_duel(), helpers.riftwalker(), helpers.beyond(3), helpers.riftforce_solo()):
        with pytest.raises(Invalid, match="no teammate"):
            say(game_id, 0, "x", channel="team")
        with read_session(get_engine()) as session:
            assert messages.channels(session, session.merge(helpers.seat(game_id, 0))) == ["all"]


def test_beyond_the_rift_talk_is_the_partys(db):
    game_id = helpers.beyond(3)
    say(game_id, 0, "I take the left lane")
    assert texts(game_id, 1) == texts(game_id, 2) == ["I take the left lane"]


def test_spectators_read_public_talk_of_a_finished_or_opened_game_only_and_never_team_talk(db):
    game_id = helpers.riftforce_team(4)
    say(game_id, 0, "public")
    say(game_id, 0, "secret plan", channel="team")
    assert read(game_id, None) == []
    with write_session(get_engine()) as session:
        session.add(TalkOpen(game_id=game_id))
    assert texts(game_id, None) == ["public"]
    with write_session(get_engine()) as session:
        session.delete(session.get(TalkOpen, game_id))
        from service.store.models import Game

        session.get(Game, game_id).status = "finished"
    assert texts(game_id, None) == ["public"]


def test_a_seat_of_another_game_reads_nothing(db):
    one, other = helpers.riftforce_duel(), helpers.riftforce_duel()
    say(one, 0, "for this table")
    with read_session(get_engine()) as session:
        assert messages.visible(session, one, session.merge(helpers.seat(other, 0))) == []


def test_mutes_hide_a_persons_talk_in_every_game_but_not_from_the_writer(db):
    one, two = helpers.riftforce_duel(), helpers.riftwalker()
    with write_session(get_engine()) as session:
        session.add(TalkMute(person="ann@example.org", muted="bob@example.org"))
    for game_id in (one, two):
        say(game_id, 1, "spam spam")
        say(game_id, 0, "hi")
        assert texts(game_id, 0) == ["hi"]
        assert texts(game_id, 1) == ["spam spam", "hi"]


def test_since_seq_and_after_id(db):
    game_id = helpers.riftforce_duel()
    first = say(game_id, 0, "one")
    say(game_id, 1, "two")
    from tests.service.helpers import play_one

    seq = play_one(game_id).seq
    say(game_id, 1, "three")
    assert texts(game_id, 0, since_seq=seq) == ["three"]
    assert texts(game_id, 0, after_id=first) == ["two", "three"]


def test_the_rate_limit_is_per_seat_and_says_when_to_try_again(db):
    game_id = helpers.riftforce_duel()
    start = utcnow()
    for n in range(messages.RATE_LIMIT):
        say(game_id, 0, f"m{n}", now=start + timedelta(seconds=n))
    with pytest.raises(TooMany, match="minutes") as caught:
        say(game_id, 0, "one too many", now=start + timedelta(seconds=30))
    assert isinstance(caught.value, Invalid) and caught.value.status == 429
    assert 0 < caught.value.retry_after <= messages.RATE_WINDOW.total_seconds()
    say(game_id, 1, "the other seat still may", now=start + timedelta(seconds=31))
    say(game_id, 0, "later again", now=start + messages.RATE_WINDOW + timedelta(seconds=1))


@pytest.mark.postgres
def test_talk_on_postgres(tmp_path, everyone_played_before):
    from tests import services
    from tests.conftest import app_on

    url = services.postgres_database()
    try:
        from service.migrate import upgrade

        upgrade(url)
        with app_on(tmp_path, url):
            game_id = helpers.riftforce_team(4)
            say(game_id, 0, "é" * 1000, channel="team")
            say(game_id, 1, "hello")
            assert [len(t) for t in texts(game_id, 2)] == [1000, 5]
            assert texts(game_id, 1) == ["hello"]
    finally:
        services.drop_postgres(url)
