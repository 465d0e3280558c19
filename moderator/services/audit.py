"""The audit log's one writer: every verb of services/ records what the 天神 (or a player's link) did inside its own
transaction, so a verb that rolls back leaves no row and a verb that commits always leaves one. Views never write it."""

from __future__ import annotations

from typing import Any

from moderator.models import AuditLog, Game


def record(game: Game | int, actor: Any, action: AuditLog.Action, detail: dict[str, Any] | None = None) -> AuditLog:
    """One row: who (`actor`, a user or None for the clock and players' links), what (`action`, a short Chinese verb
    the audit page shows) and its detail (shown as a sentence by the console)."""
    game_id = game if isinstance(game, int) else game.pk
    user = actor if getattr(actor, "is_authenticated", False) else None
    return AuditLog.objects.create(game_id=game_id, actor=user, action=action, detail=detail or {})
