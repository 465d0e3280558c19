"""Discard orders (丢牌顺序, RULES.md O1–O3): append-only; the newest accepted one counts."""

from django.db import models


class DiscardOrder(models.Model):
    class Source(models.TextChoices):
        PLAYER = "player", "玩家提交"
        RANDOM = "random", "系统随机(O1)"
        GM = "gm", "天神录入"

    class Status(models.TextChoices):
        ACCEPTED = "accepted", "已接受"
        REFUSED = "refused", "已拒绝"
        VOIDED = "voided", "已作废"

    game = models.ForeignKey("moderator.Game", on_delete=models.CASCADE, related_name="orders", verbose_name="游戏")
    seat = models.ForeignKey("moderator.Seat", on_delete=models.CASCADE, related_name="orders", verbose_name="座位")
    phase = models.ForeignKey(
        "moderator.Phase", on_delete=models.CASCADE, null=True, blank=True, related_name="orders", verbose_name="时段"
    )
    order = models.JSONField("顺序")
    source = models.CharField("来源", max_length=6, choices=Source.choices, default=Source.PLAYER)
    seed = models.BigIntegerField("随机种子", null=True, blank=True)
    forum_at = models.DateTimeField("论坛时间")
    entered_at = models.DateTimeField("录入时间", auto_now_add=True)
    message = models.ForeignKey(
        "moderator.Message", on_delete=models.SET_NULL, null=True, blank=True, verbose_name="原始消息"
    )
    status = models.CharField("状态", max_length=8, choices=Status.choices, default=Status.ACCEPTED)
    reason = models.TextField("说明", blank=True)
    seq = models.PositiveIntegerField("录入序号", default=0)

    class Meta:
        verbose_name = verbose_name_plural = "丢牌顺序"
        ordering = ["game", "forum_at", "id"]
