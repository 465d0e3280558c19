"""AP bookkeeping (AP1–AP6): every change of a balance is a ledger row with its reason."""

from __future__ import annotations

from dataclasses import replace

from cards.catalogue import BODYGUARD, COMMONER
from moderator.rules.state import AMOEBA_CAP, GameState, LedgerRow, Seat

NIGHT_GRANT = 2  # AP1


def charge(state: GameState, name: str, delta: int, reason: str) -> GameState:
    """Add `delta` (negative: a cost) to a balance and write the ledger row (AP6)."""
    if delta == 0:
        return state
    seat = state.seat(name)
    row = LedgerRow(name, state.phase_label, delta, seat.ap + delta, reason)
    return state.with_seat(replace(seat, ap=seat.ap + delta, ledger=(*seat.ledger, row)))


def guards(seat: Seat) -> list[int]:
    """B6: uids of the 保镖 cards that stand and cost upkeep: natural ones, and an 阿米巴 in 保镖 form with AP left."""
    out = []
    for card in seat.hand:
        if card.name == BODYGUARD:
            out.append(card.uid)
        elif card.uid in seat.amoebas:
            amoeba = seat.amoebas[card.uid]
            if amoeba.form == BODYGUARD and amoeba.spent < AMOEBA_CAP:
                out.append(card.uid)
    return out


def night_grant_and_upkeep(state: GameState) -> GameState:
    """AP1 then AP3(a): 2 AP plus 1 per 庶民 held to every living player, then 1 per 保镖 held (B6)."""
    for seat in state.alive:
        state = charge(state, seat.name, NIGHT_GRANT, "每夜基本行动点数(AP1)")
        commoners = seat.names.count(COMMONER)
        state = charge(state, seat.name, commoners, f"庶民 {commoners} 张(AP1)")
        for uid in guards(seat):
            state = charge(state, seat.name, -1, "保镖维持(AP3 a, B6)")
            current = state.seat(seat.name)
            if uid in current.amoebas:  # M2: an 阿米巴 turned 保镖 pays upkeep against its 4-AP cap
                amoeba = current.amoebas[uid]
                amoebas = {**current.amoebas, uid: replace(amoeba, spent=amoeba.spent + 1)}
                state = state.with_seat(replace(current, amoebas=amoebas))
    return state
