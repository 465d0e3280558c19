"""Selectors: the read queries that pages and services repeat, in one place. Each reads, never writes, and imports only
the models, so any layer above them (services, the pages' helpers, the pages) may use it.

`open_phase_of(game)` is the game's open phase or None; the verb that needs one (and refuses without it) is the
services' own.
"""

from __future__ import annotations

from django.db.models import QuerySet

from moderator.models import Game, Phase


def open_phase_of(game: Game) -> Phase | None:
    """The game's open phase (the newest, should there ever be two), or None: not started, paused between phases, or
    over."""
    return game.phases.filter(status=Phase.Status.OPEN).order_by("-starts_at").first()


def has_open_phase(game: Game) -> bool:
    """Whether the game has an open phase (one EXISTS query, nothing loaded)."""
    return game.phases.filter(status=Phase.Status.OPEN).exists()


def closed_phases_of(game: Game, newest_first: bool = False) -> QuerySet[Phase]:
    """The game's closed phases, oldest first (or newest first)."""
    return game.phases.filter(status=Phase.Status.CLOSED).order_by("-starts_at" if newest_first else "starts_at")


def seat_names(game: Game) -> dict[int, str]:
    """Seat number → the player who holds it now (what the engine's records name a seat by)."""
    return dict(game.seats.values_list("number", "player_name"))
