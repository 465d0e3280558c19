"""A seven-seat table whose night 1 (2024-03-04 09:00 → 03-05 09:00, Beijing) and day 1 (→ 03-06 09:00) match the
times of the pasted threads in corpus/."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from bench.intake import TABLE
from moderator.models import Phase
from moderator.services import play
from tests.world import game_make

CORPUS = Path(__file__).parent / "corpus"
AUTHORS = list(TABLE)  # the seven players who post in the corpus threads
NIGHT_1 = timezone.make_aware(datetime(2024, 3, 4, 9, 0))


def corpus(name: str) -> str:
    return (CORPUS / name).read_text(encoding="utf-8")


def table(name: str = "第十二局"):
    seats = [{"name": n, "camp": c, "hand": h} for n, (c, h) in TABLE.items()]
    return game_make(name=name, players=seats, started_at=NIGHT_1)


def console_table(name: str):
    """The console kit's table (甲 … 庚: tests/browser/console_kit.py), its night 1 begun three hours ago."""
    from tests.browser.console_kit import TABLE as CONSOLE_TABLE

    return game_make(name=name, players=CONSOLE_TABLE, started_at=timezone.now() - timedelta(hours=3))


def jia(game):
    return game.seats.get(player_name="甲")


def at(game):
    """Half an hour into the game's one phase: a forum time inside night 1."""
    return game.phases.get().starts_at + timedelta(minutes=30)


def day_one(game):
    night = game.phases.get(status=Phase.Status.OPEN)
    assert play.phase_close(phase=night, now=night.ends_at)
    return game.phases.get(status=Phase.Status.OPEN)


@pytest.fixture
def night(db):
    return table()


@pytest.fixture
def day(db):
    game = table()
    day_one(game)
    return game
