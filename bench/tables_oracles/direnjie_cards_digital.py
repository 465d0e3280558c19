"""The oracle for 狄仁杰 electronic: each move type's arguments and every value they could be sent, written from the
game's domain (every seat, every card of the game, every part of a hand), apart from the game's own list of moves."""

from __future__ import annotations

import itertools
from typing import Any

from tables.rules.direnjie_cards import full_deck

ARGS: dict[str, tuple[str, ...] | list[tuple[str, ...]]] = {
    "check": ("owner", "index"),
    "function": ("target",),
    "give_back": ("cards",),
    "request": [("category",), ("number",), ("category", "number")],  # by category, by number, or naming both
    "give": ("card",),
    "pass": (),
    "consolation": ("source",),
    "submit": ("cards",),
    "no_submit": (),
    "refill": ("sources",),
    "answer": [("T", "W", "L"), ("T", "W", "L", "killer")],  # naming the killer, or not
}
TYPES = tuple(ARGS)
CARDS = sorted({*full_deck(killer=True), "W6", "L6"})  # every card of the game, and two it does not have


def values(state: Any, seat: Any, name: str) -> list[Any]:
    n = len(state.players)
    fixed: dict[str, list[Any]] = {
        "owner": list(range(n)),
        "target": list(range(n)),
        "killer": list(range(n)),
        "index": list(range(max(len(row) for row in state.clues) + 1)),
        "category": ["T", "W", "L", "M", "A"],
        "number": list(range(7)),
        "card": CARDS,
        "source": ["deck", "none", *range(n)],
        "sources": sources(n),
        "T": list(range(1, 7)),
        "W": list(range(1, 6)),
        "L": list(range(1, 6)),
    }
    if name in fixed:
        return fixed[name]
    return hand_parts(state.hands[seat], ordered=state.phase == "submit")


def sources(n: int) -> list[list[Any]]:
    """Up to two sources, in order, each the deck or any seat."""
    singles: list[Any] = ["deck", *range(n)]
    return [list(p) for k in range(3) for p in itertools.product(singles, repeat=k)]


def hand_parts(hand: list[str], ordered: bool) -> list[list[str]]:
    """Every part of the hand of up to three cards (a clue: its three cards in every order, top to bottom)."""
    parts = sorted({c for k in range(4) for c in itertools.combinations(sorted(hand), k)})
    if not ordered:
        return [list(p) for p in parts]
    return [list(p) for part in parts if len(part) == 3 for p in sorted(set(itertools.permutations(part)))]
