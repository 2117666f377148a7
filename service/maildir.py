"""A Maildir of received mail, read in delivery order: the local mail sink (service/mailsink.py) writes
it, the dev mailbox page and the tests read it.  Needs no SMTP server library."""

from __future__ import annotations

import re
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
