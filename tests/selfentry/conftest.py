from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.services import setup

TABLE = [
    {"name": "甲", "camp": "杀手", "hand": ["庶民", "庶民", "狙击手", "保镖", "杀手"]},
    {"name": "乙", "camp": "平民", "hand": ["庶民", "束魂", "诅咒/庇佑", "防弹衣/狼毒", "禁锢/反狙击"]},
    {"name": "丙", "camp": "平民", "hand": ["庶民", "巫医", "绝杀/特赦", "纵火/圣人", "阿米巴"]},
    {"name": "丁", "camp": "狼人", "hand": ["庶民", "狼人", "束魂", "巫医", "狙击手"]},
]


@pytest.fixture
def gm(django_user_model):
    return django_user_model.objects.create_user("tianshen", password="pw-123456")


@pytest.fixture
def game(gm):
    """Scenario 01's table with self-entry on, night 1 started an hour ago (23 hours left)."""
    g = setup.table_create(name="自助局", players=TABLE)
    g.gms.add(gm)
    g.self_entry = True
    g.save(update_fields=["self_entry"])
    setup.game_start(game=g, at=timezone.now() - timedelta(hours=1))
    return g


@pytest.fixture
def gm_client(client, gm):
    client.force_login(gm)
    return client
