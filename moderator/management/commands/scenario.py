"""python manage.py scenario PATH [PATH ...] — run rule scenarios (../shared/SCENARIOS.md)."""

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from moderator.scenarios import collect, run_file


class Command(BaseCommand):
    help = "运行规则情景文件(YAML):逐个打印 PASS/FAIL,最后一行 N passed, M failed"

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+")

    def handle(self, *args, paths: list[str], **options):
        files = collect(paths)
        executor = MigrationExecutor(connection)
        if executor.migration_plan(executor.loader.graph.leaf_nodes()):  # a fresh clone: no tables yet
            self.stderr.write("数据库还没有建好表:先执行 migrate(和 make run 一样),情景本身不会留下任何数据。")
            call_command("migrate", verbosity=0, interactive=False)
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
