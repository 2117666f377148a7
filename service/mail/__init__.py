"""Email: the kind registry (kinds.py), rendering (compose.py), the outbox (outbox.py), Message-IDs
(threads.py), SMTP (smtp.py) and the kick to the worker (queue.py)."""
