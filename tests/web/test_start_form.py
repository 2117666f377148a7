"""The start form says only what is wrong, each message a sentence, and refuses one address for two
seats; the command line does the same."""

from __future__ import annotations

import html
import re

import pytest

from service.errors import Invalid
from service.play.startform import parse_players, repeated_addresses
from tests.service import toygame
from tests.service.helpers import outbox_rows
from tests.web.pages import START_FORM, csrf_token, text

PROBLEMS = re.compile(r'<div class="problem" role="alert">.*?<ul>(.*?)</ul>', re.S)


def problems(page: str) -> list[str]:
    found = PROBLEMS.search(page)
    assert found, "the page shows no problem"
    return [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)]


def post(client, **data) -> tuple[int, list[str]]:
    token = csrf_token(text(client.get(START_FORM)))
    response = client.post("/games/new", data={"csrf_token": token, **data})
    return response.status_code, problems(text(response)) if response.status_code == 422 else []


@pytest.mark.parametrize("game, message", [
    ("riftforce", "'ann' is not an email address. An email address must have an @-sign."),  # not also "The duel is for 2 players; you entered 1"
    ("riftwalker", "'ann' is not an email address. An email address must have an @-sign."),  # not also "Riftwalker needs 2 to 4 players"
    (toygame.NAME, "'ann' is not an email address. An email address must have an @-sign."),
])
def test_one_bad_address_of_two_gets_one_message(client, game, message):
    status, said = post(client, game=game, email0="ann", email1="bob@example.org")
    assert status == 422
    assert said == [message]
    assert outbox_rows() == []


def test_the_only_address_being_bad_is_not_also_no_address(client):
    assert post(client, game="riftforce", mode="solo", email0="ann") == (422, ["'ann' is not an email address. An email address must have an @-sign."])
    assert post(client, game=toygame.NAME) == (422, ["Enter at least one player's email address."])


@pytest.mark.parametrize("game, emails, message", [
    ("riftwalker", ["a@example.org"], "Riftwalker needs 2 to 4 players; you entered 1 email address."),
    (toygame.NAME, ["a@example.org"], "Toy needs 2 to 3 players; you entered 1 email address."),
    (toygame.NAME, [f"{c}@example.org" for c in "abcd"], "Toy needs 2 to 3 players; you entered 4 email addresses."),
    ("riftforce", ["a@example.org"], "The duel is for 2 players; you entered 1 email address."),
])
def test_a_wrong_player_count_is_one_full_sentence(client, game, emails, message):
    status, said = post(client, game=game, **{f"email{i}": e for i, e in enumerate(emails)})
    assert status == 422 and said == [message]


def test_a_count_error_still_comes_with_the_other_mistakes(client):
    status, said = post(client, game="riftwalker", email0="a@example.org", options="colour")
    assert status == 422
    assert said == ["Riftwalker needs 2 to 4 players; you entered 1 email address.",
                    "Option 'colour' is not KEY=VALUE."]


def test_the_same_address_for_two_seats_is_refused(client):
    status, said = post(client, game="riftwalker", email0="ann@example.org", email1="bob@example.org",
                        email2="Ann@Example.org")
    assert status == 422
    assert said == ["ann@example.org is entered for players 1 and 3; each player needs an address of their own."]
    assert outbox_rows() == []
    status, said = post(client, game="riftwalker", **{f"email{i}": "x@example.org" for i in range(3)})
    assert said == ["x@example.org is entered for players 1, 2 and 3; each player needs an address of their own."]
    # Numbered as the form's rows are, even with an empty row before them.
    status, said = post(client, game=toygame.NAME, email1="x@example.org", email3="X@example.org")
    assert said == ["x@example.org is entered for players 2 and 4; each player needs an address of their own."]


def test_repeated_addresses_in_words():
    assert repeated_addresses(["a@x.org", "b@x.org", "", "c@x.org"]) == []
    assert repeated_addresses(["a@x.org", "b@x.org", "B@X.org", "a@x.org"]) == [
        "a@x.org is entered for players 1 and 4; each player needs an address of their own.",
        "b@x.org is entered for players 2 and 3; each player needs an address of their own.",
    ]


def test_the_command_line_refuses_bad_and_repeated_addresses(app):
    assert parse_players(["Ann=ann@example.org", "bob@example.org"]) == [
        ("Ann", "ann@example.org"), ("", "bob@example.org")]
    with pytest.raises(Invalid, match=r"^'ann' is not an email address\. An email address must have an @-sign\.$"):
        parse_players(["ann", "bob@example.org"])
    with pytest.raises(Invalid, match="entered for players 1 and 2"):
        parse_players(["Ann=ann@example.org", "Bob=ann@example.org"])
    runner = app.test_cli_runner()
    result = runner.invoke(args=["new-game", "riftwalker", "a@example.org", "a@example.org"])
    assert result.exit_code != 0 and "each player needs an address of their own" in result.output
    alone = runner.invoke(args=["new-game", "riftwalker", "a@example.org"])
    assert alone.exit_code != 0 and "Riftwalker needs 2 to 4 players." in alone.output
    assert outbox_rows() == []


@pytest.mark.parametrize("name", ["Ann\r\nBcc: x@evil.example", "Ann\nsecond line", "Bob\x00", "Cy\x1b[31m"])
def test_a_name_with_a_line_break_or_a_control_character_is_refused_and_nothing_is_sent(client, name):
    """Issue #11 item 4: a CR/LF in a name was accepted, then every email naming that player failed
    (it would break, or forge, the email's headers)."""
    status, said = post(client, game=toygame.NAME, email0="ann@example.org", email1="bob@example.org", name0=name)
    assert status == 422
    assert said == ["A player's name must be one line of printable characters (no line breaks or control characters)."]
    assert outbox_rows() == []
