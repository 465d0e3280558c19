"""The create-a-table form (Chinese labels); the per-game action forms come from the rules modules' ``forms``."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from tables.models import Table


class CreateTableForm(forms.Form):
    kind = forms.ChoiceField(label="游戏", choices=Table.KINDS)
    name = forms.CharField(label="桌名(可留空)", required=False, max_length=100)
    players = forms.CharField(
        label="玩家名字(用逗号分隔,按顺时针座位顺序)", max_length=500, widget=forms.TextInput(attrs={"size": 60})
    )
    seed = forms.IntegerField(label="随机种子(可留空,自动生成)", required=False, min_value=0, max_value=2**62)
    killer = forms.BooleanField(label="狄仁杰:杀手扩充(5–6 人)", required=False)
    teams = forms.ChoiceField(
        label="狄仁杰:团队变体",
        required=False,
        choices=[("", "不分队"), ("2v2", "2v2(4 人)"), ("3v3", "3v3(6 人)"), ("2v2v2", "2v2v2(6 人)")],
    )
    kill_target = forms.TypedChoiceField(
        label="黑幕:杀手胜利所需杀人数",
        required=False,
        coerce=int,
        empty_value=16,
        choices=[(16, "16(BGA 与设计者视频)"), (14, "14(说明书)")],
    )
    warrant = forms.BooleanField(label="暗火线:加入搜查令(新手用)", required=False)
    first = forms.IntegerField(label="暗火线:起始玩家座位号(从 0 数,可留空)", required=False, min_value=0)

    def clean_players(self) -> list[str]:
        names = [n.strip() for n in re.split(r"[,,、;;\n]+", self.cleaned_data["players"]) if n.strip()]
        if not names:
            raise forms.ValidationError("请至少填写一名玩家。")
        return names

    def game_options(self) -> dict[str, Any]:
        data = self.cleaned_data
        kind = data["kind"]
        if kind == "direnjie_cards":
            return {"killer": bool(data.get("killer")), "teams": data.get("teams") or ""}
        if kind == "noir":
            return {"kill_target": data.get("kill_target") or 16}
        if kind == "anhuoxian":
            return {"warrant": bool(data.get("warrant")), "first": data.get("first") or 0}
        return {}
