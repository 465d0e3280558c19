"""The table-creation limit counts the tables a client actually created, per client address as sign-in reads it
(behind TRUSTED_PROXY the address the proxy appended, never the proxy's own): refused forms cost nothing, one visitor
behind the proxy never blocks another, and the 429 says the real wait, in its Retry-After and its sentence."""

from __future__ import annotations

import time

import django_ratelimit.core
import pytest
from django.test import override_settings

from tables import views
from tables.models import Table

pytestmark = pytest.mark.django_db
VALID = {"kind": "noir", "players": "甲,乙"}
REFUSED = {"kind": "noir", "players": "甲"}  # too few players: the form again, no table
PROXY = "10.0.0.1"  # every visitor's REMOTE_ADDR behind the TLS proxy


def _post(client, data, visitor: str | None = None, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": forwarded or visitor} if visitor or forwarded else {}
    return client.post("/tables/", data, **extra)


def test_refused_forms_do_not_count(client):
    for _ in range(views.CREATE_LIMIT + 5):
        assert _post(client, REFUSED).status_code == 400
    assert not Table.objects.exists()
    made = _post(client, VALID)
    assert made.status_code == 200 and Table.objects.count() == 1


@override_settings(TRUSTED_PROXY=True, PROXY_COUNT=1)
def test_behind_the_proxy_one_visitor_never_blocks_another(client):
    for _ in range(views.CREATE_LIMIT):
        assert _post(client, VALID, visitor="203.0.113.5").status_code == 200
    blocked = _post(client, VALID, forwarded="198.51.100.7, 203.0.113.5")  # a made-up entry before the proxy's: ignored
    assert blocked.status_code == 429 and "开桌太频繁" in blocked.content.decode()
    other = _post(client, VALID, visitor="203.0.113.9")  # another visitor, the same proxy
    assert other.status_code == 200
    assert Table.objects.count() == views.CREATE_LIMIT + 1


def test_the_429_says_the_real_wait_and_the_limit_lifts_then(client, monkeypatch):
    clock = {"now": time.time()}
    monkeypatch.setattr(django_ratelimit.core, "time", type("Clock", (), {"time": staticmethod(lambda: clock["now"])}))
    for _ in range(views.CREATE_LIMIT):
        assert _post(client, VALID).status_code == 200
    refused = _post(client, VALID)
    wait = int(refused["Retry-After"])
    assert refused.status_code == 429 and 0 < wait <= 3600
    assert f"请在 {-(-wait // 60)} 分钟后再试" in refused.content.decode()
    clock["now"] += wait - 2
    assert _post(client, VALID).status_code == 429  # still within the count's hour
    clock["now"] += 3
    assert _post(client, VALID).status_code == 200  # the wait it said is over
