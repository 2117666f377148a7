"""Whether an address has played here (so gets the game's emails at once) or is asked first is the
creator's to read: the public pages, which anyone who posts the form (or guesses a game's number) may
open, say the same whatever the addresses typed into it."""

from __future__ import annotations

import re

import sqlalchemy as sa

from service.play import consent
from service.store import get_engine, read_session
from service.store.models import Invitation, Player, utcnow
from tests import tokens
from tests.consent import preconsent
from tests.service import toygame
from tests.web.pages import START_FORM, csrf_token, text

WAITING = re.compile(r"has not answered|We asked \w|declined the invitation|declined invitations from")


def _start(client, third: str) -> int:
    page = text(client.get(START_FORM))
    answer = client.post("/games/new", data={
        "csrf_token": csrf_token(page), "game": toygame.NAME, "name0": "Ann", "email0": "ann@example.org",
        "name1": "Cy", "email1": "cy@example.org", "name2": "Vic", "email2": third})
    assert answer.status_code == 303
    game_id = int(answer.headers["Location"].split("/")[-2])
    # Ann confirms the game she started (every form game waits for its seat 0's "yes, I started it").
    with read_session(get_engine()) as session:
        asked = session.execute(sa.select(Invitation.id).where(
            Invitation.game_id == game_id, Invitation.address == "ann@example.org")).scalar_one()
    consent.accept(asked, utcnow())
    return game_id


def _public(client, game_id: int) -> str:
    pages = [text(client.get(f"/games/{game_id}/created")), text(client.get(f"/games/{game_id}")),
             client.get(f"/api/games/{game_id}").get_data(as_text=True)]
    # Each game's published commitment to its secret deal differs by design: not about addresses.
    pages = [re.sub(r"[0-9a-f]{64}", "COMMITMENT", page) for page in pages]
    return "\n".join(page.replace(f"#{game_id}", "#N").replace(f"/games/{game_id}", "/games/N")
                     .replace(f'"id": {game_id}', '"id": N').replace(f'"id":{game_id}', '"id":N') for page in pages)


def _page(client, game_id: int, seat: int) -> str:
    with read_session(get_engine()) as session:
        player = session.execute(sa.select(Player).where(Player.game_id == game_id, Player.seat == seat)).scalar_one()
    return text(client.get(f"/p/{tokens.page(player)}"))


def test_the_public_pages_say_the_same_whether_an_address_played_here_or_not(client):
    preconsent("ann@example.org", "cy@example.org", "old@example.org")
    played = _start(client, "old@example.org")  # an address that played here before
    new = _start(client, "new@example.org")  # one that never did: it is asked first
    assert _public(client, played) == _public(client, new)
    assert not WAITING.search(_public(client, new))
    # The creator (seat 0, who typed the addresses) reads it on their own page; another player does not.
    assert "We asked Vic" in _page(client, new, 0) or "Vic has not answered" in _page(client, new, 0)
    assert not WAITING.search(_page(client, new, 1))
    assert not WAITING.search(_page(client, played, 0))
