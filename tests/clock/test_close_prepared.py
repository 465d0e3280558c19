"""A close's statements are prepared once per database session and reused by every later close of that session
(moderator/services/closesql.py; docs/scaling.md "Database sessions"); with CLOCK_CLOSE_PREPARED off (a transaction
pooler that cannot keep prepared statements) nothing is prepared and a close writes exactly the same rows (T1)."""

from __future__ import annotations

import pytest
from clockkit import assert_closed_once, running_game
from django.db import connection, transaction
from django.test import override_settings

from moderator.models import Announcement, Phase
from moderator.services import clock

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


KINDS = {"lock": "FOR UPDATE OF g", "read": "json_agg", "write": "WITH closed"}


def _prepared() -> dict[str, int]:
    """This session's prepared statements of the close, by kind: how many times statements of that kind ran on a
    generic plan (a kind may be prepared more than once: psycopg sends an id as int2, int4 or int8 by its size, and
    the parameter types are part of what it prepares)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans FROM pg_prepared_statements")
        rows = cursor.fetchall()
    found: dict[str, int] = {}
    for statement, plans in rows:
        for kind, mark in KINDS.items():
            if mark in statement:
                found[kind] = found.get(kind, 0) + plans
    return found


def _written(phase: Phase) -> tuple:
    """What a close wrote that a player or the 天神 sees: the snapshot, the result, the next phase, the drafts."""
    phase.refresh_from_db()
    following = Phase.objects.filter(game_id=phase.game_id).exclude(pk=phase.pk).get()
    drafts = Announcement.objects.filter(phase=phase).order_by("pk").values_list("kind", "recipient", "bbcode", "text")
    return (
        phase.snapshot,
        phase.result,
        (following.kind, following.number, following.ends_at - phase.ends_at),
        [tuple(d) for d in drafts],
    )


def test_a_session_prepares_the_close_once_and_every_later_close_reuses_it_T1():
    connection.close()  # a session of its own: nothing prepared yet
    phases = [running_game(ends_in=-1, seed=seed) for seed in (1, 2, 3)]
    assert _prepared() == {}
    for phase in phases:
        assert clock.phase_close_due(phase_id=phase.pk) is True
    plans = _prepared()
    assert plans.keys() == {"lock", "read", "write"}
    assert plans["read"] == plans["write"] == 3  # each close's read and write ran on a generic plan: never planned
    for phase in phases:
        assert_closed_once(phase)


def test_with_prepared_statements_off_nothing_is_prepared_and_the_close_writes_the_same_rows_T1():
    connection.close()
    prepared, plain = running_game(ends_in=-1, seed=7), running_game(ends_in=-1, seed=7)
    assert clock.phase_close_due(phase_id=prepared.pk) is True
    connection.close()
    with override_settings(CLOCK_CLOSE_PREPARED=False):
        assert clock.phase_close_due(phase_id=plain.pk) is True
        assert _prepared() == {}
    assert_closed_once(prepared)
    assert_closed_once(plain)
    assert _written(plain) == _written(prepared)


def test_a_batch_after_a_rolled_back_one_still_closes_on_the_prepared_statements_T1():
    """A batch that fails is rolled back (psycopg then forgets, and deallocates, what it prepared); the next close of
    the session prepares again and closes exactly once."""
    connection.close()
    first = running_game(ends_in=-1, seed=4)
    assert clock.phase_close_due(phase_id=first.pk) is True
    with pytest.raises(RuntimeError), transaction.atomic():
        clock._locked([first.pk], skip_locked=True)
        raise RuntimeError("a close that fails after its lock")
    phases = [running_game(ends_in=-1, seed=seed) for seed in (5, 6)]
    assert clock.close_batch([p.pk for p in phases]) == 2
    assert _prepared().keys() == {"lock", "read", "write"}  # prepared again after the rollback's DEALLOCATE ALL
    for phase in (first, *phases):
        assert_closed_once(phase)
