"""A Maildir of received mail, read in delivery order: the local mail sink (service/mailsink.py) writes
it, the dev mailbox page and the tests read it.  Needs no SMTP server library."""

from __future__ import annotations

import mailbox
import re
from email import message_from_bytes, policy
from pathlib import Path


def ensure_maildir(path: Path) -> None:
    # mailbox.Maildir(create=True) makes the subfolders only when the folder itself is new.
    for sub in ("tmp", "new", "cur"):
        (path / sub).mkdir(parents=True, exist_ok=True)


def delivery_order(key: str) -> tuple:
    """Sort key of a Maildir key: "<seconds>.M<microseconds>P<pid>Q<n>.<host>" in time order."""
    seconds, _, rest = key.partition(".")
    match = re.match(r"M(\d+)", rest)
    try:
        return (int(seconds), int(match.group(1)) if match else 0, key)
    except ValueError:
        return (0, 0, key)


def read_all(maildir: str | Path) -> list:
    """Every message in the Maildir, oldest first, as email.message.EmailMessage objects."""
    ensure_maildir(Path(maildir))
    box = mailbox.Maildir(Path(maildir), factory=None)
    found = []
    for key in box.keys():  # noqa: SIM118 - iterating a Mailbox yields its messages, not its keys
        with box.get_file(key) as handle:
            message = message_from_bytes(handle.read(), policy=policy.default)
        found.append((key, message))
    found.sort(key=lambda item: delivery_order(item[0]))
    return [message for _key, message in found]
