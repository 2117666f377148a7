"""The email kinds of rematches (service/play/rematch.py), in the finished game's thread:

- `rematch`: a player's question "play again?" to each other player.  Its link opens the reader's
  seat's rematch page, whose buttons accept or say "No thanks" (a GET changes nothing).
- `rematch_declined`: a player said "No thanks": to every other person of the game (the asker
  among them), the rematch is closed; the link opens the reader's rematch page, where one may ask anew."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, col

from service import links, paths
from service.lang import N_
from service.mail.kinds import Context, Kind, Mail, register
from service.store.models import Rematch, RematchClosure
from service.views.email_render import gettext as _

SEATING_WORDS = {"kept": N_("the same seats"), "swapped": N_("seats swapped"), "random": N_("seats drawn at random")}


def _rematch(session: Session, mail: Mail) -> Context:
    found = session.get(Rematch, int(mail.params["rematch"]))
    assert found is not None
    return {"rematch": found, "asker": mail.names.get(found.asked_by, _("A player")),
            "seating_words": _(SEATING_WORDS[found.seating]) if found.seating in SEATING_WORDS else found.seating,
            "new_seats": [(seat, mail.names.get(old, _("Player %(number)s", number=old + 1)))
                          for seat, old in enumerate(found.order)],
            # The reader's seat's rematch page (the play page's token, as compose.py's player_url).
            "rematch_url": _rematch_url(mail)}


def _wanted(session: Session, mail: Mail) -> bool:
    """Only while the rematch waits for this seat."""
    found = session.get(Rematch, int(mail.params["rematch"]))
    if found is None or found.new_game_id is not None or mail.player.seat in found.accepted:
        return False
    # The question of this ask, not of one declined before it (whose row id SQLite may have reused).
    closed = session.execute(sa.select(sa.func.count()).select_from(RematchClosure)
                             .where(col(RematchClosure.game_id) == found.game_id)).scalar_one()
    return int(closed) == int(mail.params.get("round", 0))


def _line(context: Context) -> str:
    return _("%(name)s asks to play %(game)s again (%(seating)s). One press on the page accepts; another says no "
             "thanks.", name=context["asker"], game=context["title"], seating=context["seating_words"])


register(Kind("rematch", _line, context=_rematch, wanted=_wanted,
              tag=lambda p: f"rematch{p['rematch']}" + (f".{p['round']}" if p.get("round") else "")))


def _rematch_url(mail: Mail) -> str:
    player = mail.player
    return paths.url("rematch.page", token=links.player_token(player.id, player.row_key, player.link_generation))


def _declined(session: Session, mail: Mail) -> Context:
    closed = session.get(RematchClosure, int(mail.params["closure"]))
    assert closed is not None
    return {"closed": closed, "decliner": mail.names.get(closed.declined_by, _("A player")),
            "asker": None if closed.asked_by == mail.player.seat else mail.names.get(closed.asked_by, _("a player")),
            "rematch_url": _rematch_url(mail)}


def _declined_line(context: Context) -> str:
    """"Bo said no thanks to your rematch of Riftforce: it is closed." (to the asker), "... to the
    rematch of Riftforce that Ana asked for: ..." (to the others)."""
    if context["asker"] is None:
        return _("%(name)s said no thanks to your rematch of %(game)s: it is closed.",
                 name=context["decliner"], game=context["title"])
    return _("%(name)s said no thanks to the rematch of %(game)s that %(asker)s asked for: it is closed.",
             name=context["decliner"], game=context["title"], asker=context["asker"])


register(Kind("rematch_declined", _declined_line, context=_declined,
              tag=lambda p: f"rematch-closed{p['closure']}"))
