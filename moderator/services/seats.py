"""Verbs on a seat's private link."""

from __future__ import annotations

from django.db import transaction

from moderator.models import AuditLog, Seat, new_token
from moderator.services.audit import record


@transaction.atomic
def seat_token_rotate(*, seat: Seat, actor=None) -> Seat:
    """Give a seat a new private link (256 bits from the OS's CSPRNG); the old link stops working at once. The audit
    row names the seat, never a token."""
    seat = Seat.objects.select_for_update().get(pk=seat.pk)
    seat.token = new_token()
    seat.save(update_fields=["token"])
    record(seat.game_id, actor, AuditLog.Action.SEAT_TOKEN_ROTATE, {"seat": seat.number})
    return seat
