"""The oracle for Noir (both modes: its tracker is the game): each move type's arguments and every value they could be
sent, written from the game's domain (all 25 suspects, both axes, every line of the full grid, both directions),
apart from the game's own list of moves."""

from __future__ import annotations

from typing import Any

from tables.rules.noir import SUSPECTS

ARGS: dict[str, tuple[str, ...]] = {
    "kill": ("target",),
    "shift": ("axis", "index", "dir"),
    "disguise": (),
    "choose_identity": ("card",),
    "arrest": ("target",),
    "exonerate_draw": (),
    "exonerate": ("card",),
}
TYPES = tuple(ARGS)


def values(state: Any, seat: Any, name: str) -> list[Any]:
    values: dict[str, list[Any]] = {
        "target": list(SUSPECTS),
        "card": list(SUSPECTS),
        "axis": ["row", "col"],
        "index": list(range(5)),
        "dir": [1, -1],
    }
    return values[name]
