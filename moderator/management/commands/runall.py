"""`make run`: the web server and the embedded phase scheduler (django-q2 on the ORM broker) together."""

import subprocess
import sys

from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "同时启动网页服务和内置的阶段时钟(django-q2,无需 Redis)"

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")

    def handle(self, *args, addrport: str, **options):
        from moderator.tasks import ensure_q_schedule

        ensure_q_schedule()  # the phase sweep, on django-q2's ORM broker: no Redis needed
        cluster = subprocess.Popen([sys.executable, "manage.py", "qcluster"])
        try:
            call_command("runserver", addrport, use_reloader=False)
        finally:
            cluster.terminate()
            cluster.wait(timeout=90)  # a django-q2 run may hold a close due within the minute
