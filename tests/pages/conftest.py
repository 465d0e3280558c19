"""Fixtures for the page tests: the played sample game (moderator.public.sample) and a fresh page cache."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from moderator.public.sample import sample_game


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Page bodies are cached under the game's fingerprint; each test starts from an empty cache."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def sample(db):
    """The sample game with day 2 open."""
    return sample_game()
