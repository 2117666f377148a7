"""The email kinds of the lobby (service/play/lobby.py), hung on the open game and the seat concerned:

- `lobby_join`: the one confirmation email of a join asked by typing an address.  Whoever typed it may
  not own it, so it is written like the invitation (`unsolicited`): its own subject, no display name in
  To, no text typed by a stranger (the name given with the address is not shown; the creator's name is
  made unlinkable), and it asks nothing but the press of the link's button.  Sent only while the join
  still holds its seat and is not confirmed.
- `lobby_expired`: to everyone who had joined (the creator too) when the game expired unfilled.
- `lobby_cancelled`: to everyone who had joined (not the creator, who cancelled it) when the creator
  cancelled the open game.
"""

from __future__ import annotations

from sqlmodel import Session

from service import links, paths
from service.mail.kinds import Context, Kind, Mail, game_ref, register
from service.names import unlinkable
from service.store.models import Joining, OpenGame
from service.views import profile
from service.views.email_render import gettext as _
from service.views.email_render import locale


def _creator(mail: Mail) -> str:
    creator = next((p for p in mail.players if p.seat == 0), mail.player)
    return unlinkable(creator.name)


def _join(session: Session, mail: Mail) -> Context:
    joining = session.get(Joining, int(mail.params["joining"]))
    assert joining is not None
    opened = session.get(OpenGame, joining.open_game_id)
    assert opened is not None
    creator = next((p for p in mail.players if p.seat == 0), mail.player)
    return {
        "creator": _creator(mail), "seats": opened.seats, "pace": opened.deadline_hours,
        "about": profile.profile(session, creator.address_key).line(_creator(mail), locale()),
        "confirm_url": paths.url("lobby.confirm_page", token=links.lobby_join_token(joining.id, joining.nonce)),
    }


def _join_wanted(session: Session, mail: Mail) -> bool:
    joining = session.get(Joining, int(mail.params["joining"]))
    if joining is None or joining.confirmed_at is not None or joining.lapsed_at is not None:
        return False
    opened = session.get(OpenGame, joining.open_game_id)
    return opened is not None and opened.status == "open"  # not for a game cancelled (or ended) meanwhile


def _join_line(context: Context) -> str:
    return _("Someone asked to join a game of %(game)s on Riftpost, started by %(name)s, with this address. Was "
             "it you?", game=context["title"], name=context["creator"])


def _join_subject(context: Context) -> str:
    return _("Confirm: join a game of %(game)s on Riftpost?", game=context["title"])


def _expired(session: Session, mail: Mail) -> Context:
    return {"creator": _creator(mail), "lobby_url": paths.url("lobby.index")}


def _expired_line(context: Context) -> str:
    return _("The game of %(game)s started by %(name)s expired before its seats were filled, so it will not be "
             "played.", game=context["title"], name=context["creator"])


def _cancelled_line(context: Context) -> str:
    return _("%(name)s cancelled the game of %(game)s you joined, before its seats were filled, so it will not be "
             "played.", name=context["creator"], game=context["title"])


register(Kind("lobby_join", _join_line, context=_join, wanted=_join_wanted, unsolicited=True,
              subject=_join_subject, tag=lambda p: f"join{p['joining']}"))
register(Kind("lobby_expired", _expired_line, context=_expired,
              subject=lambda c: _("Expired unfilled: %(game)s", game=game_ref(c)),
              tag=lambda p: f"expired{p['open_game']}"))
register(Kind("lobby_cancelled", _cancelled_line, context=_expired,
              subject=lambda c: _("Cancelled: %(game)s", game=game_ref(c)),
              tag=lambda p: f"cancelled{p['open_game']}"))
