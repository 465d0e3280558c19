"""The Celery app (production phase clock: a worker and beat, see Procfile). `make run` uses django-q2 instead.

Database sessions are kept across tasks (settings.CELERY_DB_REUSE_MAX turns off the fixup's close around every
task): after each task `close_old_connections` closes a session that is older than CONN_MAX_AGE or broke (an error),
as Django does after each web request, and before each task the session is checked (one `SELECT 1`: a server
restarted or a pooler that dropped it) and replaced if it does not answer — a close never fails on a dead session."""

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "moderator.settings")

app = Celery("moderator")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _eager(sender) -> bool:
    """A task run eagerly runs in the caller's process, maybe inside its transaction: leave its sessions alone."""
    return sender is not None and bool(getattr(sender.request, "is_eager", False))


@task_prerun.connect
def _sessions_checked(sender=None, **kwargs) -> None:
    if _eager(sender):
        return
    from django.db import close_old_connections, connections

    close_old_connections()
    for conn in connections.all(initialized_only=True):
        if conn.connection is not None and not conn.is_usable():
            conn.close()  # the task's first query opens a new one


@task_postrun.connect
def _sessions_aged(sender=None, **kwargs) -> None:
    if _eager(sender):
        return
    from django.db import close_old_connections

    close_old_connections()
