"""A seven-seat table whose night 1 (2024-03-04 09:00 → 03-05 09:00, Beijing) and day 1 (→ 03-06 09:00) match the
times of the pasted threads in corpus/."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from django.utils import timezone

from moderator.models import Phase
from moderator.services import play, setup

CORPUS = Path(__file__).parent / "corpus"
TABLE = {
    "狄仁杰": ("平民", ["庶民", "束魂", "巫医", "诅咒/庇佑", "保镖"]),
    "李元芳": ("平民", ["庶民", "束魂", "防弹衣/狼毒", "禁锢/反狙击", "狙击手"]),
    "曾泰": ("平民", ["庶民", "巫医", "绝杀/特赦", "纵火/圣人", "阿米巴"]),
    "狄如燕": ("杀手", ["庶民", "狙击手", "保镖", "阿米巴", "杀手"]),
    "张环": ("狼人", ["庶民", "庶民", "保镖", "防弹衣/狼毒", "狼人"]),
    "李朗": ("平民", ["庶民", "诅咒/庇佑", "禁锢/反狙击", "绝杀/特赦", "阿米巴"]),
    "虎敬晖": ("自选", ["庶民", "庶民", "纵火/圣人", "诅咒/庇佑", "禁锢/反狙击"]),
}
NIGHT_1 = timezone.make_aware(datetime(2024, 3, 4, 9, 0))


def corpus(name: str) -> str:
    return (CORPUS / name).read_text(encoding="utf-8")


def table(name: str = "第十二局"):
    game = setup.table_create(name=name, players=[{"name": n, "camp": c, "hand": h} for n, (c, h) in TABLE.items()])
    setup.game_start(game=game, at=NIGHT_1)
    return game


def day_one(game):
    night = game.phases.get(status=Phase.Status.OPEN)
    assert play.phase_close(phase=night, now=night.ends_at)
    return game.phases.get(status=Phase.Status.OPEN)


@pytest.fixture
def night(db):
    return table()


@pytest.fixture
def day(db):
    game = table()
    day_one(game)
    return game


@pytest.fixture
def gm(django_user_model):
    return django_user_model.objects.create_user("tianshen", password="pw-123456")


@pytest.fixture
def gm_client(client, gm):
    client.force_login(gm)
    return client
