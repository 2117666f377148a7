"""Emails opened in Debian's Chromium as a mail client shows them: every type fits a 375 px phone
(`scrollWidth` <= 375), and a turn email of any game is at most about 2,500 px tall at 600 px.

Each check runs on the email without its board first, then on the whole email, so a failure says
which part causes it (tests/service/email_catalog.py: only_the_board)."""

from __future__ import annotations

import pytest

from tests.service.email_catalog import catalog, only_the_board  # noqa: F401  (catalog: the module's fixture)
from tests.web.looks import PHONE, page_height, page_width

pytestmark = pytest.mark.browser  # Chromium and its launch settings: tests/conftest.py

# "About 2,500 px": a turn email's own parts (first line, deadline, what happened, choices, footer)
# and the board together, at the 600 px the layout is made for.
MAX_TURN_HEIGHT = 2500
EMAIL_WIDTH = {"width": 600, "height": 900}


def opened(page, message) -> None:
    page.set_content(message.get_body(("html",)).get_content(), wait_until="load")


def test_every_type_of_email_fits_a_phone(catalog, page):
    page.set_viewport_size(PHONE)
    samples = catalog.kinds()
    assert {s.kind for s in samples} >= {"invite", "turn", "reminder", "notice", "timed_out", "game_over"}

    def problem(message):
        opened(page, message)
        width = page_width(page)
        return f"{width} px wide at 375 px" if width > PHONE["width"] else None

    only_the_board(catalog, samples, problem)


def test_a_turn_email_of_any_game_is_at_most_about_2500_px_tall(catalog, page):
    page.set_viewport_size(EMAIL_WIDTH)
    turns = [s for s in catalog.kinds() if s.kind == "turn"]
    assert {s.game for s in turns} == set(catalog.games)

    def problem(message):
        opened(page, message)
        height = page_height(page)
        return f"{height} px tall at 600 px" if height > MAX_TURN_HEIGHT else None

    only_the_board(catalog, turns, problem)


def test_without_its_board_an_email_leaves_most_of_the_height_to_the_board(catalog, page):
    """The email's own parts of a long turn email (twelve choices, eight lines of what happened, the
    deadline) stay under 1,100 px at 600 px and under 1,600 px on a phone."""
    longest = max(catalog.of("turn"), key=lambda s: len(s.text.split("The board:")[0]))
    bare = catalog.render(longest.row_id, board=False)
    for viewport, limit in ((EMAIL_WIDTH, 1100), (PHONE, 1600)):
        page.set_viewport_size(viewport)
        opened(page, bare)
        assert page_height(page) <= limit, (longest, viewport, page_height(page))
