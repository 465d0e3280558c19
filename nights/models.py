"""Privilege uses (and the S4 stance) as the 天神 entered them: append-only, replayed through the rules engine."""

from django.db import models

from moderator.models import InputRecord


class Action(InputRecord):
    """One privilege use, in the scenario vocabulary (card, use, target, position, into, side, mode, manifesto)."""

    card = models.CharField("牌", max_length=12, blank=True)
    use = models.CharField("特权", max_length=8)
    target = models.ForeignKey(
        "moderator.Seat", on_delete=models.CASCADE, null=True, blank=True, related_name="+", verbose_name="对象"
    )
    position = models.SmallIntegerField("瞄准位置", null=True, blank=True)
    into = models.CharField("变形为", max_length=12, blank=True)
    side = models.CharField("立场阵营", max_length=4, blank=True)
    mode = models.CharField("立场方式", max_length=8, blank=True)
    manifesto = models.TextField("杀人宣言", blank=True)
    change = models.BooleanField("更换对象", default=False)
    cost = models.SmallIntegerField("扣除点数", default=0)

    class Meta(InputRecord.Meta):
        verbose_name = verbose_name_plural = "特权行动"
