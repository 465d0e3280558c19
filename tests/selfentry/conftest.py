from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.services import setup
from tests.console.conftest import TABLE, gm, gm_client  # noqa: F401 — the console's table and 天神 (fixtures)


@pytest.fixture
def game(gm):  # noqa: F811 — `gm` is the imported fixture, requested by name
    """Scenario 01's table with self-entry on, night 1 started an hour ago (23 hours left)."""
    g = setup.table_create(name="自助局", players=TABLE)
    g.gms.add(gm)
    g.self_entry = True
    g.save(update_fields=["self_entry"])
    setup.game_start(game=g, at=timezone.now() - timedelta(hours=1))
    return g
