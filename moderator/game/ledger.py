"""AP bookkeeping (AP1–AP6): every change of a balance is a ledger row with its reason."""

from __future__ import annotations

from cards.catalogue import BODYGUARD, COMMONER
from moderator.game.state import AMOEBA_CAP, GameState, LedgerRow, SeatState, evolve

NIGHT_GRANT = 2  # AP1


def charge(state: GameState, name: str, delta: int, reason: str) -> GameState:
    """Add `delta` (negative: a cost) to a balance and write the ledger row (AP6)."""
    if delta == 0:
        return state
    seat = state.seat(name)
    row = LedgerRow(name, state.phase_label, delta, seat.ap + delta, reason)
    return state.with_seat(evolve(seat, ap=seat.ap + delta, ledger=(*seat.ledger, row)))


def guards(seat: SeatState) -> list[int]:
    """B1, B6: uids of the 保镖 cards that stand tonight: natural ones, and an 阿米巴 in 保镖 form whose upkeep was paid
    tonight (M2: the 4th point still buys its night; from the next night it is inert)."""
    return [
        c.uid
        for c in seat.hand
        if c.name == BODYGUARD
        or (c.uid in seat.amoebas and seat.amoebas[c.uid].form == BODYGUARD and seat.amoebas[c.uid].guarding)
    ]


def _upkeep_due(seat: SeatState) -> list[int]:
    """B6: the 保镖 cards that cost 1 AP tonight: natural ones, and an 阿米巴 保镖 with AP left of its 4 (M2)."""
    due = []
    for card in seat.hand:
        amoeba = seat.amoebas.get(card.uid)
        if card.name == BODYGUARD or (amoeba and amoeba.form == BODYGUARD and amoeba.spent < AMOEBA_CAP):
            due.append(card.uid)
    return due


def night_grant_and_upkeep(state: GameState) -> GameState:
    """AP1 then AP3(a): 2 AP plus 1 per 庶民 held to every living player, then 1 per 保镖 held (B6), as far as the
    balance goes (AP6: a balance is never negative; the 保镖 still stand — the upkeep is automatic).

    Each seat's rows are those `charge` writes one by one (the same deltas, balances and reasons, in that order),
    and the seat is replaced once: a night opens with some thirty charges."""
    label = state.phase_label
    seats = list(state.seats)
    for seat in state.alive:
        ap, rows = seat.ap, []
        commoners = seat.names.count(COMMONER)
        for delta, reason in ((NIGHT_GRANT, "每夜基本行动点数(AP1)"), (commoners, f"庶民 {commoners} 张(AP1)")):
            if delta:
                ap += delta
                rows.append(LedgerRow(seat.name, label, delta, ap, reason))
        due = _upkeep_due(seat)
        for _ in due:  # never below 0: only a table off S3 (three 保镖, no 庶民) could owe more than it is granted
            if ap > 0:
                ap -= 1
                rows.append(LedgerRow(seat.name, label, -1, ap, "保镖维持(AP3 a, B6)"))
        changes: dict = {"ap": ap, "ledger": (*seat.ledger, *rows)} if rows else {}
        if seat.amoebas:  # M2: an 阿米巴 turned 保镖 pays upkeep against its 4-AP cap, and stands if it paid
            changes["amoebas"] = {
                uid: evolve(a, spent=a.spent + (uid in due), guarding=uid in due) if a.form == BODYGUARD else a
                for uid, a in seat.amoebas.items()
            }
        if changes:
            seats[state.index[seat.name]] = evolve(seat, **changes)
    return evolve(state, seats=tuple(seats))
