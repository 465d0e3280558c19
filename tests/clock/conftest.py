"""Phase-clock fixtures: this run's own redis-server, real Celery workers stopped after each test, that Redis
answering again after each test. Nothing here touches the Redis at REDIS_URL."""

from __future__ import annotations

import clockkit
import pytest
from clockkit import Worker, purge


@pytest.fixture(scope="session")
def own_redis(own_redis):
    """The run's own redis-server (tests/conftest.py), the clock tests' broker."""
    clockkit.REDIS = own_redis
    yield own_redis
    clockkit.REDIS = None


@pytest.fixture
def redis_restored(own_redis):
    """Whatever a test does to its Redis, it answers again afterwards."""
    yield own_redis
    own_redis.start()


@pytest.fixture
def celery_worker(tmp_path, own_redis):
    """Start real workers with `celery_worker(beat=…, concurrency=…)`; every one is stopped after the test."""
    purge()
    started: list[Worker] = []

    def start(*, beat: bool = False, concurrency: int = 1) -> Worker:
        worker = Worker(tmp_path / f"worker-{len(started)}.log", beat=beat, concurrency=concurrency)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


@pytest.fixture(scope="module")
def kept_worker(own_redis, django_db_setup, django_db_blocker, tmp_path_factory):
    """One real worker (prefork, one pool process, no beat) for a whole module whose tests leave it running (its
    pool process may be killed: the main process forks another). Stopped after the module's last test."""
    purge()
    with django_db_blocker.unblock():
        worker = Worker(tmp_path_factory.mktemp("kept") / "worker.log", beat=False, concurrency=1)
    yield worker
    with django_db_blocker.unblock():
        worker.stop()


@pytest.fixture
def pool_worker(kept_worker):
    """The module's worker, read from the start of this test (`Worker.mark`), with the broker's queues empty."""
    purge()
    kept_worker.mark()
    return kept_worker
