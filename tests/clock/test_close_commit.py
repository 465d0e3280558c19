"""A close's COMMIT does not wait for the disk; every other write still does (docs/scaling.md "A close commits
asynchronously"). A close is derived from rows already durable, so a close lost in a crash is closed again by the
next sweep (T1); a PM, a vote or a GM's change is what the 天神 entered and must never be lost."""

from __future__ import annotations

import pytest
from clockkit import assert_closed_once, running_game
from django.db import connection, transaction

from moderator.services import clock

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _setting() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('synchronous_commit')")
        return cursor.fetchone()[0]


def test_a_close_commits_without_waiting_for_the_disk_and_the_next_write_waits_again_T1():
    phase = running_game(ends_in=-1)
    during: list[str] = []

    def spy(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if sql.lstrip().startswith("WITH closed"):  # the close's one write: what its COMMIT will do
            during.append(connection.connection.execute("SELECT current_setting('synchronous_commit')").fetchone()[0])
        return result

    assert _setting() == "on"
    with connection.execute_wrapper(spy):
        assert clock.phase_close_due(phase_id=phase.pk) is True
    assert during == ["off"]
    assert_closed_once(phase)
    assert _setting() == "on"  # SET LOCAL: the session's next transaction (a PM confirm) commits durably
    with transaction.atomic():
        assert _setting() == "on"


def test_a_batch_of_closes_commits_without_waiting_and_leaves_the_session_as_it_was_T1():
    phases = [running_game(ends_in=-1, seed=i) for i in range(3)]
    during: list[str] = []

    def spy(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if sql.lstrip().startswith("WITH closed"):
            during.append(connection.connection.execute("SELECT current_setting('synchronous_commit')").fetchone()[0])
        return result

    with connection.execute_wrapper(spy):
        assert clock.close_batch([p.pk for p in phases]) == 3
    assert during == ["off", "off", "off"]
    for phase in phases:
        assert_closed_once(phase)
    assert _setting() == "on"
