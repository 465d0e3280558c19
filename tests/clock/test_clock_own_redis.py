"""The clock tests use only what they start (CONTRIBUTING.md "Rules for tests"): their broker is a redis-server this
run started on a free port, not the Redis at REDIS_URL, which they never flush or shut down."""

from __future__ import annotations

import os
from urllib.parse import urlsplit

import pytest
from clockkit import broker_url
from django.conf import settings

pytestmark = pytest.mark.redis


def test_the_clock_tests_broker_is_a_redis_server_this_run_started_not_the_one_at_redis_url(own_redis):
    assert broker_url() == own_redis.url
    assert urlsplit(own_redis.url).port != (urlsplit(settings.REDIS_URL).port or 6379)
    with open(f"/proc/{own_redis.proc.pid}/stat") as stat:
        parent = int(stat.read().rsplit(")", 1)[1].split()[1])
    assert parent == os.getpid()  # our child: stopping it stops nobody else's server
