"""Phase-clock fixtures: real Celery workers, stopped after each test; Redis answering again after each test."""

from __future__ import annotations

import pytest
from clockkit import Worker, purge, redis_start


@pytest.fixture
def redis_restored():
    """Whatever a test does to Redis, it answers again afterwards."""
    yield
    redis_start()


@pytest.fixture
def celery_worker(tmp_path):
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
