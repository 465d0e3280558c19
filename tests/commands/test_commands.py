"""The management commands a 天神 or a CI runs: parse_pm (docs/parser.md), scenario (docs/scenarios.md), demo."""

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from moderator.models import Game

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT / "tests" / "scenarios" / "shared"  # the rules' example scenarios, shipped with the project


def _parse(*args):
    from io import StringIO

    out = StringIO()
    call_command("parse_pm", *args, stdout=out)
    return json.loads(out.getvalue())


def test_parse_pm_without_a_database_reads_the_seed_order_message():
    got = _parse(
        "--players",
        "张三,李四,王五",
        "--sender",
        "张三",
        "--hand",
        "庶民,诅咒/庇佑,禁锢/反狙击,束魂,杀手",
        "我按下列先后顺序丢牌(排在前面的先丢):诅咒/庇佑、禁锢/反狙击手、束魂、杀手",
    )
    assert got == {"inputs": [{"order": ["庶民", "诅咒/庇佑", "禁锢/反狙击", "束魂", "杀手"]}], "refusals": []}


@pytest.mark.django_db
def test_parse_pm_with_a_game_uses_the_senders_current_hand():
    call_command("demo", stdout=open("/dev/null", "w"))
    game = Game.objects.get()
    seat = game.seats.get(number=2)
    got = _parse("--game", str(game.pk), "--sender", seat.player_name, "今晚束魂狄仁杰")
    held = "束魂" in seat.dealt_hand
    assert bool(got["inputs"]) == held and bool(got["refusals"]) == (not held)


def test_parse_pm_refuses_an_unknown_sender():
    with pytest.raises(CommandError, match="不在玩家名单里"):
        _parse("--players", "张三,李四", "--sender", "王五", "--hand", "庶民,杀手", "杀张三")


def _scenario(*paths):
    from io import StringIO

    out = StringIO()
    try:
        call_command("scenario", *map(str, paths), stdout=out)
        failed = False
    except CommandError:
        failed = True
    return out.getvalue().strip().splitlines(), failed


@pytest.mark.django_db
def test_the_scenario_command_passes_the_shared_examples():
    lines, failed = _scenario(SHARED)
    count = len(list(SHARED.glob("*.yaml")))  # the examples grow: every one of them must pass
    assert count >= 12
    assert lines[-1] == f"{count} passed, 0 failed" and not failed, "\n".join(lines)
    assert sum(line.startswith("PASS ") for line in lines) == count


@pytest.mark.django_db
def test_the_scenario_command_reports_a_bad_file_as_a_failure(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: 坏文件\nplayers:\n  - {name: 甲, camp: 警察, hand: [杀手]}\nphases: []\n", encoding="utf-8")
    lines, failed = _scenario(bad)
    assert failed
    assert lines[0].startswith("FAIL ") and "unknown camp '警察'" in lines[1]
    assert lines[-1] == "0 passed, 1 failed"
