"""python manage.py backup FILE — every game, each in the export format (the file /gm/<id>/export/ downloads:
table, seeds, every input, the posted marks), with the user names of its 天神, each seat's private link and the
game's audit history, in one JSON file; `restore FILE` reads it back. A backup holds the raw player text and the
players' private links: it is written readable by its owner only (0600); keep it as private as the database."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from moderator.management.migrated import ensure_migrated
from moderator.models import Game
from moderator.services.transfer import backup_entry
from moderator.services.transfer_schema import BACKUP_FORMAT


class Command(BaseCommand):
    help = "把所有游戏(导出格式,含每条输入、私人链接和操作记录)写进一个 JSON 备份文件(只有文件主人可读);用 restore 恢复"

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the backup file to write (- for standard output)")

    def handle(self, *args, file: Path, **options):
        ensure_migrated(self)
        games: list[dict[str, Any]] = [
            backup_entry(game) for game in Game.objects.order_by("pk").prefetch_related("gms")
        ]
        text = json.dumps(
            {"format": BACKUP_FORMAT, "written_at": timezone.now().isoformat(), "games": games}, ensure_ascii=False
        )
        if str(file) == "-":
            self.stdout.write(text)
            return
        file.parent.mkdir(parents=True, exist_ok=True)
        partial = file.with_name(file.name + ".partial")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)  # an older partial file of wider mode, or a umask of 0: the owner only, always
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(partial, file)  # a backup interrupted halfway never replaces a good one
        inputs = sum(len(g["export"]["inputs"]) for g in games)
        self.stdout.write(f"已备份 {len(games)} 局游戏({inputs} 条输入)到 {file}(只有文件主人可读写)")
