"""暗火线: results, views and UI forms (see ``anhuoxian.py`` for the rules; this module reads the state)."""

from __future__ import annotations

from typing import Any

from .anhuoxian import KIND, TERRORIST, State, anhuoxian_expected, flashed, smoked
from .anhuoxian_moves import moves
from .base import visible_log

__all__ = ["forms", "moves", "score", "view", "winner"]

USED = {"equip": "装备", "shoot": "射击", "skill": "技能", "grenade": "手雷", "double": "双发子弹"}


def winner(state: State) -> list[int] | None:
    if state.winning_side is None:
        return None
    good = state.winning_side != TERRORIST
    return [p for p, r in enumerate(state.roles) if (r != TERRORIST) == good]


def score(state: State) -> dict[int, int] | None:
    won = winner(state)
    if won is None:
        return None
    return {p: int(p in won) for p in range(len(state.players))}


def view(state: State, viewer: int | None) -> dict[str, Any]:
    over = state.phase == "over"
    seats = []
    for p, name in enumerate(state.players):
        seats.append(
            {
                "seat": p,
                "name": name,
                "role": state.roles[p] if (over or not state.alive[p] or p == viewer) else None,
                "hp": state.hp[p],
                "max_hp": state.max_hp[p],
                "alive": state.alive[p],
                "vest": state.vest[p],
                "env": state.env[p],
                "smoked": smoked(state, p),
                "flashed": flashed(state, p),
                "hand_count": len(state.hands[p]),
                "hand": list(state.hands[p]) if p == viewer else None,
            }
        )
    peeks = [[state.players[t], role] for t, role in state.peeks[viewer]] if viewer is not None else []
    return {
        "kind": KIND,
        "seats": seats,
        "current": state.current,
        "phase": state.phase,
        "to_act": None if over else anhuoxian_expected(state)[0],
        "dying": state.dying["queue"][0] if state.dying and state.dying["queue"] else None,
        "used": [USED.get(u, u) for u in state.used],
        "effects": [
            {"kind": e["kind"], "by": state.players[e["by"]], "targets": [state.players[t] for t in e["targets"]]}
            for e in state.effects
        ],
        "deck_count": len(state.deck),
        "discard_count": len(state.discard_pile),
        "peeks": peeks,
        "winning_side": state.winning_side,
        "winners": winner(state),
        "log": visible_log(state.log, viewer),
    }


def forms(s: State, seat: int) -> list[dict[str, Any]]:
    """The page's forms: one per legal move (``anhuoxian_moves``), its choices the legal values."""
    return [m.form() for m in moves(s, seat)]
