"""Migration 0005: the inputs of the three old tables move into the one input log, each with its seat, phase,
message, times and entry number; players become seat numbers; a voided row gets its void; nothing is lost; the old
tables are dropped. The apps that owned those tables are gone, so the test makes the tables as a database made before
the one input log has them (their columns as the old apps' first migrations created them)."""

from datetime import timedelta

import pytest
from django.db import connection, models
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import isolate_apps
from django.utils import timezone

BEFORE = [("moderator", "0004_input_log")]
AFTER = [("moderator", "0005_inputs_moved_to_one_log")]
OLD_TABLES = ("nights_action", "votes_vote", "cards_discardorder")


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _entry(**fields):
    """The columns the three old tables shared (foreign keys as plain ids: the old apps' models are gone)."""
    return {
        "game_id": models.BigIntegerField(),
        "phase_id": models.BigIntegerField(null=True),
        "seat_id": models.BigIntegerField(),
        "message_id": models.BigIntegerField(null=True),
        "forum_at": models.DateTimeField(),
        "seq": models.PositiveIntegerField(),
        "entered_at": models.DateTimeField(),
        **fields,
    }


def _old_models():
    def model(name, table, fields):
        meta = type("Meta", (), {"app_label": "moderator", "db_table": table})
        return type(name, (models.Model,), {"__module__": __name__, "Meta": meta, **fields})

    status = {"status": models.CharField(max_length=8, default="accepted"), "reason": models.TextField(blank=True)}
    verdict = {**status, "entered_by_id": models.BigIntegerField(null=True)}
    action = model(
        "OldAction",
        "nights_action",
        _entry(
            **verdict,
            card=models.CharField(max_length=12, blank=True),
            use=models.CharField(max_length=8),
            position=models.SmallIntegerField(null=True),
            into=models.CharField(max_length=12, blank=True),
            side=models.CharField(max_length=4, blank=True),
            mode=models.CharField(max_length=8, blank=True),
            manifesto=models.TextField(blank=True),
            change=models.BooleanField(default=False),
            cost=models.SmallIntegerField(default=0),
            target_id=models.BigIntegerField(null=True),
        ),
    )
    vote = model(
        "OldVote",
        "votes_vote",
        _entry(
            **verdict,
            target_id=models.BigIntegerField(null=True),
            change=models.BooleanField(default=False),
            edited=models.BooleanField(default=False),
        ),
    )
    order = model(
        "OldDiscardOrder",
        "cards_discardorder",
        _entry(
            **status,
            order=models.JSONField(),
            source=models.CharField(max_length=6, default="player"),
            seed=models.BigIntegerField(null=True),
        ),
    )
    return action, vote, order


@pytest.fixture
def old_tables_dropped_after():
    """The old tables are made outside the migrations: drop any left by a failing run (the next test's flush would
    not)."""
    yield
    left = set(OLD_TABLES) & set(connection.introspection.table_names())
    with connection.cursor() as cursor:
        for table in left:
            cursor.execute(f"DROP TABLE {connection.ops.quote_name(table)}")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("old_tables_dropped_after")
def test_the_three_old_tables_move_into_the_one_log_and_are_dropped():
    apps = _migrate(BEFORE)
    Game, Seat, Phase = (apps.get_model("moderator", m) for m in ("Game", "Seat", "Phase"))
    now = timezone.now().replace(microsecond=0)
    game = Game.objects.create(name="旧局", order_seed=1, input_seq=4)
    a, b = (
        Seat.objects.create(game=game, number=n, player_name=name, camp="平民") for n, name in ((1, "甲"), (2, "乙"))
    )
    night = Phase.objects.create(game=game, kind="night", number=1, starts_at=now, ends_at=now + timedelta(days=1))
    with isolate_apps("moderator"):
        Action, Vote, DiscardOrder = _old_models()
        with connection.schema_editor() as editor:
            for model in (Action, Vote, DiscardOrder):
                editor.create_model(model)
        common = {"game_id": game.pk, "phase_id": night.pk, "forum_at": now + timedelta(hours=1), "entered_at": now}
        Action.objects.create(**common, seat_id=a.pk, seq=1, use="束魂", card="束魂", target_id=b.pk, cost=2)
        Action.objects.create(
            **common, seat_id=b.pk, seq=2, use="诅咒", card="诅咒/庇佑", target_id=a.pk, status="voided",
            reason="天神作废:录错了",
        )  # fmt: skip
        Vote.objects.create(**common, seat_id=a.pk, seq=3, target_id=b.pk, change=True, edited=True)
        DiscardOrder.objects.create(
            game_id=game.pk, seat_id=b.pk, phase_id=night.pk, forum_at=now, entered_at=now, seq=4,
            order=["庶民", "束魂"], source="random", seed=1002,
        )  # fmt: skip
    apps = _migrate(AFTER)
    rows = apps.get_model("moderator", "Input").objects.order_by("seq")
    assert [(r.seq, r.seat.number, r.kind, r.payload) for r in rows] == [
        (1, 1, "action", {"use": "束魂", "card": "束魂", "target": 2}),
        (2, 2, "action", {"use": "诅咒", "card": "诅咒/庇佑", "target": 1}),
        (3, 1, "vote", {"change": 2, "edited": True}),
        (4, 2, "order", {"order": ["庶民", "束魂"], "source": "random", "seed": 1002}),
    ]
    assert [r.forum_at for r in rows] == [now + timedelta(hours=1)] * 3 + [now]
    assert apps.get_model("moderator", "InputVoid").objects.get().reason == "录错了"
    assert apps.get_model("moderator", "InputVerdict").objects.get(input__seq=1).cost == 2
    assert not set(OLD_TABLES) & set(connection.introspection.table_names())
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_a_database_made_since_the_one_log_migrates_with_no_old_tables():
    _migrate(BEFORE)
    apps = _migrate(AFTER)
    assert not apps.get_model("moderator", "Input").objects.exists()
    assert not set(OLD_TABLES) & set(connection.introspection.table_names())
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
