from datetime import timedelta

import pytest
from django.utils import timezone

from tests.world import TABLE, game_make


@pytest.fixture
def game(gm):
    """Scenario 01's table with self-entry on, night 1 started an hour ago (23 hours left)."""
    return game_make(
        name="自助局", players=TABLE, gm=gm, self_entry=True, started_at=timezone.now() - timedelta(hours=1)
    )
