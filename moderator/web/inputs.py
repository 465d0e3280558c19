"""A phase's inputs as the pages list them: each one's sentence, who sent it and what became of it (its stored
verdict, or the 天神's void)."""

from __future__ import annotations

from moderator.models import Game, Input, Phase, Seat, SeatHolder
from moderator.rules import codec
from moderator.services.storage import stored_verdict, voided

STATUS_LABELS = {"accepted": "已接受", "refused": "已拒绝", "voided": "已作废"}


SeatHolders = dict[int, list[tuple]]  # seat id → [(since, player name)], oldest first (S5)


def seat_holders(game: Game) -> SeatHolders:
    """S5: who held each seat from when (one query), so that an input is listed under the player who sent it — an
    input sent before a substitution under the replaced player, not the substitute."""
    out: SeatHolders = {}
    for seat_id, since, name in SeatHolder.objects.filter(seat__game=game).values_list(
        "seat_id", "since", "player_name"
    ):
        out.setdefault(seat_id, []).append((since, name))
    for rows in out.values():
        rows.sort(key=lambda r: r[0])
    return out


def sender(rec: Input, holders: SeatHolders | None) -> str:
    """The player who held the input's seat at its forum time (the seat's player now when nothing says otherwise)."""
    name = rec.seat.player_name
    for since, held_by in (holders or {}).get(rec.seat_id, []):
        if since <= rec.forum_at:
            name = held_by
    return name


def input_row(rec: Input, names: dict[int, str], holders: SeatHolders | None = None) -> dict:
    """One input as a page shows it: its sentence, who sent it, and what became of it (the stored verdict; a void
    says why)."""
    verdict = stored_verdict(rec)
    if voided(rec) or verdict is None:
        status, reason, cost = "voided", (rec.void.reason if voided(rec) else ""), 0
        reason = f"天神作废:{reason}" if voided(rec) and reason else ("天神作废" if voided(rec) else reason)
    else:
        status, reason, cost = ("accepted" if verdict.accepted else "refused"), verdict.reason, verdict.cost
    return {
        "rec": rec,
        "key": str(rec.pk),
        "at": rec.forum_at,
        "what": codec.describe(rec.kind, rec.payload, names),
        "sender": sender(rec, holders),
        "status": status,
        "status_label": STATUS_LABELS[status],
        "reason": reason,
        "cost": cost,
    }


def phase_rows(
    phase: Phase, names: dict[int, str], seat: Seat | None = None, holders: SeatHolders | None = None
) -> list[dict]:
    """The inputs of one phase (one seat's, if given) in replay order, with their stored verdicts and senders."""
    records = Input.objects.filter(phase=phase).select_related("void", "verdict", "seat").order_by("forum_at", "seq")
    if seat is not None:
        records = records.filter(seat=seat)
    return [input_row(rec, names, holders) for rec in records]
