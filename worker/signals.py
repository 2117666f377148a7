"""What a worker process does as it stops: say goodbye to the SMTP server it kept a connection to
(service/mail/smtp.py keeps one per process across messages).  And, every TRIM_EVERY tasks (a batch
of emails counting as its emails), hand the memory its tasks freed back to the system (glibc keeps
freed memory for the process's later use: after 1,000 emails a few MB of it; bench/memory.py), and
keep it in one malloc arena (`one_arena`)."""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

from celery.signals import task_postrun, worker_process_shutdown, worker_shutdown

from service.mail import outbox, smtp

TRIM_EVERY = 100


# worker_shutdown: the main process (a solo or threads pool sends mail there); worker_process_shutdown:
# each child of a prefork pool, which kept a connection of its own.
@worker_shutdown.connect
@worker_process_shutdown.connect
def close_smtp(**_: Any) -> None:
    smtp.close_all()


def _glibc(name: str) -> Any:
    """glibc's function `name`, or None (another C library)."""
    try:
        return getattr(ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6"), name)
    except (OSError, AttributeError):
        return None


_trim = _glibc("malloc_trim")
_mallopt = _glibc("mallopt")
_done = 0

# glibc's mallopt parameter for the most malloc arenas a process may make (malloc.h's M_ARENA_MAX).
M_ARENA_MAX = -8


def one_arena() -> bool:
    """At most one malloc arena in this process (glibc's mallopt; False elsewhere), set before the
    pool's threads start.  glibc gives each thread that allocates an arena of its own (up to eight a
    core), and freed memory stays in the arena that held it: a worker of 4 threads held 92.6 MB after
    1,000 emails against 89.0 with one arena (bench/memory.py; the target is 90).  One Python thread
    runs at a time (the GIL), so the threads hardly ever wait on the arena's lock; the CPU per email was
    the same (bench/delivery.py)."""
    return _mallopt is not None and bool(_mallopt(M_ARENA_MAX, 1))


def trim() -> None:
    """malloc_trim(0): hand the free pages of the C heap back to the system (~1 ms; nothing elsewhere
    than glibc)."""
    if _trim is not None:
        _trim(0)


@task_postrun.connect
def trim_memory(task: Any = None, args: Any = None, **_: Any) -> None:
    """Every TRIM_EVERY tasks: trim().  A batch of deliveries counts as its emails: the memory freed is
    theirs."""
    global _done
    before = _done
    _done += len(args[0]) if getattr(task, "name", None) == outbox.SEND_BATCH_TASK and args else 1
    if _done // TRIM_EVERY != before // TRIM_EVERY:
        trim()
