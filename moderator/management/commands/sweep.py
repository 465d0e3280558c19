"""python manage.py sweep — close every overdue phase once (cron, or by hand); --install-schedule sets up the
django-q2 schedule that sweeps for the embedded scheduler (`make run`)."""

from django.core.management.base import BaseCommand

from moderator.management.migrated import ensure_migrated
from moderator.services import clock
from moderator.tasks import ensure_q_schedule


class Command(BaseCommand):
    help = "关闭所有到期的时段(可重复运行:每个时段只会关闭一次);--install-schedule 建立 django-q2 定时扫描"

    def add_arguments(self, parser):
        parser.add_argument("--install-schedule", action="store_true", help="create or update the django-q2 schedule")

    def handle(self, *args, install_schedule: bool, **options):
        ensure_migrated(self)
        if install_schedule:
            schedule = ensure_q_schedule()
            self.stdout.write(f"django-q2 schedule “{schedule.name}”: {schedule.func} every minute")
            return
        self.stdout.write(f"closed {clock.sweep()}")
