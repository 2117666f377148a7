"""Riftpost's Celery worker: thin tasks around service/ (send an outbox email, scan the outbox).

    celery -A worker worker -B      # `worker.celery` is the app, built from the Flask app's config
"""

from worker.app import celery, create_celery

__all__ = ["celery", "create_celery"]
