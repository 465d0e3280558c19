"""The Celery app (production phase clock: a worker and beat, see Procfile). `make run` uses django-q2 instead."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "moderator.settings")

app = Celery("moderator")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
