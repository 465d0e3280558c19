"""python manage.py scenario PATH [PATH ...] — run rule scenarios (docs/scenarios.md)."""

from django.core.management.base import BaseCommand, CommandError

from moderator.management.migrated import ensure_migrated
from moderator.scenarios import collect, run_file


class Command(BaseCommand):
    help = "运行规则情景文件(YAML):逐个打印 PASS/FAIL,最后一行 N passed, M failed"

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+")

    def handle(self, *args, paths: list[str], **options):
        files = collect(paths)
        ensure_migrated(self, ",情景本身不会留下任何数据")  # a fresh clone: no tables yet
        passed = failed = 0
        for path in files:
            outcome = run_file(path)
            if outcome.passed:
                passed += 1
                self.stdout.write(f"PASS {outcome.path}: {outcome.name}")
            else:
                failed += 1
                self.stdout.write(f"FAIL {outcome.path}: {outcome.name}")
                for problem in outcome.problems:
                    self.stdout.write(f"  {problem}")
        self.stdout.write(f"{passed} passed, {failed} failed")
        if failed or not files:
            raise CommandError(f"{failed} scenario(s) failed" if failed else "no scenario files found")
