"""T1: a start time more than one phase in the past closes whole phases at once, before anyone has acted: the
console's start form names them and asks the 天神 to confirm first; a recent start time starts at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.models import AuditLog, Game, Phase
from moderator.services import setup
from tests.tokens import signed
from tests.world import TABLE

pytestmark = pytest.mark.django_db


def _local(at) -> str:
    return timezone.localtime(at).strftime("%Y-%m-%dT%H:%M")


@pytest.fixture
def fresh(gm):
    game = setup.table_create(name="新局", players=TABLE)
    game.gms.add(gm)
    return game


def test_a_start_two_and_a_half_days_ago_names_the_phases_it_closes_and_waits_for_a_tick(gm_client, fresh):
    url = f"/gm/{fresh.pk}/start/"
    at = _local(timezone.now() - timedelta(hours=61))
    page = gm_client.post(url, {"at": at, **signed(gm_client, "console_start", fresh)}).content.decode()
    assert "这个开始时间已经过去超过一个时段" in page and "第1夜、第1天" in page
    assert 'type="checkbox" name="confirm_past"' in page
    assert Game.objects.get(pk=fresh.pk).status == Game.Status.SETUP and not Phase.objects.filter(game=fresh).exists()
    response = gm_client.post(url, {"at": at, "confirm_past": "on", **signed(gm_client, "console_start", fresh)})
    assert response.status_code == 302
    assert Game.objects.get(pk=fresh.pk).status == Game.Status.RUNNING
    assert AuditLog.objects.get(game=fresh, action="开始游戏").detail["closed_at_once"] == ["第1夜", "第1天"]


def test_a_start_within_the_first_phase_needs_no_confirmation(gm_client, fresh):
    at = _local(timezone.now() - timedelta(hours=3))
    response = gm_client.post(f"/gm/{fresh.pk}/start/", {"at": at, **signed(gm_client, "console_start", fresh)})
    assert response.status_code == 302
    assert Phase.objects.get(game=fresh).status == Phase.Status.OPEN


def test_the_phases_a_start_would_close_are_counted_from_the_phase_length(fresh):
    now = timezone.now()
    assert setup.start_closes_at_once(fresh, now - timedelta(hours=23), now) == []
    assert setup.start_closes_at_once(fresh, now - timedelta(hours=24), now) == ["第1夜"]
    assert setup.start_closes_at_once(fresh, now - timedelta(days=3, hours=1), now) == ["第1夜", "第1天", "第2夜"]
