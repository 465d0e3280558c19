"""`manage.py backup` writes a file only its owner can read, holding each seat's private link and the audit history;
`manage.py restore` checks the whole file before writing anything — a malformed one ends with one line saying what is
wrong and where (exit status 1) —, attaches games only to accounts that exist or to `--gm NAME`, keeps the players'
links unless they clash, and keeps the audit history."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from moderator.models import AuditLog, Game, Seat
from moderator.services import setup
from tests.world import TABLE, game_make, gm_make

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def _run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.fixture
def backup(tmp_path) -> tuple[Path, dict]:
    """One running game of 天神 tianshen, with a pause and a resume in its history, backed up."""
    gm = gm_make()
    game = game_make(name="备份局", players=TABLE, gm=gm)
    setup.game_start(game=game, at=game.created_at)
    AuditLog.objects.create(game=game, actor=gm, action="暂停", detail={"note": "原来的记录"})
    file = tmp_path / "backup.json"
    assert "已备份 1 局游戏" in _run("backup", str(file))
    return file, json.loads(file.read_text(encoding="utf-8"))


def _malformed(tmp_path, data) -> Path:
    bad = tmp_path / "bad.json"
    bad.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return bad


def test_the_backup_file_is_readable_by_its_owner_only(backup):
    file, _ = backup
    assert stat.S_IMODE(os.stat(file).st_mode) == 0o600


@pytest.mark.parametrize(
    ("break_it", "said"),
    [
        (lambda d: "[" * 100_000 + "]" * 100_000, "嵌套太深"),
        (
            lambda d: {**d, "games": [{**d["games"][0], "export": {**d["games"][0]["export"], "game": "x"}}]},
            "第 1 局(games · 第 1 项 · export)· game:需要一个 JSON 对象",
        ),
        (lambda d: {**d, "games": [{**d["games"][0], "gms": 5}]}, "games · 第 1 项 · gms:需要一个 JSON 列表"),
        (lambda d: json.loads(json.dumps(d).replace('"\\u7532"', '"\\u7532\\u0000"', 1)), "不能含有 NUL 字符"),
        (lambda d: "{not json", "不是有效的 JSON 文件:第 1 行第 2 列附近写错了"),
        (
            lambda d: {**d, "games": [{**d["games"][0], "links": {"1": "short"}}]},
            "games · 第 1 项 · links · 1:格式不对",
        ),
    ],
    ids=["deep-nesting", "game-is-a-string", "gms-is-a-number", "nul-in-a-name", "not-json", "bad-link"],
)
def test_a_malformed_backup_ends_with_one_clear_line_and_writes_nothing(backup, tmp_path, break_it, said):
    _, data = backup
    Game.objects.all().delete()
    audit = AuditLog.objects.count()
    with pytest.raises(CommandError) as refused:
        _run("restore", str(_malformed(tmp_path, break_it(data))))
    line = str(refused.value)
    assert "\n" not in line and said in line and "什么都没有写入" in line, line
    assert not Game.objects.exists() and AuditLog.objects.count() == audit


def test_a_malformed_backup_exits_with_status_1_and_one_line_on_stderr(tmp_path):
    """The command as an operator runs it; the file is refused before the database is opened."""
    bad = _malformed(tmp_path, {"format": "direnjie-backup/1", "games": [{"gms": 5, "export": {}}]})
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'never.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "tests.settings",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "restore", str(bad)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "gms:需要一个 JSON 列表" in lines[0] and "Traceback" not in done.stderr
    assert not (tmp_path / "never.sqlite3").exists() or (tmp_path / "never.sqlite3").stat().st_size == 0


def test_games_are_attached_only_to_existing_accounts_or_the_one_named(backup):
    file, data = backup
    data["games"][0]["gms"] = ["tianshen", "root3"]
    file.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    Game.objects.all().delete()
    with pytest.raises(CommandError, match="--gm nobody:没有这个账号"):
        _run("restore", str(file), "--gm", "nobody")
    assert not Game.objects.exists()
    other = get_user_model().objects.create_user("second", password="pw-123456")
    out = _run("restore", str(file), "--gm", "second")
    assert "这些天神账号不存在,没有新建,也没有挂上:root3" in out
    assert not get_user_model().objects.filter(username="root3").exists()
    game = Game.objects.get()
    assert sorted(game.gms.values_list("username", flat=True)) == ["second", "tianshen"]
    assert other.gm_games.get() == game


def test_a_restore_keeps_the_links_unless_they_clash_and_keeps_the_audit_history(backup):
    file, _ = backup
    links = {s.number: s.token for s in Seat.objects.all()}
    history = list(AuditLog.objects.order_by("at", "id").values_list("action", "at"))
    Game.objects.all().delete()
    # Another game now uses seat 2's old link: that seat gets a new one, and the restore says which.
    taken = setup.table_create(name="别的局", players=TABLE)
    Seat.objects.filter(game=taken, number=1).update(token=links[2])
    out = _run("restore", str(file))
    assert "私人链接与现有链接冲突,已换成新链接:2 号 乙" in out
    game = Game.objects.get(name="备份局")
    now = {s.number: s.token for s in game.seats.all()}
    assert now[2] != links[2] and all(now[n] == links[n] for n in links if n != 2)
    restored = list(AuditLog.objects.filter(game=game).order_by("at", "id").values_list("action", "at"))
    assert restored[:-1] == history and restored[-1][0] == "从备份恢复"
    assert AuditLog.objects.get(game=game, action="暂停").detail == {"note": "原来的记录"}
