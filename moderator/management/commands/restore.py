"""python manage.py restore FILE — put back the games of a `backup` file: each is imported and replayed exactly as an
uploaded export is (checked against the export schema first). All or nothing: one game that does not replay and
nothing is written. A game whose name is already in the database is skipped, and said so (a restore run twice adds
nothing)."""

from __future__ import annotations

import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from moderator.management.commands.backup import FORMAT
from moderator.management.migrated import ensure_migrated
from moderator.models import Game
from moderator.services.transfer import ImportRefused, import_game


class Command(BaseCommand):
    help = "从 backup 写的 JSON 文件恢复所有游戏(逐局导入并重放;全部成功才保存)"

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)

    def handle(self, *args, file: Path, **options):
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CommandError(f"读不了备份文件 {file}:{exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("games"), list):
            raise CommandError(f"{file} 不是 backup 命令写的备份文件(需要 format = {FORMAT})")
        ensure_migrated(self)
        users = get_user_model().objects
        restored = skipped = 0
        with transaction.atomic():
            for n, entry in enumerate(data["games"], 1):
                export = entry.get("export") if isinstance(entry, dict) else None
                name = (export or {}).get("game", {}).get("name") if isinstance(export, dict) else None
                if name and Game.objects.filter(name=name).exists():
                    skipped += 1
                    self.stdout.write(f"跳过第 {n} 局“{name}”:数据库里已经有同名的游戏")
                    continue
                try:
                    game = import_game(export, restore=True)
                except ImportRefused as exc:
                    raise CommandError(f"第 {n} 局“{name or '?'}”无法恢复:{exc};什么都没有保存") from None
                game.gms.add(*users.filter(username__in=entry.get("gms") or []))
                restored += 1
        self.stdout.write(f"已恢复 {restored} 局游戏,跳过 {skipped} 局({file})")
