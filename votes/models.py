"""Vote posts (D1–D3) as the 天神 entered them: append-only, replayed through the rules engine."""

from django.db import models

from moderator.models import InputRecord


class Vote(InputRecord):
    """An original vote (`target`) or a change post (`change` set); `edited`: the original post was edited."""

    target = models.ForeignKey("moderator.Seat", on_delete=models.CASCADE, related_name="+", verbose_name="投票对象")
    change = models.BooleanField("改票帖", default=False)
    edited = models.BooleanField("原帖被编辑", default=False)

    class Meta(InputRecord.Meta):
        verbose_name = verbose_name_plural = "投票"
