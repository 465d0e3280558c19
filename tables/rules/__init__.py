"""Pure rules for the table trackers: one module per game, all with the interface described in ``base``."""

from __future__ import annotations

from typing import Any

from . import anhuoxian, anhuoxian_table, direnjie_cards, direnjie_table, noir, sanguosha, sanguosha_table
from .base import RuleError

__all__ = ["GAMES", "MODES", "PHYSICAL", "RuleError", "game"]

GAMES: dict[str, Any] = {
    "direnjie_cards": direnjie_cards,
    "noir": noir,
    "sanguosha": sanguosha,
    "anhuoxian": anhuoxian,
}

# Physical-deck mode: the table plays its own box; the app deals the secrets and keeps the public state.  Noir's only
# secrets are its evidence cards, so its tracker is the game itself (the table mirrors the grid the app shows).
PHYSICAL: dict[str, Any] = {
    "direnjie_cards": direnjie_table,
    "noir": noir,
    "sanguosha": sanguosha_table,
    "anhuoxian": anhuoxian_table,
}
MODES = {
    "digital": "电子牌(应用发牌并执行规则;三国杀电子牌只是基本牌练习:杀闪桃酒,无武将锦囊装备)",
    "physical": "实体牌(用自己的牌,应用只发秘密并记分)",
}


def game(kind: str, mode: str = "digital") -> Any:
    table = PHYSICAL if mode == "physical" else GAMES
    try:
        return table[kind]
    except KeyError:
        raise RuleError(f"未知的游戏种类「{kind}」。可选:{'、'.join(GAMES)}。") from None
