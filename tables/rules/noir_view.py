"""Noir: results, views, and the forms built from the legal moves (``noir.py``: the state and the rules;
``noir_moves``: the moves)."""

from __future__ import annotations

from typing import Any

from .base import visible_log
from .noir import INSPECTOR_ROLE, KILLER_ROLE, KIND, State
from .noir_moves import moves


def winner(state: State) -> list[int] | None:
    return None if state.winner is None else [state.winner]


def score(state: State) -> dict[int, int] | None:
    if state.winner is None:
        return None
    return {seat: int(seat == state.winner) for seat in range(2)}


def view(state: State, viewer: int | None) -> dict[str, Any]:
    over = state.phase == "over"
    me: dict[str, Any] | None = None
    if viewer == state.killer:
        me = {"role": KILLER_ROLE, "identity": state.killer_identity, "hand": []}
    elif viewer == state.inspector:
        me = {"role": INSPECTOR_ROLE, "identity": state.inspector_identity, "hand": list(state.inspector_hand)}
    return {
        "kind": KIND,
        "players": list(state.players),
        "roles": {str(state.killer): KILLER_ROLE, str(state.inspector): INSPECTOR_ROLE},
        "grid": [[dict(cell) for cell in row] for row in state.grid],
        "deck_count": len(state.deck),
        "discard": list(state.discard),
        "kills": state.kills,
        "kill_target": state.options["kill_target"],
        "seats": [
            {"seat": p, "name": n, "role": KILLER_ROLE if p == state.killer else INSPECTOR_ROLE}
            for p, n in enumerate(state.players)
        ],
        "turn": state.turn,
        "to_act": None if over else state.turn,
        "phase": state.phase,
        "last_shift": state.last_shift,
        "me": me,
        "revealed": {"killer": state.killer_identity, "inspector": state.inspector_identity} if over else None,
        "winner": state.winner,
        "win_reason": state.win_reason,
        "log": visible_log(state.log, viewer),
    }


def forms(state: State, seat: int) -> list[dict[str, Any]]:
    """The page's forms: one per legal move (``noir_moves``), its choices the legal values."""
    return [m.form() for m in moves(state, seat)]
