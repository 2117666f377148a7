"""Riftpost's Celery worker: thin tasks around service/ (send an outbox email, scan the outbox).

    celery -A worker worker -B      # `worker.celery` is the app, from the settings the Flask app reads

The worker makes its app (settings and database, never the Flask app) and imports the tasks as it
starts; beat never does (worker/app.py).
"""

from worker.app import celery, create_celery

__all__ = ["celery", "create_celery"]
