"""The one test world: the 天神, the players and a game, built one way for every test (the fixtures `gm` and
`gm_client` are registered for the whole suite by tests/conftest.py).

- `PLAYERS`: seven forum IDs for a game dealt by seed; `CAST`: the seven names of the demo and the benchmarks;
  `TABLE`: scenario 01's four seats with their camps and hands, `TABLE_NAMES` their names (甲 乙 丙 丁).
- `gm_make()`: a 天神's account; `signed_in(user)`: a test client signed in as that account.
- `game_make(...)`: a game, either dealt by the services from player names (S1–S3, seeds given or drawn) or seated
  from a table (`[{"name", "camp", "hand"}, …]` in discard order, as a scenario writes it); with `gm` it is that
  天神's game, with `started_at` its first phase is open from then.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

if TYPE_CHECKING:  # the models load with Django: tests/conftest.py imports this module before settings exist
    from moderator.models import Game

# Scenario 01's table, in discard order: four seats, every camp but 自选.
TABLE = (
    {"name": "甲", "camp": "杀手", "hand": ["庶民", "庶民", "狙击手", "保镖", "杀手"]},
    {"name": "乙", "camp": "平民", "hand": ["庶民", "束魂", "诅咒/庇佑", "防弹衣/狼毒", "禁锢/反狙击"]},
    {"name": "丙", "camp": "平民", "hand": ["庶民", "巫医", "绝杀/特赦", "纵火/圣人", "阿米巴"]},
    {"name": "丁", "camp": "狼人", "hand": ["庶民", "狼人", "束魂", "巫医", "狙击手"]},
)
TABLE_NAMES = tuple(seat["name"] for seat in TABLE)
PLAYERS = ("张三", "李四", "王五", "赵六", "钱七", "孙八", "周九")
CAST = ("狄仁杰", "李元芳", "曾泰", "狄如燕", "张环", "李朗", "虎敬晖")
GM_USERNAME = "tianshen"
GM_PASSWORD = "pw-123456"


def gm_make(username: str = GM_USERNAME, password: str = GM_PASSWORD):
    """A 天神's account (any signed-in user may create games)."""
    return get_user_model().objects.create_user(username, password=password)


def signed_in(user, **client_options: Any) -> Client:
    """A new test client signed in as `user` (`raise_request_exception=False` to see a 500 as the browser would)."""
    client = Client(**client_options)
    client.force_login(user)
    return client


def game_make(
    *,
    name: str = "测试局",
    players: Sequence[str] | Sequence[dict] = PLAYERS,
    gm=None,
    started_at: datetime | None = None,
    self_entry: bool = False,
    **options: Any,
) -> Game:
    """A game of `players`: names are dealt by `setup.game_create` (its options: seeds, camps, hands …); a table of
    seats (dicts) is seated as given by `setup.table_create` (its options: `ap`, `start`)."""
    from moderator.services import setup

    if players and isinstance(players[0], dict):
        game = setup.table_create(name=name, players=list(players), **options)
        if gm is not None:
            game.gms.add(gm)
        if self_entry:
            game.self_entry = True
            game.save(update_fields=["self_entry"])
    else:
        game = setup.game_create(name=name, player_names=list(players), gm=gm, self_entry=self_entry, **options)
    if started_at is not None:
        setup.game_start(game=game, at=started_at)
    return game


@pytest.fixture
def gm(db):
    """The 天神 of the test's games."""
    return gm_make()


@pytest.fixture
def gm_client(gm):
    """The 天神's browser: a client of its own, signed in, beside pytest-django's `client` (a player or a visitor,
    signed out)."""
    return signed_in(gm)
