"""三国杀 electronic (基本牌练习): every action a seat could send."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

CARDS = ("杀", "闪", "桃", "酒")
TYPES = ("choose_general", "sha", "shan", "take", "tao", "jiu", "end_play", "rescue", "pass", "discard", "sacrifice",
         "ghost")  # fmt: skip
ARGS = {"sha": ("target",), "sacrifice": ("target", "card"), "rescue": ("card",), "choose_general": ("general",),
        "discard": ("cards",), "ghost": ("target",)}  # fmt: skip


def values(state: Any, seat: Any, name: str) -> list[Any]:
    from tables.rules.sanguosha_generals import GENERALS

    if name == "target":
        return list(range(len(state.players)))
    if name == "card":
        return list(CARDS)
    if name == "general":
        return list(GENERALS)
    return sub_hands(state.hands[seat])


def sub_hands(hand: list[str]) -> list[list[str]]:
    """Every part of a hand (each sub-multiset)."""
    held = Counter(hand)
    kinds = sorted(held)
    counts = itertools.product(*(range(held[c] + 1) for c in kinds))
    return [[c for c, k in zip(kinds, pick, strict=True) for _ in range(k)] for pick in counts]
