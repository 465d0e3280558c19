"""Past a 天神's limit the 429 says the real wait: its Retry-After is the time left in the count's hour, the
sentence says it in minutes, and the limit lifts exactly then (not 60 s later, not an hour later)."""

from __future__ import annotations

import time

import django_ratelimit.core
import pytest
from django.test import override_settings

from tests.tokens import signed

pytestmark = pytest.mark.django_db


@override_settings(RATELIMIT_GM="3/h")
def test_the_gm_429_says_the_real_wait_and_the_limit_lifts_then(gm_client, game, monkeypatch):
    clock = {"now": time.time()}
    monkeypatch.setattr(django_ratelimit.core, "time", type("Clock", (), {"time": staticmethod(lambda: clock["now"])}))

    def pause():
        return gm_client.post(f"/gm/{game.pk}/clock/pause/", signed(gm_client, "console_clock:pause", game))

    assert [pause().status_code for _ in range(3)] == [302] * 3
    refused = pause()
    wait = int(refused["Retry-After"])
    assert refused.status_code == 429 and 0 < wait <= 3600
    assert f"请在 {-(-wait // 60)} 分钟后再试" in refused.content.decode()
    clock["now"] += wait - 2
    assert pause().status_code == 429
    clock["now"] += 3
    assert pause().status_code == 302
