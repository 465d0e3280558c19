"""Pure rules for the table trackers: one game per kind and mode, each a ``TableGame`` (``moves``).

An electronic game is a rules module (the state, ``new_game``, ``apply``, ``legal``; the moves check their own
legality) and a view module (``view``, and ``forms`` built from the legal moves), which reads the state and imports
the rules, never the other way round; a game may keep its moves list and its results in modules of their own
(三国杀: ``sanguosha_moves``, ``sanguosha_score``; 暗火线: ``anhuoxian_moves``).  ``ElectronicGame`` puts them
together.  A physical tracker is one module with the whole interface, its records listed by ``tracker.record_moves``.
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
from .moves import Move, TableGame

__all__ = ["GAMES", "MODES", "PHYSICAL", "ElectronicGame", "RuleError", "TableGame", "game"]


class ElectronicGame:
    """One electronic game as the site uses it: the ``TableGame`` interface from its view module (the view, the
    forms, the results) and its rules module (the state and the moves).  Any other name (a rules constant such as
    ``SHA``) is looked up in the view module, then in the rules module."""

    def __init__(self, rules: ModuleType, view: ModuleType) -> None:
        self._modules = (view, rules)
        self.KIND: str = rules.KIND
        self.TITLE: str = rules.TITLE
        self.MIN_PLAYERS: int = rules.MIN_PLAYERS
        self.MAX_PLAYERS: int = rules.MAX_PLAYERS
        self.State: type[Any] = rules.State

    def new_game(self, players: list[str], seed: int, options: dict[str, Any] | None = None) -> Any:
        return self._modules[1].new_game(players, seed, options)

    def apply(self, state: Any, action: Any) -> tuple[Any, list[dict[str, Any]]]:
        result: tuple[Any, list[dict[str, Any]]] = self._modules[1].apply(state, action)
        return result

    def legal(self, state: Any, action: Any) -> None:
        self._modules[1].legal(state, action)

    def winner(self, state: Any) -> list[int] | None:
        found: list[int] | None = self._modules[0].winner(state)
        return found

    def score(self, state: Any) -> dict[int, int] | None:
        scores: dict[int, int] | None = self._modules[0].score(state)
        return scores

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        shown: dict[str, Any] = self._modules[0].view(state, viewer)
        return shown

    def moves(self, state: Any, seat: Any) -> list[Move]:
        listed: list[Move] = self._modules[0].moves(state, seat)
        return listed

    def forms(self, state: Any, seat: Any) -> list[dict[str, Any]]:
        offered: list[dict[str, Any]] = self._modules[0].forms(state, seat)
        return offered

    def __getattr__(self, name: str) -> Any:
        for module in self._modules:
            if hasattr(module, name):
                return getattr(module, name)
        raise AttributeError(f"{self._modules[1].__name__} 没有 {name}")

    def __repr__(self) -> str:
        return f"ElectronicGame({self._modules[1].__name__}, {self._modules[0].__name__})"


GAMES: dict[str, TableGame] = {
    "direnjie_cards": ElectronicGame(direnjie_cards, direnjie_cards_view),
    "noir": ElectronicGame(noir, noir_view),
    "sanguosha": ElectronicGame(sanguosha, sanguosha_view),
    "anhuoxian": ElectronicGame(anhuoxian, anhuoxian_view),
}

# Physical-deck mode: the table plays its own box; the app deals the secrets and keeps the public state.  Noir's only
# secrets are its evidence cards, so its tracker is the game itself (the table mirrors the grid the app shows).
PHYSICAL: dict[str, TableGame] = {
    "direnjie_cards": direnjie_table,
    "noir": GAMES["noir"],
    "sanguosha": sanguosha_table,
    "anhuoxian": anhuoxian_table,
}
MODES = {
    "digital": "电子牌(应用发牌并执行规则;三国杀电子牌只是基本牌练习:杀闪桃酒,无锦囊装备,武将技能不执行)",
    "physical": "实体牌(用自己的牌,应用只发秘密并记分)",
}


def game(kind: str, mode: str = "digital") -> TableGame:
    table = PHYSICAL if mode == "physical" else GAMES
    try:
        return table[kind]
    except KeyError:
        raise RuleError(f"未知的游戏种类「{kind}」。可选:{'、'.join(GAMES)}。") from None
