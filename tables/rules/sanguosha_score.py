"""三国杀: who won and the 4th-edition scores (seed 002's 计分规则), for both modes (the physical tracker's state
has the same ``roles``, ``alive``, ``reborn``, ``kills``, ``duel`` and ``winning_side``).

Rulings (also in docs/tables.md): personal bonuses count only for the winning side; dead loyalists of a winning lord
still score; 「与主公单挑」 means the renegade and the lord were the last two standing; a reborn player counts as out.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .sanguosha import LORD, LOYAL, REBEL, RENEGADE, SIDE_LORD, SIDE_REBEL, SIDE_RENEGADE

EitherState = Any  # either mode's state


def _standing(state: EitherState, p: int) -> bool:
    """Alive and not reborn: 转世规则 counts a reborn player as out (the physical tracker's state has ``reborn``)."""
    reborn = getattr(state, "reborn", None) or []
    return bool(state.alive[p]) and not (len(reborn) == len(state.players) and reborn[p])


def winner(state: EitherState) -> list[int] | None:
    side = state.winning_side
    if side is None:
        return None
    if side == SIDE_LORD:
        return [p for p, r in enumerate(state.roles) if r in (LORD, LOYAL)]
    if side == SIDE_REBEL:
        return [p for p, r in enumerate(state.roles) if r == REBEL]
    return [p for p, r in enumerate(state.roles) if r == RENEGADE and _standing(state, p)]


@dataclasses.dataclass(frozen=True)
class _Result:
    """What every score reads: the winning side, the table's size, the loyalists and rebels still standing."""

    side: str
    n: int
    loyal: int
    rebel: int


def score(state: EitherState) -> dict[int, int] | None:
    """4th-edition scoring (see module docstring for the rulings): each identity's points, plus its kill bonus."""
    if state.winning_side is None:
        return None
    roles = state.roles
    standing = [p for p in range(len(roles)) if _standing(state, p)]
    result = _Result(
        state.winning_side,
        len(state.players),
        sum(1 for p in standing if roles[p] == LOYAL),
        sum(1 for p in standing if roles[p] == REBEL),
    )
    bonus = KILL_BONUS.get(result.side, {})
    return {
        p: _points(state, result, p, role) + sum(bonus.get((role, roles[v]), 0) for k, v in state.kills if k == p)
        for p, role in enumerate(roles)
    }


def _points(state: EitherState, r: _Result, p: int, role: str) -> int:
    if role == LORD:
        return {SIDE_LORD: 4 + 2 * r.loyal, SIDE_REBEL: 0, SIDE_RENEGADE: 1}[r.side]
    if role == LOYAL:
        return 5 + r.loyal if r.side == SIDE_LORD else 0
    if role == REBEL:
        return 3 * r.rebel if r.side == SIDE_REBEL else 0
    if r.side == SIDE_RENEGADE:
        return 4 + 2 * r.n if _standing(state, p) else 0
    if r.side == SIDE_LORD:  # 单挑: the renegade who lost the duel with the lord
        return r.n if state.duel and _last_renegade(state) == p else 0
    return 1 if _standing(state, p) else 0


# The winning side's kill bonus: (killer's identity, victim's identity) → points.
KILL_BONUS: dict[str, dict[tuple[str, str], int]] = {
    SIDE_LORD: {(k, v): 1 for k in (LORD, LOYAL) for v in (REBEL, RENEGADE)},
    SIDE_REBEL: {(REBEL, LOYAL): 1, (REBEL, RENEGADE): 1, (REBEL, LORD): 2},
}


def _last_renegade(state: EitherState) -> int | None:
    for _, victim in reversed(state.kills):
        if state.roles[victim] == RENEGADE:
            return victim
    return None
