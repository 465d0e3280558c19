"""The oracle for the 狄仁杰 physical tracker: each record type's arguments and every value they could be sent, written
from the game's domain (every seat, every change of a count, every number on a card), apart from the tracker's own
list of moves.  The host's correction takes a number and a reason typed in: no list of values holds those, so it is
tried with none (and refused)."""

from __future__ import annotations

from typing import Any

ARGS: dict[str, tuple[str, ...] | list[tuple[str, ...]]] = {
    "hand": ("target", "delta"),
    "submit_clue": ("target",),
    "reveal_clue": ("target",),
    "end_turn": (),
    "claim_killer": (),
    "withdraw_claim": (),
    "answer": [("T", "W", "L"), ("T", "W", "L", "killer")],  # a detective's answer naming the killer, or not
    "mission": ("T", "W", "L"),
    "correct": (),
}
TYPES = tuple(ARGS)


def values(state: Any, seat: Any, name: str) -> list[Any]:
    n = len(state.players)
    return {
        "target": list(range(n)),
        "killer": list(range(n)),
        "delta": list(range(-6, 7)),
        "T": list(range(1, 7)),
        "W": list(range(1, 6)),
        "L": list(range(1, 6)),
    }[name]
