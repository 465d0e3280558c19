"""One table of one of the four tracked games, its action log and its series of games.

The state JSON is a cache: replaying the current game's actions that were not undone, in ``seq`` order, from
``new_game(players, round_seed, round_options)`` rebuilds it exactly (``Table.rebuild``; pinned by a test).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.db import models

from tables.rules import GAMES, MODES, game


def _same_token(secret: str, given: object) -> bool:
    """Constant-time comparison of a URL token with a stored one; any text a browser sends (``é``, ``²``, ``１``) is a
    plain mismatch.  ``secrets.compare_digest`` raises TypeError on non-ASCII *str*, so both sides are compared as
    UTF-8 bytes (not an anonymous 500)."""
    return secrets.compare_digest(secret.encode(), str(given).encode("utf-8", "surrogatepass"))


class Table(models.Model):
    KINDS = [(kind, module.TITLE) for kind, module in GAMES.items()]

    kind = models.CharField("游戏", max_length=32, choices=KINDS)
    mode = models.CharField("玩法", max_length=16, choices=list(MODES.items()), default="digital")
    name = models.CharField("桌名", max_length=100)
    players = models.JSONField(
        "玩家", default=list, help_text='[{"name": 名字, "token": 私人链接密钥, "sheet": 推理表}],按座位顺序'
    )
    host_token = models.CharField("主持人链接密钥", max_length=64, default="", blank=True)
    # A 128-bit number from `secrets`, kept as text (it does not fit a bigint); shown only once the game is over.
    seed = models.CharField("随机种子", max_length=64)
    options = models.JSONField("选项", default=dict, blank=True)
    state = models.JSONField("局面", default=dict)
    round = models.PositiveIntegerField("第几局", default=1)
    rounds = models.JSONField("已结束的各局", default=list, blank=True, help_text='[{"round", "scores", "winners"}]')
    version = models.PositiveIntegerField(
        "版本", default=0, help_text="每次别人看得到的写入加一;页面据此自动刷新,表单据此拒绝重复或过时的提交"
    )
    # The create form's one-time token: the same form sent twice (or four times) makes one table.
    create_token = models.CharField("开桌表单令牌", max_length=64, null=True, blank=True, unique=True, default=None)
    created = models.DateTimeField("创建时间", auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = "牌桌"
        verbose_name_plural = "牌桌"

    def __str__(self) -> str:
        return f"{self.name}({self.get_kind_display()})"

    @property
    def rules(self) -> Any:
        return game(self.kind, self.mode)

    @property
    def title(self) -> str:
        """The game and what this mode of it plays (the electronic 三国杀 is basic-card practice)."""
        return str(getattr(self.rules, "PAGE_TITLE", self.rules.TITLE))

    @property
    def player_names(self) -> list[str]:
        return [p["name"] for p in self.players]

    def load(self, copy: bool = True) -> Any:
        """The stored state; ``copy=False`` shares its lists with ``self.state`` (see ``TableState.from_dict``)."""
        return self.rules.State.from_dict(self.state, copy=copy)

    def seat_for_token(self, token: str) -> int | None:
        for seat, player in enumerate(self.players):
            if player["token"] and _same_token(str(player["token"]), token):
                return seat
        return None

    def is_host(self, token: str) -> bool:
        return bool(self.host_token) and _same_token(self.host_token, token)

    def round_seed(self, number: int | None = None) -> int:
        """Game k's 128-bit seed, derived from the table's: shown at the end of game k without giving away game k+1.

        Tables made before series existed (``seed_rule`` "v1") used the table's seed itself for their one game.
        """
        number = number or self.round
        if self.options.get("seed_rule") == "v1" and number == 1:
            return int(self.seed)
        return int.from_bytes(hashlib.sha256(f"{self.seed}:{number}".encode()).digest()[:16], "big")

    def round_options(self, number: int | None = None) -> dict[str, Any]:
        number = number or self.round
        options = dict(self.options)
        if options.get("rotate_lord"):  # 三国杀 series: the lord passes to the 下家 (the right: the previous seat)
            options["lord_seat"] = -(number - 1) % len(self.players)
        if options.get("last_blood") or options.get("ghosts"):  # 三国杀 详细规则 2: last game's first out
            previous = next((r for r in self.rounds if r.get("round") == number - 1), None)
            if previous is not None:
                options["protected"] = previous.get("first_out")
        for key in ("rotate_lord", "target", "seed_rule", "typed"):
            options.pop(key, None)
        return options

    @property
    def series_length(self) -> int | None:
        """三国杀's series (推广版计分赛): one game per player, each as the lord once; otherwise open-ended."""
        return len(self.players) if self.options.get("rotate_lord") else None

    def new_state(self) -> Any:
        return self.rules.new_game(self.player_names, self.round_seed(), self.round_options())

    def rebuild(self) -> Any:
        """The current game replayed from its seed and the action log (ignores the stored state)."""
        state = self.new_state()
        for entry in self.actions.filter(round=self.round, undone=False).order_by("seq"):
            state, _ = self.rules.apply(state, entry.action)
        return state


class TableAction(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions", verbose_name="牌桌")
    seq = models.PositiveIntegerField("序号")
    round = models.PositiveIntegerField("第几局", default=1)
    actor = models.PositiveSmallIntegerField("座位", null=True, blank=True, help_text="空 = 主持人")
    action = models.JSONField("行动")
    undone = models.BooleanField("已撤销", default=False)
    note = models.CharField("撤销理由", max_length=200, blank=True, default="")
    summary = models.TextField("撤销的是什么", blank=True, default="", help_text="撤销时这条记录的公开内容")
    created = models.DateTimeField("时间", auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        verbose_name = "行动记录"
        verbose_name_plural = "行动记录"
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="tables_action_unique_seq")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.action.get('type')}"


class SpentToken(models.Model):
    """A table form's one-time token once it has been used (tables/once.py): the same form sent again finds it here
    and changes nothing.  The create form's tokens are the tables' ``create_token`` instead."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="spent_tokens", verbose_name="牌桌")
    nonce = models.CharField("令牌", max_length=64, unique=True)
    created = models.DateTimeField("时间", auto_now_add=True)

    class Meta:
        verbose_name = "已用表单令牌"
        verbose_name_plural = "已用表单令牌"

    def __str__(self) -> str:
        return f"{self.table_id}:{self.nonce[:8]}…"
