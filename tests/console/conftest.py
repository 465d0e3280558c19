from datetime import timedelta

import pytest
from django.utils import timezone

from tests.world import TABLE, game_make

__all__ = ["TABLE"]


@pytest.fixture
def game(gm):
    """Scenario 01's table, started three days ago so that its phases can be closed by the clock."""
    return game_make(players=TABLE, gm=gm, started_at=timezone.now() - timedelta(days=3))
