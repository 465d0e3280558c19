"""`make run`: the web server and the embedded phase scheduler (django-q2 on the ORM broker) together.

Quiet by default: the scheduler's routine INFO lines (a sweep queued, processed, … every poll) are not
printed; warnings and errors are. `--verbose` shows them all. Ctrl-C or SIGTERM stops the scheduler too: it runs in
its own process group (so one Ctrl-C reaches runall only, which stops it in order), gets SIGTERM and is killed if it
has not stopped within the grace period (a close due within the minute may be running).

The web server reloads itself when a Python file changes (Django's autoreloader; `--noreload` turns it off): the
reloader's parent process owns the scheduler, and only the web server in its child restarts. The address defaults to
127.0.0.1:$PORT (PORT=8000 unless set).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.utils import autoreload

GRACE_SECONDS = 90  # django-q2's timeout: a phase sweep may hold a worker this long
QUIET_CLUSTER = (
    "import logging, os, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'moderator.settings'); "
    "django.setup(); import django_q.conf; "
    "logging.getLogger('django-q').setLevel(logging.WARNING); "
    "from django.core.management import call_command; call_command('qcluster')"
)


def _exit_on_sigterm(_signum, _frame):
    raise SystemExit(0)


class Command(BaseCommand):
    help = "同时启动网页服务和内置的阶段时钟(django-q2,无需 Redis);Ctrl-C 或 SIGTERM 会一起停止两者"

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default=f"127.0.0.1:{os.environ.get('PORT') or 8000}")
        parser.add_argument("--noreload", action="store_true", help="改了代码也不自动重启网页服务")
        parser.add_argument("--verbose", action="store_true", help="显示阶段时钟的全部日志(默认只显示警告和错误)")

    def handle(self, *args, addrport: str, verbose: bool = False, noreload: bool = False, **options):
        from moderator.tasks import ensure_q_schedule

        if os.environ.get(autoreload.DJANGO_AUTORELOAD_ENV) == "true":  # the reloader's child: the web server only
            call_command("runserver", addrport, use_reloader=True)
            return

        ensure_q_schedule()  # the phase sweep, on django-q2's ORM broker: no Redis needed
        command = [sys.executable, "manage.py", "qcluster"] if verbose else [sys.executable, "-c", QUIET_CLUSTER]
        cluster = subprocess.Popen(command, start_new_session=True)
        self.stdout.write(f"阶段时钟已启动(进程 {cluster.pid});按 Ctrl-C 停止网页服务和阶段时钟。")
        previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
        try:
            call_command("runserver", addrport, use_reloader=not noreload)
        finally:
            signal.signal(signal.SIGTERM, previous)
            self._stop(cluster)

    def _stop(self, cluster: subprocess.Popen) -> None:
        if cluster.poll() is not None:
            return
        cluster.terminate()
        try:
            cluster.wait(timeout=GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            cluster.kill()
            cluster.wait()
        self.stdout.write("阶段时钟已停止。")
