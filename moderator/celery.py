"""The Celery app (production phase clock: a worker and beat, see Procfile). `make run` uses django-q2 instead.

Database sessions are kept across tasks (settings.CELERY_DB_REUSE_MAX turns off the fixup's close around every
task): before and after each task, `close_old_connections` closes a session that is older than CONN_MAX_AGE or broken
(an error, a restarted server) and arms CONN_HEALTH_CHECKS, exactly what Django does around each web request."""

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "moderator.settings")

app = Celery("moderator")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _sessions_checked(sender=None, **kwargs) -> None:
    """Not for a task run eagerly (in the caller's process, maybe inside its transaction): as the fixup does."""
    if sender is not None and getattr(sender.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
