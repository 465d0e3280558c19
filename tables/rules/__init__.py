"""Pure rules for the table trackers: one module per game, all with the interface described in ``base``."""

from __future__ import annotations

from typing import Any

from . import anhuoxian, direnjie_cards, noir, sanguosha
from .base import RuleError

__all__ = ["GAMES", "RuleError", "game"]

GAMES: dict[str, Any] = {
    "direnjie_cards": direnjie_cards,
    "noir": noir,
    "sanguosha": sanguosha,
    "anhuoxian": anhuoxian,
}


def game(kind: str) -> Any:
    try:
        return GAMES[kind]
    except KeyError:
        raise RuleError(f"未知的游戏种类「{kind}」。可选:{'、'.join(GAMES)}。") from None
