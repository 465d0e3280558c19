"""A command run in a fresh clone before `make run` meets a database without tables: it migrates first and says so
(README: every command works as written), instead of failing with "no such table"."""

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def ensure_migrated(command: BaseCommand, note: str = "") -> None:
    executor = MigrationExecutor(connection)
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        command.stderr.write(f"数据库还没有建好表:先执行 migrate(和 make run 一样){note}。")
        call_command("migrate", verbosity=0, interactive=False)
