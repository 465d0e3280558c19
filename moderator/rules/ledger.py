"""AP bookkeeping (AP1–AP6): every change of a balance is a ledger row with its reason."""

from __future__ import annotations

from cards.catalogue import BODYGUARD, COMMONER
from moderator.rules.state import AMOEBA_CAP, GameState, LedgerRow, Seat, evolve

NIGHT_GRANT = 2  # AP1


def charge(state: GameState, name: str, delta: int, reason: str) -> GameState:
    """Add `delta` (negative: a cost) to a balance and write the ledger row (AP6)."""
    if delta == 0:
        return state
    seat = state.seat(name)
    row = LedgerRow(name, state.phase_label, delta, seat.ap + delta, reason)
    return state.with_seat(evolve(seat, ap=seat.ap + delta, ledger=(*seat.ledger, row)))


def guards(seat: Seat) -> list[int]:
    """B1, B6: uids of the 保镖 cards that stand tonight: natural ones, and an 阿米巴 in 保镖 form whose upkeep was paid
    tonight (M2: the 4th point still buys its night; from the next night it is inert)."""
    return [
        c.uid
        for c in seat.hand
        if c.name == BODYGUARD
        or (c.uid in seat.amoebas and seat.amoebas[c.uid].form == BODYGUARD and seat.amoebas[c.uid].guarding)
    ]


def _upkeep_due(seat: Seat) -> list[int]:
    """B6: the 保镖 cards that cost 1 AP tonight: natural ones, and an 阿米巴 保镖 with AP left of its 4 (M2)."""
    due = []
    for card in seat.hand:
        amoeba = seat.amoebas.get(card.uid)
        if card.name == BODYGUARD or (amoeba and amoeba.form == BODYGUARD and amoeba.spent < AMOEBA_CAP):
            due.append(card.uid)
    return due


def night_grant_and_upkeep(state: GameState) -> GameState:
    """AP1 then AP3(a): 2 AP plus 1 per 庶民 held to every living player, then 1 per 保镖 held (B6), as far as the
    balance goes (AP6: a balance is never negative; the 保镖 still stand — the upkeep is automatic)."""
    for seat in state.alive:
        state = charge(state, seat.name, NIGHT_GRANT, "每夜基本行动点数(AP1)")
        commoners = seat.names.count(COMMONER)
        state = charge(state, seat.name, commoners, f"庶民 {commoners} 张(AP1)")
        due = _upkeep_due(seat)
        for _ in due:  # never below 0: only a table off S3 (three 保镖, no 庶民) could owe more than it is granted
            if state.seat(seat.name).ap > 0:
                state = charge(state, seat.name, -1, "保镖维持(AP3 a, B6)")
        current = state.seat(seat.name)
        if current.amoebas:  # M2: an 阿米巴 turned 保镖 pays upkeep against its 4-AP cap, and stands if it paid
            amoebas = {
                uid: evolve(a, spent=a.spent + (uid in due), guarding=uid in due) if a.form == BODYGUARD else a
                for uid, a in current.amoebas.items()
            }
            state = state.with_seat(evolve(current, amoebas=amoebas))
    return state
