"""The records every physical tracker shares (``tables.rules.tracker``): a part of the ``*_physical`` oracles."""

from __future__ import annotations

from typing import Any

TYPES = ("hp", "hand", "max_hp", "end_turn", "death", "confirm_death", "reject_death", "correct")
ARGS = {"hp": ("target", "delta", "source"), "hand": ("target", "delta"), "max_hp": ("target", "delta"),
        "death": ("target", "source"), "confirm_death": ("target",), "reject_death": ("target",),
        "correct": ("target", "field", "value", "reason")}  # fmt: skip
FIELDS = ("hp", "max_hp", "hand", "turn")
VALUES = (-100, -99, -1, 0, 1, 2, 5, 99, 100)


def values(state: Any, seat: Any, name: str) -> list[Any]:
    n = len(state.players)
    if name == "target":
        return list(range(n))
    if name == "delta":
        return list(range(-6, 7))
    if name == "source":
        return ["none", *range(n)]
    if name == "field":
        return list(FIELDS)
    if name == "value":
        return list(VALUES)
    if name == "reason":
        return ["", "记错了", "长" * 201]
    raise KeyError(name)
