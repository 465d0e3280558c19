"""After a substitution the replaced player's private link is dead (S5: the seat, its hand and its AP
now belong to the substitute, who gets a link of their own)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from moderator.models import AuditLog
from moderator.services import setup

pytestmark = pytest.mark.django_db


def test_it_kills_the_replaced_players_link_when_a_substitute_takes_the_seat_s5(client, sample):
    seat = sample.seats["甲"]
    old = seat.token
    assert client.get(reverse("seat_private", args=[old])).status_code == 200
    setup.seat_substitute(seat=seat, player_name="替补甲", at=timezone.now())
    seat.refresh_from_db()
    assert seat.token != old and len(seat.token) >= 43
    gone = client.get(reverse("seat_private", args=[old]))
    assert gone.status_code == 404 and "替补甲" not in gone.content.decode() and "杀手" not in gone.content.decode()
    page = client.get(reverse("seat_private", args=[seat.token]))
    assert page.status_code == 200 and "替补甲" in page.content.decode()
    assert AuditLog.objects.filter(game=sample.game, action="seat_token_rotate", detail={"seat": seat.number}).exists()


def test_a_refused_substitution_keeps_the_link(client, sample):
    seat = sample.seats["甲"]
    old = seat.token
    with pytest.raises(setup.SetupError):
        setup.seat_substitute(seat=seat, player_name="戊", at=timezone.now())
    seat.refresh_from_db()
    assert seat.token == old and client.get(reverse("seat_private", args=[old])).status_code == 200
