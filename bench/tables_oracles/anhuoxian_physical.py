"""暗火线 实体牌: every record a seat or the host could send (the tracker's common records and the 搜查令)."""

from __future__ import annotations

from typing import Any

from . import tracker_common as common

TYPES = (*common.TYPES, "warrant")
ARGS = {**common.ARGS, "warrant": ("target",)}


def values(state: Any, seat: Any, name: str) -> list[Any]:
    return common.values(state, seat, name)
