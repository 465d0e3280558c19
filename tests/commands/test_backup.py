"""`manage.py backup FILE` writes every game in the export format and `manage.py restore FILE` puts them back: the
restored games export exactly as the originals did (table, seeds, every input and void, messages, posted marks), a
second restore adds nothing, and a file that is not a backup is refused with nothing written."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from moderator.models import Game, Input
from moderator.rules.scenario import load
from moderator.scenarios import play_scenario
from moderator.services.transfer import export_game

pytestmark = pytest.mark.django_db
SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "shared" / "06_pardon.yaml"


def _run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def _games() -> dict[str, dict]:
    return {g.name: export_game(g) for g in Game.objects.all()}


def test_backup_then_restore_gives_back_every_game_with_every_input(tmp_path):
    call_command("demo", stdout=StringIO())
    play_scenario(load(yaml.safe_load(SCENARIO.read_text(encoding="utf-8"))))
    before = _games()
    inputs = Input.objects.count()
    assert len(before) == 2 and inputs > 5
    gm = get_user_model().objects.get(username="tianshen")
    file = tmp_path / "backup.json"
    assert "已备份 2 局游戏" in _run("backup", str(file))
    assert json.loads(file.read_text(encoding="utf-8"))["format"] == "direnjie-backup/2"

    Game.objects.all().delete()
    assert "已恢复 2 局游戏,跳过 0 局" in _run("restore", str(file))
    assert _games() == before
    assert Input.objects.count() == inputs
    assert list(gm.gm_games.values_list("name", flat=True)) == ["演示局 · 神探狄仁杰"]  # its 天神 again

    assert "已恢复 0 局游戏,跳过 2 局" in _run("restore", str(file))  # a second restore adds nothing
    assert Game.objects.count() == 2


def test_restore_refuses_a_file_that_is_not_a_backup_and_writes_nothing(tmp_path):
    export = tmp_path / "one-game.json"
    export.write_text(json.dumps({"format": "direnjie-game/2"}), encoding="utf-8")
    with pytest.raises(CommandError, match="不是 backup 命令写的备份文件"):
        _run("restore", str(export))
    broken = tmp_path / "broken.json"
    broken.write_text(
        json.dumps({"format": "direnjie-backup/1", "games": [{"gms": [], "export": {"format": "direnjie-game/2"}}]}),
        encoding="utf-8",
    )
    with pytest.raises(CommandError, match=r"不能恢复,什么都没有写入:第 1 局"):
        _run("restore", str(broken))
    assert not Game.objects.exists()
