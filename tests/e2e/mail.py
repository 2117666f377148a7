"""Reading the emails as the e2e players do: what kind each is, its first line, and its choices (one
link per first step, each opening the player's page with that step chosen)."""

from __future__ import annotations

import json
import re
import urllib.parse

from service.games import adapter
from tests.e2e.browser import unescape

# A text email lists each choice as "<number>. <label>" with its link on the next line.
CHOICE = re.compile(r"^\d+\. (.+)\n  (https?://\S+/p/[A-Za-z0-9_.\-]+\?step=\S+)$", re.MULTILINE)


def kind_of(message) -> str:
    """What the email is (the subject is the thread's, the same for every email of a game)."""
    return message["X-Riftpost-Kind"]


def first_line(message) -> str:
    return message.get_body(("plain",)).get_content().splitlines()[0]


def choices(text: str) -> dict[str, str]:
    """label -> link of the email's choices."""
    return dict(CHOICE.findall(text))


def step_of(url: str) -> str:
    """The first step a choice link names (the text form of that step's first move)."""
    return urllib.parse.unquote_plus(urllib.parse.urlsplit(url).query.partition("step=")[2])


def link_for(rules, state, seat: int, move: dict, links: dict[str, str]) -> str | None:
    """The email's link whose first step `move` starts with (None: not among the links)."""
    step = adapter(rules.name).first_step
    for url in links.values():
        if step(rules.parse_move(state, seat, step_of(url))) == step(move):
            return url
    return None


def move_form_choice(page, move: dict):
    """(form, radio value) of the player page's move form for `move`."""
    form = next(f for f in page.forms() if "move" in f.radios)
    values = {json.dumps(json.loads(unescape(v)), sort_keys=True): v for v in form.radios["move"]}
    return form, values[json.dumps(move, sort_keys=True)]


INVITATION_LINK = re.compile(r"^Accept and see the game: (https?://\S+/i/\S+)$", re.MULTILINE)


def accept_invitation(browser, message) -> None:
    """As a new player does: open the invitation's Accept link (a page: the GET answers nothing), then
    press its Accept button.  The game's emails to that address follow."""
    link = INVITATION_LINK.search(message.get_body(("plain",)).get_content()).group(1)
    page = browser.get(link)
    assert page.status == 200 and "Accept and play" in page.text
    form = next(f for f in page.forms() if f.action.endswith("/accept"))
    answer = browser.submit(page, form)
    assert answer.status == 200 and "/p/" in answer.url and "you accepted" in answer.text, answer.text[:2000]
