"""Rate limits per seat's private link and per 天神 account (django-ratelimit, settings.RATELIMIT_SEAT/GM): past the
limit an HTTP 429 page says so and the view never runs, so nothing past it is stored."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings
from selfentry_kit import act_url, confirm_data, preview, seat

from moderator.models import Game, Message, SelfEntry
from tests.tokens import signed

pytestmark = pytest.mark.django_db


def test_a_burst_of_150_confirms_from_one_seat_is_cut_off_with_429_and_nothing_past_the_limit_is_stored(game, client):
    a = seat(game, "甲")
    data = confirm_data(preview(client, a, "text", {"t-text": "天神好,今晚空过。"}), {})
    statuses = []
    for _ in range(150):  # each with a fresh token the server signed for this seat, as a page reload gives
        response = client.post(act_url(a), {**data, **signed(client, "seat_act", game, link=a.token)})
        statuses.append(response.status_code)
        if response.status_code == 429:
            page = response.content.decode()
    stored = statuses.count(302)
    limit = int(settings.RATELIMIT_SEAT.split("/")[0])
    assert statuses == [302] * stored + [429] * (150 - stored)  # cut off, and never let through again
    assert stored == limit - 1  # the preview was one of the link's POSTs
    assert stored >= 20  # generous for real play: a handful of inputs a phase
    assert "提交得太频繁" in page and "没有保存任何内容" in page
    assert Message.objects.count() == SelfEntry.objects.count() == stored
    # Another seat's link is counted apart.
    b = seat(game, "乙")
    assert client.post(act_url(b), {"kind": "text", "t-text": "你好"}).status_code == 200


@override_settings(RATELIMIT_GM="5/h")
def test_a_gm_account_is_limited_too(gm_client, game):
    statuses = [
        gm_client.post(f"/gm/{game.pk}/clock/pause/", signed(gm_client, "console_clock:pause", game)).status_code
        for _ in range(7)
    ]
    assert statuses[0] == 302 and statuses[5:] == [429, 429]
    assert Game.objects.get(pk=game.pk).status == Game.Status.PAUSED  # the first pause held; nothing else ran
