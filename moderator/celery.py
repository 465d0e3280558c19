"""The Celery app (production phase clock: a worker and beat, see Procfile). `make run` uses django-q2 instead.

Database sessions are kept across tasks (settings.CELERY_DB_REUSE_MAX turns off the fixup's close around every
task): after each task `close_old_connections` closes a session that is older than CONN_MAX_AGE or broke (an error),
as Django does after each web request, and before each task the session is checked (one `SELECT 1`: a server
restarted or a pooler that dropped it) and replaced if it does not answer — a close never fails on a dead session.

The broker transport is kombu's Redis transport with one difference (`Transport` below, settings.CELERY_BROKER_TRANSPORT):
a channel of a connection that was already closed fails with a connection error when it needs Redis, not with an
AttributeError. When Redis dies just as a task finishes, the task's late acknowledgement fails and the
message stays unacknowledged; the worker's clean-up of the lost connection closes the connection first, and the
channel's close then tries to put that message back through the closed connection. Kombu reads the address from
the connection, which closing set to None (`'NoneType' object has no attribute 'hostname'`, kombu 5.7.0); Celery
ignores connection errors while it cleans up, but not that one, and without this the worker would exit ("Unrecoverable
error"). As a connection error it is ignored, the worker reconnects, and
the message is not restored — harmless for the clock: the deadline is a column, and the next sweep finds what a
lost message would have closed."""

import os

import redis
from celery import Celery
from celery.signals import task_postrun, task_prerun
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "moderator.settings")


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous=False):
        if self.connection.client is None:  # the connection was closed: there is no Redis to talk to any more
            raise redis.exceptions.ConnectionError("the broker connection is closed")
        return super()._connparams(asynchronous=asynchronous)


class Transport(kombu_redis.Transport):
    Channel = Channel


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
