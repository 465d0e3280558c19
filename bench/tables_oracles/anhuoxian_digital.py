"""暗火线 electronic: every action a seat could send."""

from __future__ import annotations

import itertools
from typing import Any

from .sanguosha_digital import sub_hands

CARDS = ("单发子弹", "双发子弹", "血清", "烟雾弹", "闪光弹", "武装解除", "急救包", "手雷", "搜查令", "超市", "餐厅",
         "主控室", "储藏室", "防弹衣")  # fmt: skip
TYPES = ("equip", "shoot", "skill", "serum", "unequip", "end_play", "aid", "pass", "discard")
ARGS = {"equip": ("card",), "shoot": ("card", "targets"), "discard": ("cards",),
        "skill": [("card", "target"), ("card", "targets"), ("card", "target", "what")]}  # fmt: skip
WHATS = ("hand", "vest", "env", "smoke")


def values(state: Any, seat: Any, name: str) -> list[Any]:
    n = len(state.players)
    if name == "card":
        return list(CARDS)
    if name == "target":
        return list(range(n))
    if name == "targets":  # one or two seats, in either order
        return [[p] for p in range(n)] + [list(pair) for pair in itertools.permutations(range(n), 2)]
    if name == "what":
        return list(WHATS)
    return sub_hands(state.hands[seat])
