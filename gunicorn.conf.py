"""gunicorn's settings for the Procfile's `web` (`gunicorn -c gunicorn.conf.py`; the Procfile gives the
address, from $PORT).

One worker process with threads, not several processes: each process holds its own copy of the app
(about 90 MB, mostly the imported modules: SQLAlchemy, SQLModel, Flask, Celery's client), and preloading
the app in the master shares those pages only until the workers' reference counts write to them (two
preloaded workers still hold about 150 MB PSS after 1,000 moves, bench/memory.py).  Threads serve
several requests at once in that one copy; a request spends much of its time waiting on the database
and the broker.  One process is also what the rate limits' default in-memory counters
(RATELIMIT_STORAGE_URL=memory://) count right.  Scale out with more machines or processes, and a
shared rate-limit storage (README, configuration).
"""

import os

# WEB_CONCURRENCY (gunicorn's own variable) where CPU, not memory, is short: a process runs Python on
# one core at a time, so on N cores with PostgreSQL and a shared rate-limit storage N processes carry
# about N times the moves per second (bench/moves.py measures 1 process for latency, 2 for throughput).
workers = int(os.environ.get("WEB_CONCURRENCY") or 1)
threads = 4  # gthread: the app is thread-safe (SQLAlchemy's pool, locks around the history cache)
# The access log (the Procfile's --access-logfile -) without the tokens of player links: a link is its
# token, and a log is read by more people than the players (service/accesslog.py).
logger_class = "service.accesslog.TokenlessLogger"
