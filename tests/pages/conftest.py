"""Fixtures for the page tests: the played sample game (bench.sample) and a fresh page cache."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core import serializers
from django.core.cache import cache

from bench.sample import Sample, sample_game
from moderator.models import Game


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Page bodies are cached under the game's fingerprint; each test starts from an empty cache."""
    cache.clear()
    yield
    cache.clear()


_PLAYED: dict[tuple, tuple[int, list]] = {}  # a test module's sample games, as the rows the services wrote


def _rows() -> dict[tuple[str, object], object]:
    return {(m._meta.label, o.pk): o for m in apps.get_models() for o in m._base_manager.all()}


def played(module: str, *, name: str = "样例局", upto: int = 4) -> Sample:
    """`sample_game(name=name, upto=upto)`. The first call for these arguments in `module` plays it through the services
    (≈ 0.3 s of CPU and ≈ 300 queries); later calls get the very rows those services wrote, saved back as they were
    (raw saves: the same primary keys and timestamps, and the same page-version signals as the services' own saves)
    in the calling test's own rolled-back transaction — Django's setUpTestData, per module. A test's changes never
    reach the next."""
    key = (module, name, upto)
    if key not in _PLAYED:
        before = set(_rows())
        s = sample_game(name=name, upto=upto)
        written = [o for k, o in _rows().items() if k not in before]
        models = serializers.sort_dependencies([(None, list({type(o) for o in written}))], allow_cycles=True)
        order = {m: i for i, m in enumerate(models)}
        written.sort(key=lambda o: (order[type(o)], o.pk))
        rows = list(serializers.deserialize("python", serializers.serialize("python", written)))
        _PLAYED[key] = (s.game.pk, rows)
        return s
    pk, rows = _PLAYED[key]
    for row in rows:
        row.save()
    game = Game.objects.get(pk=pk)
    return Sample(game, {seat.player_name: seat for seat in game.seats.all()})


@pytest.fixture
def sample(db, request):
    """The sample game with day 2 open (`played`: played once per test module)."""
    return played(request.module.__name__)
