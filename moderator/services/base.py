"""The services' ground floor: the one lock order and the database's clock (the refusal every verb raises: `errors`).

Lock order (every service, one place): the game row first (`game_lock`), then whatever else. Two writers of one game
queue on it; writers of different games share no lock. Nothing here imports another module of services/ but the page
versions (`versions`), so every floor above may use it.
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection
from django.utils import timezone

from moderator.models import Game
from moderator.services import versions


def game_lock(game: Game) -> Game:
    """The one lock order: the game row first, always (see the module's docstring). Every writer takes it, so it
    also marks the game's pages as changed when the transaction commits (services.versions)."""
    versions.bump_on_commit(game.pk)  # pages: a new version after the commit
    return Game.objects.select_for_update().get(pk=game.pk)


def db_now() -> datetime:
    """The database's clock (PostgreSQL's STATEMENT_TIMESTAMP, the same as the close's `Now()`)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT STATEMENT_TIMESTAMP()")
            return cursor.fetchone()[0]
    return timezone.now()
