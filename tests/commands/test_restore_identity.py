"""A backup knows each game by its identity, never by its name: names repeat (the new-game form offers one default
name), so two 天神's games of the same name both come back whole, every row of them; a game is skipped only when that
same game is already there, and the line says which and why; a file of the older format (no identities) is still read,
and there too a same-named game of someone else is restored, not skipped."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from moderator.models import AuditLog, Game, Input, InputVoid, Message, Phase, Seat, SeatHolder
from moderator.rules.scenario import load
from moderator.scenarios import play_game
from moderator.services import setup
from moderator.services.transfer import export_game
from tests.console.conftest import TABLE

pytestmark = pytest.mark.django_db
SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "shared" / "06_pardon.yaml"
DEFAULT = "神探狄仁杰"  # the new-game form's default name


def _run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def _rows() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in (Game, Seat, SeatHolder, Phase, Message, Input, InputVoid, AuditLog)}


def _by_uid() -> dict[str, tuple[dict, list[str]]]:
    return {
        str(g.uid): (export_game(g), sorted(g.gms.values_list("username", flat=True)))
        for g in Game.objects.prefetch_related("gms")
    }


@pytest.fixture
def site(tmp_path) -> tuple[Path, dict, dict]:
    """12 games of two 天神, three of them named 神探狄仁杰 (two played, with inputs), backed up."""
    users = get_user_model().objects
    gm1, gm2 = users.create_user("gm1", password="pw-123456"), users.create_user("gm2", password="pw-123456")
    scenario = load(yaml.safe_load(SCENARIO.read_text(encoding="utf-8")))
    for owner in (gm1, gm2):
        game, _ = play_game(scenario)
        Game.objects.filter(pk=game.pk).update(name=DEFAULT)
        game.gms.add(owner)
        AuditLog.objects.create(game=game, actor=owner, action="暂停", detail={"note": owner.username})
    plain = setup.table_create(name=DEFAULT, players=TABLE)
    plain.gms.add(gm2)
    for n in range(9):
        other = setup.table_create(name=f"第 {n + 1} 局", players=TABLE)
        other.gms.add(gm1 if n % 2 else gm2)
    assert Game.objects.count() == 12 and Game.objects.filter(name=DEFAULT).count() == 3
    assert Input.objects.count() > 10
    file = tmp_path / "backup.json"
    assert "已备份 12 局游戏" in _run("backup", str(file))
    return file, _rows(), _by_uid()


def test_same_named_games_of_two_gms_come_back_whole_every_row(site):
    file, rows, games = site
    assert json.loads(file.read_text(encoding="utf-8"))["format"] == "direnjie-backup/2"
    Game.objects.all().delete()  # a fresh site

    said = _run("restore", str(file))

    assert "已恢复 12 局游戏,跳过 0 局" in said and "跳过“" not in said
    assert _by_uid() == games  # every game under its identity, with its 天神, every input, message, void, phase
    after = _rows()
    assert after == {**rows, "AuditLog": rows["AuditLog"] + 12}  # each history kept, plus one “从备份恢复” line each
    assert f"写入:游戏 12 局,座位 {rows['Seat']} 个,输入 {rows['Input']} 条,操作记录 {after['AuditLog']} 条" in said


def test_a_game_is_skipped_only_when_that_same_game_is_there_and_the_line_says_which(site):
    file, _rows_before, games = site
    keep = Game.objects.filter(name=DEFAULT).order_by("pk").first()
    assert keep is not None
    Game.objects.exclude(pk=keep.pk).delete()
    stranger = setup.table_create(name=DEFAULT, players=TABLE)  # a third 天神's new game of the default name

    said = _run("restore", str(file))

    assert "已恢复 11 局游戏,跳过 1 局" in said
    assert said.count("跳过“神探狄仁杰”") == 1
    assert f"编号 {keep.uid} 的这一局已经在数据库里(第 {keep.pk} 号游戏“神探狄仁杰”)" in said
    assert Game.objects.filter(name=DEFAULT).count() == 4 and Game.objects.filter(pk=stranger.pk).exists()
    assert {uid: g for uid, g in _by_uid().items() if uid != str(stranger.uid)} == games

    again = _run("restore", str(file))  # run twice: adds nothing
    assert "已恢复 0 局游戏,跳过 12 局" in again and Game.objects.count() == 13


def test_a_backup_of_the_older_format_is_still_read_and_same_names_are_not_one_game(site, tmp_path):
    file, _rows_before, games = site
    data = json.loads(file.read_text(encoding="utf-8"))
    data["format"] = "direnjie-backup/1"
    for entry in data["games"]:
        del entry["uid"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    Game.objects.all().delete()

    said = _run("restore", str(old))

    assert "已恢复 12 局游戏,跳过 0 局" in said
    assert sorted(json.dumps(e, sort_keys=True) for e, _ in _by_uid().values()) == sorted(
        json.dumps(e, sort_keys=True) for e, _ in games.values()
    )
    again = _run("restore", str(old))
    assert "已恢复 0 局游戏,跳过 12 局" in again
    assert "旧格式的备份没有编号" in again and Game.objects.count() == 12


def test_a_backup_that_names_one_game_twice_is_refused_with_nothing_written(site, tmp_path):
    file, _, _ = site
    data = json.loads(file.read_text(encoding="utf-8"))
    data["games"][1]["uid"] = data["games"][0]["uid"]
    twice = tmp_path / "twice.json"
    twice.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    Game.objects.all().delete()

    with pytest.raises(CommandError, match="第 2 局的编号"):
        _run("restore", str(twice))
    assert not Game.objects.exists()
