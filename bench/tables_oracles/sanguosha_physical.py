"""三国杀 实体牌: every record a seat or the host could send (the tracker's common records and 三国杀's own)."""

from __future__ import annotations

from typing import Any

from . import tracker_common as common

TYPES = (*common.TYPES, "choose_general", "ghost", "sacrifice")
ARGS = {**common.ARGS, "choose_general": ("general",), "ghost": ("target",), "sacrifice": ("target",)}
HOST_ARGS = {"ghost": ("ghost", "target"), "sacrifice": ("giver", "target")}


def values(state: Any, seat: Any, name: str) -> list[Any]:
    from tables.rules.sanguosha_generals import GENERALS

    if name == "general":
        return list(GENERALS)
    if name in ("ghost", "giver"):
        return list(range(len(state.players)))
    return common.values(state, seat, name)
