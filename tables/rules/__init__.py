"""Pure rules for the table trackers: one game per kind and mode, all with the interface described in ``base``.

An electronic game is two modules: its rules (the state, ``new_game``, ``apply``, ``legal``) and its view (``view``,
``forms``, ``winner``, ``score``), which reads the state and imports the rules, never the other way round; ``Game``
puts the two together.  A physical tracker is one module with the whole interface.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from . import (
    anhuoxian,
    anhuoxian_table,
    anhuoxian_view,
    direnjie_cards,
    direnjie_cards_view,
    direnjie_table,
    noir,
    noir_view,
    sanguosha,
    sanguosha_table,
    sanguosha_view,
)
from .base import RuleError

__all__ = ["GAMES", "MODES", "PHYSICAL", "Game", "RuleError", "game"]


class Game:
    """One electronic game as the site uses it: a name is looked up in its view module, then in its rules module."""

    def __init__(self, rules: ModuleType, view: ModuleType) -> None:
        self._modules = (view, rules)

    def __getattr__(self, name: str) -> Any:
        for module in self._modules:
            if hasattr(module, name):
                return getattr(module, name)
        raise AttributeError(f"{self._modules[1].__name__} 没有 {name}")

    def __repr__(self) -> str:
        return f"Game({self._modules[1].__name__}, {self._modules[0].__name__})"


GAMES: dict[str, Any] = {
    "direnjie_cards": Game(direnjie_cards, direnjie_cards_view),
    "noir": Game(noir, noir_view),
    "sanguosha": Game(sanguosha, sanguosha_view),
    "anhuoxian": Game(anhuoxian, anhuoxian_view),
}

# Physical-deck mode: the table plays its own box; the app deals the secrets and keeps the public state.  Noir's only
# secrets are its evidence cards, so its tracker is the game itself (the table mirrors the grid the app shows).
PHYSICAL: dict[str, Any] = {
    "direnjie_cards": direnjie_table,
    "noir": GAMES["noir"],
    "sanguosha": sanguosha_table,
    "anhuoxian": anhuoxian_table,
}
MODES = {
    "digital": "电子牌(应用发牌并执行规则;三国杀电子牌只是基本牌练习:杀闪桃酒,无锦囊装备,武将技能不执行)",
    "physical": "实体牌(用自己的牌,应用只发秘密并记分)",
}


def game(kind: str, mode: str = "digital") -> Any:
    table = PHYSICAL if mode == "physical" else GAMES
    try:
        return table[kind]
    except KeyError:
        raise RuleError(f"未知的游戏种类「{kind}」。可选:{'、'.join(GAMES)}。") from None
