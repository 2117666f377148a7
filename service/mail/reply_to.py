"""The reply address of a game email: `play+<token>@INBOUND_DOMAIN` (the token: service/links.py),
put into the Reply-To of every email of a game's thread, so a player can answer by email with a move,
a choice's number or a word for the table (service/inbound reads what comes back).

INBOUND_DOMAIN is the configuration's (default: MAIL_DOMAIN, the local sink's in the embedded mode);
"off" leaves Reply-To out and the emails say nothing of replying.  The token is the key, as a link is:
whoever holds the email (a forward included) can answer as its reader, exactly as they could click its
links, and what they can do is what the reader's page allows.
"""

from __future__ import annotations

from service import links, running
from service.store.current import AnyPlayer

LOCAL = "play"


def domain() -> str:
    """INBOUND_DOMAIN as used ("" when replies are off)."""
    return str(running.config().get("INBOUND_DOMAIN", ""))


def address(player: AnyPlayer, seq: int) -> str | None:
    """The player's reply address for the game at `seq`, or None with replies off."""
    where = domain()
    if not where:
        return None
    return f"{LOCAL}+{links.reply_token(player.id, player.row_key, seq, player.link_generation)}@{where}"


def token_of(rcpt: str, inbound_domain: str | None = None) -> str | None:
    """The token of an address with the shape `play+<token>@<INBOUND_DOMAIN>` (any case; angle brackets
    and spaces around it ignored), else None.  Nothing is verified here."""
    where = (domain() if inbound_domain is None else inbound_domain).lower()
    if not where:
        return None
    local, at, host = rcpt.strip().strip("<>").strip().rpartition("@")
    if not at or host.lower().rstrip(".") != where:
        return None
    prefix, plus, token = local.partition("+")
    if not plus or prefix.lower() != LOCAL or not token:
        return None
    return token
