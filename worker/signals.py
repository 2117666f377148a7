"""What a worker process does as it stops: say goodbye to the SMTP server it kept a connection to
(service/mail/smtp.py keeps one per process across messages)."""

from __future__ import annotations

from typing import Any

from celery.signals import worker_process_shutdown, worker_shutdown

from service.mail import smtp


# worker_shutdown: the main process (the Procfile's --pool=solo sends mail there); worker_process_shutdown:
# each child of a prefork pool, which kept a connection of its own.
@worker_shutdown.connect
@worker_process_shutdown.connect
def close_smtp(**_: Any) -> None:
    smtp.close_all()
