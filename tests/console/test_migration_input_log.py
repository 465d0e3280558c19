"""Migration 0005: the inputs of the three old tables move into the one input log, each with its seat, phase,
message, times and entry number; players become seat numbers; a voided row gets its void; nothing is lost."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [
    ("moderator", "0003_message_parsed"),
    ("nights", "0001_initial"),
    ("votes", "0001_initial"),
    ("cards", "0001_initial"),
]
AFTER = [
    ("moderator", "0005_inputs_moved_to_one_log"),
    ("nights", "0002_moved_to_input_log"),
    ("votes", "0002_moved_to_input_log"),
    ("cards", "0002_moved_to_input_log"),
]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_three_old_tables_move_into_the_one_log():
    apps = _migrate(BEFORE)
    Game, Seat, Phase = (apps.get_model("moderator", m) for m in ("Game", "Seat", "Phase"))
    now = timezone.now()
    game = Game.objects.create(name="旧局", order_seed=1, input_seq=4)
    a, b = (
        Seat.objects.create(game=game, number=n, player_name=name, camp="平民") for n, name in ((1, "甲"), (2, "乙"))
    )
    night = Phase.objects.create(game=game, kind="night", number=1, starts_at=now, ends_at=now + timedelta(days=1))
    common = {"game": game, "phase": night, "forum_at": now + timedelta(hours=1)}
    apps.get_model("nights", "Action").objects.create(
        **common, seat=a, seq=1, use="束魂", card="束魂", target=b, cost=2
    )
    apps.get_model("nights", "Action").objects.create(
        **common, seat=b, seq=2, use="诅咒", card="诅咒/庇佑", target=a, status="voided", reason="天神作废:录错了"
    )
    apps.get_model("votes", "Vote").objects.create(**common, seat=a, seq=3, target=b, change=True, edited=True)
    apps.get_model("cards", "DiscardOrder").objects.create(
        game=game, seat=b, phase=night, forum_at=now, seq=4, order=["庶民", "束魂"], source="random", seed=1002
    )
    apps = _migrate(AFTER)
    rows = apps.get_model("moderator", "Input").objects.order_by("seq")
    assert [(r.seq, r.seat.number, r.kind, r.payload) for r in rows] == [
        (1, 1, "action", {"use": "束魂", "card": "束魂", "target": 2}),
        (2, 2, "action", {"use": "诅咒", "card": "诅咒/庇佑", "target": 1}),
        (3, 1, "vote", {"change": 2, "edited": True}),
        (4, 2, "order", {"order": ["庶民", "束魂"], "source": "random", "seed": 1002}),
    ]
    assert apps.get_model("moderator", "InputVoid").objects.get().reason == "录错了"
    assert apps.get_model("moderator", "InputVerdict").objects.get(input__seq=1).cost == 2
    _migrate(executor_latest())


def executor_latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()
