"""The answer to a reply by email (kind "reply"): what was played, or why not with the legal choices,
or that the words went to the table; written by service/inbound, sent through the outbox like any
email, so it goes only to the seat's own address (who agreed to our emails), never to a From.

It hangs under the reply it answers (In-Reply-To: the reply's Message-ID, References: the reply's
References and its Message-ID, as RFC 5322 3.6.4 says), says `Auto-Submitted: auto-replied` (RFC 3834:
a well-behaved responder answers nothing to it) and carries no reply address, so a reply to an answer
goes nowhere that plays, and the door ignores one that comes back anyway (service/inbound/reading.py).

Its params are what the door decided, in words (`first`, `lines`, `choices`: [number, label, text]),
`quoted` (the first lines of what the player wrote), `inbound` (the kept message's id: the tag of a
deterministic Message-ID) and the reply's `reply_id` and `references`.  A person who turned
confirmations off (`reply_settings`) gets none: checked when the door writes it and again at delivery.
"""

from __future__ import annotations

import re
from typing import Any

from sqlmodel import Session

from service.mail.kinds import Context, Kind, Mail, quoted, register
from service.mail.talk_email import unlinked
from service.mail.threads import thread_root
from service.store.models import ReplySetting
from service.views.email_render import gettext as _

KIND = "reply"
# A Message-ID as it may go back into our headers: one token in angle brackets, nothing that could
# end a header line or open another id (a reply's headers are the sender's to write).
MESSAGE_ID = re.compile(r"<[\x21-\x3b\x3d\x3f-\x7e]{1,250}>")
MAX_REFERENCES = 10  # of the reply's References kept (the oldest dropped, as RFC 5322 allows)


def confirmations_on(session: Session, address_key: str) -> bool:
    """Whether the person (their address key) wants answers to their replies (default: yes)."""
    row = session.get(ReplySetting, address_key)
    return row is None or row.confirmations


def clean_ids(values: list[str]) -> list[str]:
    """The well-formed Message-IDs among `values`, in order, each once."""
    found: list[str] = []
    for value in values:
        for candidate in MESSAGE_ID.findall(value or ""):
            if candidate not in found:
                found.append(candidate)
    return found


def _threading(mail: Mail) -> dict[str, str]:
    params = mail.params
    parent = clean_ids([str(params.get("reply_id") or "")])[:1]
    references = clean_ids([str(ref) for ref in params.get("references") or []])[-MAX_REFERENCES:]
    chain = [ref for ref in references if ref not in parent] + parent
    if not chain:
        root = thread_root(mail.game, mail.player)
        return {"In-Reply-To": root, "References": root}
    return {"In-Reply-To": (parent or chain)[-1], "References": " ".join(chain)}


def _context(session: Session, mail: Mail) -> Context:
    params: dict[str, Any] = mail.params
    return {"answer_lines": [str(line) for line in params.get("lines") or []],
            "answer_choices": [(int(n), str(label), str(text)) for n, label, text in params.get("choices") or []],
            # What the reply said, quoted back as table talk is told: a link in it is text, not a link
            # (whoever holds the reply address wrote it; our email must not carry their links).
            "answer_quoted": [unlinked(str(line)) for line in params.get("quoted") or []]}


def _wanted(session: Session, mail: Mail) -> bool:
    return confirmations_on(session, mail.player.address_key)


# `first`, `lines` and the choices' labels are the door's words, kept on the row in English (service/inbound:
# not translated yet, docs/i18n.md); the email's own words around them are the reader's language.
def _line(context: Context) -> str:
    first = str(context["params"].get("first") or "")
    return quoted(context, first) if first else _("We read your reply.")


register(Kind(KIND, _line, template="email/reply",
              context=_context, wanted=_wanted, tag=lambda p: f"reply-{p['inbound']}", reply_to=False,
              auto_submitted="auto-replied", threading=_threading))
