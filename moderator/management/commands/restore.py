"""python manage.py restore FILE [--gm NAME] — put back the games of a `backup` file. The whole file is checked
first (its shape, then each game as an uploaded export is): a malformed file ends with one line saying what is wrong
and where, exit status 1, nothing written. Then each game is imported and replayed, all or nothing, under its own name
and identity. Games are known by their identity (format 2's `uid`), never by their name — names repeat: a game is
skipped only when that same game is already in the database, and the line says which and why (a restore run twice
adds nothing). A file of format 1 has no identities: there the same game is the one of the same name, default-order
seed and seated players. The last line counts the games, seats, inputs and audit rows written.

Games are attached only to accounts that exist (the file's 天神 names) or to the one named with --gm: no account is
ever created from a file; the names with no account are listed. Each seat keeps its private link unless another
seat already uses it (then it gets a new one, and the seat is named); the audit history is kept."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, transaction

from moderator.management.migrated import ensure_migrated
from moderator.services.transfer import ImportRefused, backup_parse, restore_game


class Command(BaseCommand):
    help = "从 backup 写的 JSON 文件恢复所有游戏(先检查整个文件;逐局导入并重放;全部成功才保存)"

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--gm", metavar="NAME", help="also attach every restored game to this existing account")

    def handle(self, *args, file: Path, gm: str | None = None, **options):
        try:
            raw = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"读不了备份文件 {file}:{exc.strerror or exc}") from None
        try:
            backup = backup_parse(raw)
        except ImportRefused as exc:
            raise CommandError(f"{file} 不能恢复,什么都没有写入:{exc}") from None
        ensure_migrated(self)
        account = None
        if gm is not None:
            account = get_user_model().objects.filter(username=gm).first()
            if account is None:
                raise CommandError(f"--gm {gm}:没有这个账号(restore 不会新建账号;先 createsuperuser),什么都没有写入")
        done = []
        try:
            with transaction.atomic():
                for n, entry in enumerate(backup.games, 1):
                    try:
                        done.append(restore_game(entry, gm=account))
                    except ImportRefused as exc:
                        name = entry.export["game"]["name"]
                        raise CommandError(f"第 {n} 局“{name}”无法恢复:{exc};什么都没有保存") from None
        except DatabaseError as exc:
            raise CommandError(f"数据库拒绝了写入({type(exc).__name__}),什么都没有保存") from None
        restored = [r for r in done if r.game is not None]
        for r, entry in zip(done, backup.games, strict=True):
            if r.game is None:
                self.stdout.write(self._skipped(r, entry.uid is not None))
                continue
            if r.missing_gms:
                self.stdout.write(f"“{r.name}”:这些天神账号不存在,没有新建,也没有挂上:{'、'.join(r.missing_gms)}")
            if not r.game.gms.exists():
                self.stdout.write(f"“{r.name}”:没有任何天神(用 --gm NAME 指定一个已有账号)")
            if r.new_links:
                self.stdout.write(f"“{r.name}”:这些座位的私人链接与现有链接冲突,已换成新链接:{'、'.join(r.new_links)}")
        rows = {k: sum(r.rows.get(k, 0) for r in restored) for k in ("seats", "inputs", "audit")}
        self.stdout.write(
            f"已恢复 {len(restored)} 局游戏,跳过 {len(done) - len(restored)} 局({file});写入:"
            f"游戏 {len(restored)} 局,座位 {rows['seats']} 个,输入 {rows['inputs']} 条,操作记录 {rows['audit']} 条"
        )

    @staticmethod
    def _skipped(r, by_uid: bool) -> str:
        there = r.already
        if by_uid:
            why = f"编号 {there.uid} 的这一局已经在数据库里(第 {there.pk} 号游戏“{there.name}”)"
        else:
            why = (
                f"旧格式的备份没有编号,而第 {there.pk} 号游戏与它同名、默认丢牌顺序种子相同、座位上的玩家相同,是同一局"
            )
        return f"跳过“{r.name}”:{why},没有再写一遍"
