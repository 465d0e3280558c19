"""三国杀: who won and the 4th-edition scores (seed 002's 计分规则), for both modes (the physical tracker's state
has the same ``roles``, ``alive``, ``reborn``, ``kills``, ``duel`` and ``winning_side``).

Rulings (also in docs/tables.md): personal bonuses count only for the winning side; dead loyalists of a winning lord
still score; 「与主公单挑」 means the renegade and the lord were the last two standing; a reborn player counts as out.
"""

from __future__ import annotations

from typing import Any

from .sanguosha import LORD, LOYAL, REBEL, RENEGADE, SIDE_LORD, SIDE_REBEL, SIDE_RENEGADE

State = Any  # either mode's state


def _standing(state: State, p: int) -> bool:
    """Alive and not reborn: 转世规则 counts a reborn player as out (the physical tracker's state has ``reborn``)."""
    reborn = getattr(state, "reborn", None) or []
    return bool(state.alive[p]) and not (len(reborn) == len(state.players) and reborn[p])


def winner(state: State) -> list[int] | None:
    side = state.winning_side
    if side is None:
        return None
    if side == SIDE_LORD:
        return [p for p, r in enumerate(state.roles) if r in (LORD, LOYAL)]
    if side == SIDE_REBEL:
        return [p for p, r in enumerate(state.roles) if r == REBEL]
    return [p for p, r in enumerate(state.roles) if r == RENEGADE and _standing(state, p)]


def score(state: State) -> dict[int, int] | None:
    """4th-edition scoring (see module docstring for the rulings)."""
    side = state.winning_side
    if side is None:
        return None
    n = len(state.players)
    roles = state.roles
    alive_loyal = sum(1 for p, r in enumerate(roles) if r == LOYAL and _standing(state, p))
    alive_rebel = sum(1 for p, r in enumerate(roles) if r == REBEL and _standing(state, p))
    out = {}
    for p, role in enumerate(roles):
        victims = [roles[v] for k, v in state.kills if k == p]
        if role == LORD:
            pts = {SIDE_LORD: 4 + 2 * alive_loyal, SIDE_REBEL: 0, SIDE_RENEGADE: 1}[side]
        elif role == LOYAL:
            pts = 5 + alive_loyal if side == SIDE_LORD else 0
        elif role == REBEL:
            pts = 3 * alive_rebel if side == SIDE_REBEL else 0
        elif side == SIDE_RENEGADE:
            pts = 4 + 2 * n if _standing(state, p) else 0
        elif side == SIDE_LORD:
            pts = n if state.duel and _last_renegade(state) == p else 0
        else:
            pts = 1 if _standing(state, p) else 0
        if side == SIDE_LORD and role in (LORD, LOYAL):
            pts += sum(1 for v in victims if v in (REBEL, RENEGADE))
        if side == SIDE_REBEL and role == REBEL:
            pts += sum(1 for v in victims if v in (LOYAL, RENEGADE)) + 2 * sum(1 for v in victims if v == LORD)
        out[p] = pts
    return out


def _last_renegade(state: State) -> int | None:
    for _, victim in reversed(state.kills):
        if state.roles[victim] == RENEGADE:
            return victim
    return None
