"""What the player page's talk panel shows (service/templates/talk/_panel.html); the forms it posts
to are service/web/talk.py's."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from service import store
from service.store.inboxes import key as inbox_key
from service.store.models import Player, TalkOpen
from service.talk import messages


def page_talk(session: Session, player: Any) -> dict[str, Any]:
    """What the player page's talk panel shows (service/templates/talk/_panel.html)."""
    viewer = session.get(Player, player.id)
    assert viewer is not None
    game = store.get_game(session, player.game_id)
    muted = messages.muted_by(session, viewer)
    players = store.players_of(session, game.id)
    names = store.seat_names(players)
    return {
        "messages": messages.visible(session, game.id, viewer),
        "channels": messages.channels(session, viewer),
        "team": [names[s] for s in messages.team_of(session, game, viewer.seat) if s != viewer.seat],
        "muted": [(p.seat, names[p.seat]) for p in players if inbox_key(p.email) in muted and p.id != viewer.id],
        "open": session.get(TalkOpen, game.id) is not None,
        "max_chars": messages.MAX_CHARS,
    }
