"""A player's link tokens as their emails carry them (their row's key and generation), for tests that
hold only a player's id or row.  Tests that mean a link of another key or generation make it with
service/links.py themselves."""

from __future__ import annotations

import re

from service import links, store
from service.store import get_engine, read_session
from service.store.models import Player


def player(player_id: int) -> Player:
    with read_session(get_engine()) as session:
        return store.get_player(session, player_id)


def _row(who: int | Player) -> Player:
    return player(who) if isinstance(who, int) else who


def page(who: int | Player) -> str:
    """The token of the player's page link (`/p/<token>`)."""
    row = _row(who)
    return links.player_token(row.id, row.row_key, row.link_generation)


def move(who: int | Player, seq: int, chosen: dict) -> str:
    """The token of a move link (`/m/<token>`)."""
    row = _row(who)
    return links.move_token(row.id, row.row_key, seq, chosen, row.link_generation)


def unsubscribe(who: int | Player) -> str:
    """The token of the player's unsubscribe link (`/u/<token>`)."""
    row = _row(who)
    return links.unsubscribe_token(row.id, row.row_key, row.link_generation)


def page_link_of(location: str) -> links.PlayerLink:
    """What the page link in a URL (a redirect's Location) names: its player id, key and generation.
    Compare this, not the token's text: a token minted in another second differs (its timestamp)."""
    found = re.search(r"/p/([^/?#]+)", location)
    assert found, f"no page link in {location!r}"
    return links.read_player_token(found.group(1))


def links_page_of(location: str, who: int | Player) -> bool:
    """Whether the URL's page link is `who`'s (its player id and key), whenever it was minted."""
    row = _row(who)
    link = page_link_of(location)
    return (link.player_id, link.key) == (row.id, row.row_key)


def page_links_in(html: str) -> set[tuple[int, str, int]]:
    """Every page link a page or email lists, as (player id, key, generation): what to compare when the
    tokens were minted in another second than the test's own."""
    found = set()
    for token in re.findall(r"/p/([^/?#\"'<\s]+)", html):
        link = links.read_player_token(token)
        found.add((link.player_id, link.key, link.generation))
    return found


def listed(html: str, who: int | Player, generation: int | None = None) -> bool:
    """Whether a page lists `who`'s page link (of `generation`, by default the row's own)."""
    row = _row(who)
    return (row.id, row.row_key, row.link_generation if generation is None else generation) in page_links_in(html)
