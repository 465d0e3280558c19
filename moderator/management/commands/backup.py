"""python manage.py backup FILE — every game, each in the export format (the file /gm/<id>/export/ downloads:
table, seeds, every input, the posted marks), with the user names of its 天神, in one JSON file; `restore FILE`
reads it back. A backup holds the raw player text: keep it as private as the database."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from moderator.management.migrated import ensure_migrated
from moderator.models import Game
from moderator.services.transfer import export_game

FORMAT = "direnjie-backup/1"


class Command(BaseCommand):
    help = "把所有游戏(导出格式,含每条输入)写进一个 JSON 备份文件;用 restore 恢复"

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="the backup file to write (- for standard output)")

    def handle(self, *args, file: Path, **options):
        ensure_migrated(self)
        games: list[dict[str, Any]] = [
            {"gms": sorted(game.gms.values_list("username", flat=True)), "export": export_game(game)}
            for game in Game.objects.order_by("pk").prefetch_related("gms")
        ]
        text = json.dumps(
            {"format": FORMAT, "written_at": timezone.now().isoformat(), "games": games}, ensure_ascii=False
        )
        if str(file) == "-":
            self.stdout.write(text)
            return
        file.parent.mkdir(parents=True, exist_ok=True)
        partial = file.with_name(file.name + ".partial")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, file)  # a backup interrupted halfway never replaces a good one
        inputs = sum(len(g["export"]["inputs"]) for g in games)
        self.stdout.write(f"已备份 {len(games)} 局游戏({inputs} 条输入)到 {file}")
