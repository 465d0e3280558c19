"""A close on PostgreSQL is one calculation written by one of two storage steps: closesql's statements (the clock's)
or the ORM (SQLite, and the closes the statements leave to it). Every column of every row either writes is the same:
the statements take their tables, columns and defaults from the models, so nothing is left NULL or written otherwise
(T1: the next phase, the drafts, the log row)."""

from __future__ import annotations

from datetime import datetime

import pytest
from clockkit import assert_closed_once, running_game
from django.test import override_settings

from moderator.models import Announcement, AuditLog, Game, Phase
from moderator.services import clock, closesql

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

SKIP = {"id", "game", "phase"}


def _row(obj, base: datetime, name: str) -> dict:
    """Every concrete field of a row: times relative to the closed phase's end, the game's name as "G", ids left
    out."""
    out = {}
    for f in type(obj)._meta.concrete_fields:
        if f.name in SKIP:
            continue
        value = getattr(obj, f.attname)
        if isinstance(value, datetime):
            value = value - base
        elif isinstance(value, str):
            value = value.replace(name, "G")
        out[f.name] = value
    return out


def _written(phase: Phase) -> dict:
    phase.refresh_from_db()
    base = phase.ends_at
    game = Game.objects.get(pk=phase.game_id)
    following = Phase.objects.filter(game=game).exclude(pk=phase.pk).get()
    drafts = [_row(a, base, game.name) for a in Announcement.objects.filter(game=game).order_by("id")]
    for d in drafts:
        assert d.pop("created_at") is not None  # the close's own instant
    [log] = AuditLog.objects.filter(game=game, action="phase_close")
    log_row = _row(log, base, game.name)
    assert log_row.pop("at") is not None and log_row["detail"].pop("lateness_s") >= 0
    assert log_row["detail"].pop("ends_at") == base.isoformat()
    closed = _row(phase, base, game.name)
    assert closed.pop("closed_at") is not None
    return {
        "closed": closed,
        "next": _row(following, base, game.name),
        "drafts": drafts,
        "log": log_row,
        "game": game.status,
    }


@pytest.mark.parametrize(("kind", "number"), [("day", 1), ("night", 2)])
def test_the_sql_close_writes_every_column_the_orm_close_writes_T1(kind, number):
    by_orm = running_game(ends_in=-5, kind=kind, number=number, seed=3)
    by_sql = running_game(ends_in=-5, kind=kind, number=number, seed=3)
    with override_settings(CLOCK_CLOSE_SQL=False):
        assert clock.phase_close_due(phase_id=by_orm.pk)
    assert closesql.usable()  # PostgreSQL: the clock closes through the statements
    assert clock.phase_close_due(phase_id=by_sql.pk)
    assert_closed_once(by_orm)
    assert_closed_once(by_sql)
    orm, sql = _written(by_orm), _written(by_sql)
    assert sql["drafts"] and sql == orm
