"""The player a page's signed link names (service/links.py): 400 for a tampered link, 410 for an
expired one, 404 for one of another database."""

from __future__ import annotations

from sqlmodel import Session

from service import links, store
from service.store.models import Player


def player_of(session: Session, token: str) -> Player:
    return store.get_player(session, links.read_player_token(token).player_id)
