"""The table: games, seats (with their player history), phases and the raw messages the 天神 entered.

Inputs are append-only records; a game's state is rebuilt by replaying them through the pure rules (moderator.rules).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


def new_token() -> str:
    """A private seat link: 32 bytes from the OS's CSPRNG (256 bits, A: a player sees only their own hand)."""
    return secrets.token_urlsafe(32)


class Game(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "准备中"
        RUNNING = "running", "进行中"
        PAUSED = "paused", "已暂停"
        FINISHED = "finished", "已结束"

    name = models.CharField("名称", max_length=100)
    created_at = models.DateTimeField("创建时间", auto_now_add=True)
    gms = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="gm_games", verbose_name="天神", blank=True)
    seats_count = models.PositiveSmallIntegerField("人数", default=7)
    hand_size = models.PositiveSmallIntegerField("每人张数", default=5)
    deck = models.JSONField("牌堆", default=list)
    left_out = models.JSONField("未发出的牌", default=list, blank=True)
    camp_seed = models.BigIntegerField("阵营随机种子", null=True, blank=True)
    deal_seed = models.BigIntegerField("发牌随机种子", null=True, blank=True)
    order_seed = models.BigIntegerField("默认丢牌顺序随机种子")
    phase_seconds = models.PositiveIntegerField("每个时段秒数", default=24 * 3600)
    status = models.CharField("状态", max_length=10, choices=Status.choices, default=Status.SETUP)
    started_at = models.DateTimeField("《游戏者名单》发布时间", null=True, blank=True)
    winner = models.CharField("胜方", max_length=10, blank=True)
    # Where play starts (a scenario may start later than night 1) and what the seats carry into it.
    start_kind = models.CharField("开始时段", max_length=5, default="night")
    start_number = models.PositiveSmallIntegerField("开始时段序号", default=1)
    initial_ap = models.JSONField("开局行动点数", default=dict, blank=True)
    hands_are_orders = models.BooleanField("手牌已按丢牌顺序录入", default=False)
    input_seq = models.PositiveIntegerField("录入计数", default=0)  # orders inputs of equal forum time by entry

    class Meta:
        verbose_name = verbose_name_plural = "游戏"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Seat(models.Model):
    """One of the seats of a game. A substitute (S5) takes the seat over with its hand, order, AP and history."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", verbose_name="游戏")
    number = models.PositiveSmallIntegerField("座位号")
    player_name = models.CharField("论坛ID", max_length=60)
    camp = models.CharField("阵营", max_length=4)
    dealt_hand = models.JSONField("发到的牌", default=list)
    token = models.CharField("私人链接令牌", max_length=64, unique=True, default=new_token)
    signed_in_at = models.DateTimeField("签到时间", null=True, blank=True)

    class Meta:
        verbose_name = verbose_name_plural = "座位"
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["game", "player_name"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.player_name}"


class SeatHolder(models.Model):
    """S5: who held a seat from when; the first row is the original player."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="holders", verbose_name="座位")
    player_name = models.CharField("论坛ID", max_length=60)
    since = models.DateTimeField("开始时间")
    reason = models.CharField("原因", max_length=20, default="开局")

    class Meta:
        verbose_name = verbose_name_plural = "座位玩家历史"
        ordering = ["seat", "since", "id"]


class Phase(models.Model):
    """A night or a day (T1). Its end time is data; closing is a compare-and-set on `status`."""

    class Kind(models.TextChoices):
        NIGHT = "night", "夜"
        DAY = "day", "天"

    class Status(models.TextChoices):
        OPEN = "open", "进行中"
        CLOSED = "closed", "已结束"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="phases", verbose_name="游戏")
    kind = models.CharField("类型", max_length=5, choices=Kind.choices)
    number = models.PositiveSmallIntegerField("序号")
    starts_at = models.DateTimeField("开始时间")
    ends_at = models.DateTimeField("结束时间")
    status = models.CharField("状态", max_length=6, choices=Status.choices, default=Status.OPEN)
    closed_at = models.DateTimeField("实际结束时间", null=True, blank=True)
    result = models.JSONField("结算结果", default=dict, blank=True)
    paused_remaining = models.DurationField("暂停时剩余时间", null=True, blank=True)

    class Meta:
        verbose_name = verbose_name_plural = "时段"
        ordering = ["game", "starts_at", "id"]
        constraints = [models.UniqueConstraint(fields=["game", "kind", "number"], name="phase_unique")]
        indexes = [models.Index(fields=["status", "ends_at"], name="phase_due_idx")]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        return f"第{self.number}{'夜' if self.kind == self.Kind.NIGHT else '天'}"


class Message(models.Model):
    """A raw message exactly as the 天神 pasted it (a PM or a vote post), kept forever."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="messages", verbose_name="游戏")
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True, verbose_name="发送者座位")
    sender_name = models.CharField("发送者", max_length=60)
    text = models.TextField("原文")
    parsed = models.JSONField("解析结果", default=dict, blank=True)  # what the parser read at entry (PARSER.md)
    forum_at = models.DateTimeField("论坛时间")
    entered_at = models.DateTimeField("录入时间", auto_now_add=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name="录入人"
    )

    class Meta:
        verbose_name = verbose_name_plural = "原始消息"
        ordering = ["game", "forum_at", "id"]


class InputRecord(models.Model):
    """What every append-only input shares: where it belongs, when it was sent and entered, and the verdict."""

    class Status(models.TextChoices):
        ACCEPTED = "accepted", "已接受"
        REFUSED = "refused", "已拒绝"
        VOIDED = "voided", "已作废"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", verbose_name="游戏")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="+", verbose_name="时段")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+", verbose_name="座位")
    message = models.ForeignKey(Message, on_delete=models.SET_NULL, null=True, blank=True, verbose_name="原始消息")
    forum_at = models.DateTimeField("论坛时间")
    seq = models.PositiveIntegerField("录入序号")
    entered_at = models.DateTimeField("录入时间", auto_now_add=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="录入人",
    )
    status = models.CharField("状态", max_length=8, choices=Status.choices, default=Status.ACCEPTED)
    reason = models.TextField("说明", blank=True)

    class Meta:
        abstract = True
        ordering = ["forum_at", "seq"]


class Announcement(models.Model):
    """The outbox: drafts written in the same transaction as the close that produced them (A1–A5)."""

    class Kind(models.TextChoices):
        DAWN = "dawn", "天亮公告"
        DUSK = "dusk", "天黑公告"
        VOTE_POST = "vote", "投票帖"
        PRIVATE = "private", "私信草稿"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="announcements", verbose_name="游戏")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="announcements", verbose_name="时段")
    kind = models.CharField("类型", max_length=8, choices=Kind.choices)
    recipient = models.CharField("收件人", max_length=60, blank=True)
    title = models.CharField("标题", max_length=200)
    bbcode = models.TextField("BBCode")
    text = models.TextField("纯文本")
    events = models.JSONField("事件", default=list)
    created_at = models.DateTimeField("生成时间", auto_now_add=True)

    class Meta:
        verbose_name = verbose_name_plural = "公告草稿"
        ordering = ["game", "created_at", "id"]


class AuditLog(models.Model):
    """Every GM act on a game (inputs, edits, voids, closes, extensions, pauses, corrections): who, what, when."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="audit", verbose_name="游戏")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name="操作人"
    )
    action = models.CharField("操作", max_length=40)
    detail = models.JSONField("详情", default=dict, blank=True)
    at = models.DateTimeField("时间", auto_now_add=True)

    class Meta:
        verbose_name = verbose_name_plural = "操作记录"
        ordering = ["game", "at", "id"]
