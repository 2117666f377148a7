"""One spelling of an address: the key every comparison of addresses uses (issue #21, item 5).

Delivery goes to exactly what was typed (the stored `players.email`); everything that asks "is this the
same inbox?" (consent, the caps, never-email, bounce marks, vacations, the account page, "fresh links to
all my games") compares keys instead:

- `key(email)`: the domain as email-validator normalises it (Unicode NFC, lower case, an IDNA name in its
  Unicode form) and the part before the @ case-folded, as every large mailbox provider compares it
  (VIC@example.org and vic@example.org are one inbox).  `players.address_key` and `people.email` hold it.
- `limit_key(email)`: the key without a `+tag` (ann+x@ and ann@ are one inbox to the caps and limits, so
  a tag does not buy more invitations).  Never used for delivery.

Pure string work, no I/O: the addresses reaching it were already checked by service/mail/addresses.py.
"""

from __future__ import annotations

import contextlib
import unicodedata


def _domain(domain: str) -> str:
    domain = unicodedata.normalize("NFC", domain.strip().rstrip(".")).lower()
    if "xn--" in domain:
        with contextlib.suppress(UnicodeError):  # not a valid IDNA name: compared as it is
            domain = domain.encode("ascii").decode("idna").lower()
    return domain


def key(email: str) -> str:
    """The address as one inbox: `VIC@Example.ORG` -> `vic@example.org`."""
    local, at, domain = email.strip().rpartition("@")
    if not at:
        return email.strip().casefold()
    return f"{local.casefold()}@{_domain(domain)}"


def limit_key(email: str) -> str:
    """The inbox as the caps count it: `Ann+games@example.org` -> `ann@example.org`."""
    local, at, domain = key(email).rpartition("@")
    if not at:
        return local + domain
    return f"{local.partition('+')[0] or local}@{domain}"
