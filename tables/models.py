"""One table of one of the four tracked games, and its action log.

The state JSON is a cache: replaying the actions, in ``seq`` order, from ``new_game(players, seed, options)`` rebuilds
it exactly (``Table.rebuild``; pinned by a test).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import models

from tables.rules import GAMES, game


class Table(models.Model):
    KINDS = [(kind, module.TITLE) for kind, module in GAMES.items()]

    kind = models.CharField("游戏", max_length=32, choices=KINDS)
    name = models.CharField("桌名", max_length=100)
    players = models.JSONField("玩家", default=list, help_text='[{"name": 名字, "token": 私人链接密钥}],按座位顺序')
    seed = models.BigIntegerField("随机种子")
    options = models.JSONField("选项", default=dict, blank=True)
    state = models.JSONField("局面", default=dict)
    created = models.DateTimeField("创建时间", auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = "牌桌"
        verbose_name_plural = "牌桌"

    def __str__(self) -> str:
        return f"{self.name}({self.get_kind_display()})"

    @property
    def rules(self) -> Any:
        return game(self.kind)

    @property
    def player_names(self) -> list[str]:
        return [p["name"] for p in self.players]

    def load(self) -> Any:
        return self.rules.State.from_dict(self.state)

    def seat_for_token(self, token: str) -> int | None:
        for seat, player in enumerate(self.players):
            if secrets.compare_digest(str(player["token"]), str(token)):
                return seat
        return None

    def rebuild(self) -> Any:
        """The state replayed from the seed and the action log (ignores the stored state)."""
        state = self.rules.new_game(self.player_names, self.seed, self.options)
        for entry in self.actions.order_by("seq"):
            state, _ = self.rules.apply(state, entry.action)
        return state


class TableAction(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions", verbose_name="牌桌")
    seq = models.PositiveIntegerField("序号")
    actor = models.PositiveSmallIntegerField("座位")
    action = models.JSONField("行动")
    created = models.DateTimeField("时间", auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        verbose_name = "行动记录"
        verbose_name_plural = "行动记录"
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="tables_action_unique_seq")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.action.get('type')}"
