"""The email kinds of rematches (service/play/rematch.py): `rematch`, a player's question "play again?"
to each other player, in the finished game's thread.  Its link opens the reader's seat's rematch page,
whose button accepts (a GET changes nothing)."""

from __future__ import annotations

from sqlmodel import Session

from service import links, paths
from service.lang import N_
from service.mail.kinds import Context, Kind, Mail, register
from service.store.models import Rematch
from service.views.email_render import gettext as _

SEATING_WORDS = {"kept": N_("the same seats"), "swapped": N_("seats swapped"), "random": N_("seats drawn at random")}


def _rematch(session: Session, mail: Mail) -> Context:
    found = session.get(Rematch, int(mail.params["rematch"]))
    assert found is not None
    player = mail.player
    return {"rematch": found, "asker": mail.names.get(found.asked_by, _("A player")),
            "seating_words": _(SEATING_WORDS[found.seating]) if found.seating in SEATING_WORDS else found.seating,
            "new_seats": [(seat, mail.names.get(old, _("Player %(number)s", number=old + 1)))
                          for seat, old in enumerate(found.order)],
            # The reader's seat's rematch page (the play page's token, as compose.py's player_url).
            "rematch_url": paths.url("rematch.page",
                                     token=links.player_token(player.id, player.row_key, player.link_generation))}


def _wanted(session: Session, mail: Mail) -> bool:
    """Only while the rematch waits for this seat."""
    found = session.get(Rematch, int(mail.params["rematch"]))
    return found is not None and found.new_game_id is None and mail.player.seat not in found.accepted


def _line(context: Context) -> str:
    return _("%(name)s asks to play %(game)s again (%(seating)s). One press on the page accepts.",
             name=context["asker"], game=context["title"], seating=context["seating_words"])


register(Kind("rematch", _line, context=_rematch, wanted=_wanted, tag=lambda p: f"rematch{p['rematch']}"))
