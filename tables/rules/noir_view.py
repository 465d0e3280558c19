"""Noir: results, views and UI forms (see ``noir.py`` for the state and the rules)."""

from __future__ import annotations

from typing import Any

from .base import FormLister, form, forms_for, param, visible_log
from .noir import INSPECTOR, KILLER, KIND, State, _allowed, neighbours


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
        me = {"role": KILLER, "identity": state.killer_identity, "hand": []}
    elif viewer == state.inspector:
        me = {"role": INSPECTOR, "identity": state.inspector_identity, "hand": list(state.inspector_hand)}
    return {
        "kind": KIND,
        "players": list(state.players),
        "roles": {str(state.killer): KILLER, str(state.inspector): INSPECTOR},
        "grid": [[dict(cell) for cell in row] for row in state.grid],
        "deck_count": len(state.deck),
        "discard": list(state.discard),
        "kills": state.kills,
        "kill_target": state.options["kill_target"],
        "seats": [
            {"seat": p, "name": n, "role": KILLER if p == state.killer else INSPECTOR}
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
    if state.phase == "over" or seat != state.turn:
        return []
    return forms_for(_LISTERS, _allowed(state, seat), state, seat)


def _alive(state: State) -> list[str]:
    return [cell["name"] for row in state.grid for cell in row if not cell["dead"]]


def _kill_forms(state: State, seat: int) -> list[dict[str, Any]]:
    alive = _alive(state)
    targets = [n for n in neighbours(state, state.killer_identity) if n in alive]
    if not targets:  # no living neighbour: no empty form
        return []
    return [form("kill", "杀害相邻嫌疑人", param("target", "目标", "choice", [(n, n) for n in targets]))]


def _choose_identity_forms(state: State, seat: int) -> list[dict[str, Any]]:
    alive = _alive(state)
    cards = [(c, c) for c in state.inspector_hand if c in alive]
    return [form("choose_identity", "选择秘密身份", param("card", "身份", "choice", cards))]


def _exonerate_forms(state: State, seat: int) -> list[dict[str, Any]]:
    cards = [(c, c) for c in state.inspector_hand]
    return [form("exonerate", "打出一张证据卡宣告无罪", param("card", "证据卡", "choice", cards))]


def _shift_forms(state: State, seat: int) -> list[dict[str, Any]]:
    rows, cols = len(state.grid), len(state.grid[0])
    return [
        form(
            "shift",
            "推移一排",
            param("axis", "方向", "choice", [("row", "横排"), ("col", "直排")]),
            param("index", "第几排", "int", [(i, str(i + 1)) for i in range(max(rows, cols))]),
            param("dir", "方向", "int", [(1, "向右/向下"), (-1, "向左/向上")]),
        )
    ]


def _arrest_forms(state: State, seat: int) -> list[dict[str, Any]]:
    me = state.inspector_identity
    if not me:
        return []
    alive = _alive(state)
    targets = [me] + [n for n in neighbours(state, me) if n in alive]
    return [form("arrest", "逮捕", param("target", "目标", "choice", [(n, n) for n in targets]))]


_LISTERS: dict[str, FormLister] = {
    "kill": _kill_forms,
    "choose_identity": _choose_identity_forms,
    "exonerate": _exonerate_forms,
    "shift": _shift_forms,
    "arrest": _arrest_forms,
    "disguise": lambda state, seat: [form("disguise", "伪装(从证据牌堆抽一张)")],
    "exonerate_draw": lambda state, seat: [form("exonerate_draw", "无罪宣告:先抽一张证据卡")],
}
