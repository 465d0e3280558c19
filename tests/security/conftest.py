"""Fixtures for the attack tests: the played sample game and a fresh cache (page bodies, sign-in counts)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from moderator.public.sample import sample_game


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def sample(db):
    """The sample game with day 2 open."""
    return sample_game()
