"""Noir: the moves the player whose turn it is may make now, each with its legal arguments — declared once.

The pages' forms are built from this list (``noir_view.forms``); each move checks its own legality when applied
(``noir.apply``) with the same functions (``allowed_moves``, ``kill_targets``, ``legal_shifts``, ``identity_choices``,
``arrest_targets``), so the list and the rules cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .moves import Arg, Move, choice_arg
from .noir import AXES, DIRECTIONS, State, allowed_moves, arrest_targets, identity_choices, kill_targets, legal_shifts

_Lister = Callable[[State], Move | None]


def _suspects(name: str, label: str, names: list[str]) -> tuple[Arg, ...]:
    return (choice_arg(name, label, [(n, n) for n in names]),)


def _kill(s: State) -> Move | None:
    targets = kill_targets(s)
    return Move("kill", "杀害相邻嫌疑人", _suspects("target", "目标", targets)) if targets else None


def _choose_identity(s: State) -> Move | None:
    return Move("choose_identity", "选择秘密身份", _suspects("card", "身份", identity_choices(s)))


def _exonerate(s: State) -> Move | None:
    return Move("exonerate", "打出一张证据卡宣告无罪", _suspects("card", "证据卡", s.inspector_hand))


WAYS = {1: "向右/向下", -1: "向左/向上"}


def _shift(s: State) -> Move | None:
    """One form, a picker per argument; the rules refuse the combinations ``legal_shifts`` leaves out."""
    legal = legal_shifts(s)
    if not legal:
        return None
    used = {key: {x[key] for x in legal} for key in ("axis", "index", "dir")}
    axes = [(a, AXES[a]) for a in AXES if a in used["axis"]]
    lines = tuple((i, str(i + 1)) for i in sorted(used["index"]))
    ways = tuple((d, WAYS[d]) for d in DIRECTIONS if d in used["dir"])
    args = (choice_arg("axis", "方向", axes), Arg("index", "第几排", "int", lines), Arg("dir", "方向", "int", ways))
    return Move("shift", "推移一排", args, combos=tuple((x["axis"], x["index"], x["dir"]) for x in legal))


def _arrest(s: State) -> Move | None:
    targets = arrest_targets(s)
    return Move("arrest", "逮捕", _suspects("target", "目标", targets)) if targets else None


# In the order the page shows them; a type is listed only when the phase opens it (``allowed_moves``).
_LISTERS: dict[str, _Lister] = {
    "kill": _kill,
    "choose_identity": _choose_identity,
    "exonerate": _exonerate,
    "shift": _shift,
    "arrest": _arrest,
    "disguise": lambda s: Move("disguise", "伪装(从证据牌堆抽一张)"),
    "exonerate_draw": lambda s: Move("exonerate_draw", "无罪宣告:先抽一张证据卡"),
}


def moves(s: State, seat: Any) -> list[Move]:
    """Every move ``seat`` may make now: only the player whose turn it is acts."""
    if s.phase == "over" or seat != s.turn:
        return []
    open_now = allowed_moves(s, seat)
    listed = [_LISTERS[kind](s) for kind in _LISTERS if kind in open_now]
    return [m for m in listed if m is not None]
