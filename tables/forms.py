"""The create-a-table form (Chinese labels); the per-game action forms come from the rules modules' ``forms``.

Every field is bounded, so no value a browser can send gets past ``is_valid`` unchecked; whatever the rules refuse
comes back as a message on the form.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms

from tables.models import Table
from tables.rules import MODES
from tables.rules.anhuoxian_cards import DECK, WARRANT
from tables.rules.sanguosha_house import COUNTDOWN_WITH_REBIRTH

SPLIT = r"[,,、;;\s]+"


def _numbers(text: str, what: str) -> list[int]:
    parts = [p for p in re.split(SPLIT, text.strip()) if p]
    if not all(re.fullmatch(r"[0-9]{1,2}", p) for p in parts):
        raise forms.ValidationError(f"{what}只能写一到两位的数字,用逗号分隔。")
    return [int(p) for p in parts]


class CreateTableForm(forms.Form):
    kind = forms.ChoiceField(label="游戏", choices=Table.KINDS)
    mode = forms.ChoiceField(label="玩法", choices=list(MODES.items()), required=False, initial="physical")
    name = forms.CharField(label="桌名(可留空)", required=False, max_length=100)
    players = forms.CharField(
        label="玩家名字(用逗号分隔,按顺时针座位顺序)", max_length=500, widget=forms.TextInput(attrs={"size": 60})
    )
    killer = forms.BooleanField(label="狄仁杰:杀手扩充(5–6 人)", required=False)
    teams = forms.ChoiceField(
        label="狄仁杰:团队变体",
        required=False,
        choices=[("", "不分队"), ("2v2", "2v2(4 人)"), ("3v3", "3v3(6 人)"), ("2v2v2", "2v2v2(6 人)")],
    )
    team_of = forms.CharField(label="狄仁杰:自选分队(按座位写队号,如 1,2,2,1;可留空)", required=False, max_length=30)
    start = forms.IntegerField(
        label="狄仁杰实体牌:抽到 T1 的玩家座位号(从 0 数)", required=False, min_value=0, max_value=5
    )
    target = forms.IntegerField(
        label="系列赛:目标总分(狄仁杰;0 或留空 = 只玩一局)", required=False, min_value=0, max_value=999
    )
    noir_killer = forms.ChoiceField(
        label="黑幕:谁当杀手", required=False, choices=[("", "抽签决定"), ("0", "第一位玩家"), ("1", "第二位玩家")]
    )
    kill_target = forms.TypedChoiceField(
        label="黑幕:杀手胜利所需杀人数",
        required=False,
        coerce=int,
        empty_value=16,  # type: ignore[arg-type]  # django-stubs say str | None; Django returns any value as given
        choices=[(16, "16(BGA 与设计者视频)"), (14, "14(说明书)")],
    )
    rotate_lord = forms.BooleanField(label="三国杀计分赛:人数几人就打几局,主公每局交给下家(右手边)", required=False)
    # 三国杀 as seed 002 plays it (详细规则 1–3, 转世规则/暗魂); ticked as the seed plays
    sgs_seat_lot = forms.BooleanField(
        label="三国杀:座位抽签(座位即出牌顺序,由应用抽签并记下抽签种子)", required=False, initial=True
    )
    sgs_rule2 = forms.ChoiceField(
        label="三国杀:详细规则 2",
        required=False,
        initial="ghosts",
        choices=[
            ("ghosts", "暗魂(忠臣罗汉、反贼玄武、内奸祝由,各用一次)"),
            ("last_blood", "不用暗魂:最后一滴血受规则保护"),
            ("none", "都不用"),
        ],
    )
    sgs_protected = forms.CharField(
        label="三国杀:上一局第一个出局的玩家(最后一滴血保护他;可留空,计分赛的后几局自动)",
        required=False,
        max_length=30,
    )
    sgs_countdown = forms.BooleanField(
        label="三国杀:三人倒计时(剩三人时三轮后每轮所有人各减一点体力)",
        required=False,
        initial=True,
        help_text=COUNTDOWN_WITH_REBIRTH,
    )
    sgs_generals = forms.BooleanField(
        label="三国杀电子牌:挑选武将(体力上限与国籍按标准版 25 名武将;技能只显示文字,不执行)",
        required=False,
        initial=True,
    )
    sgs_rebirth = forms.BooleanField(
        label="三国杀:转世(出局的玩家收献祭,满 4 张〔4–5 人 3 张〕转世为同国籍武将;电子牌要同时挑选武将)",
        required=False,
        help_text=COUNTDOWN_WITH_REBIRTH,
    )
    warrant = forms.BooleanField(label="暗火线:加入搜查令(新手用)", required=False)
    first = forms.IntegerField(label="暗火线:起始玩家座位号(从 0 数,可留空)", required=False, min_value=0, max_value=7)
    roles = forms.CharField(label="暗火线:特警、市民、绑匪人数(如 1,2,1;留空用默认)", required=False, max_length=20)
    serums = forms.IntegerField(label="暗火线:每人血清牌数(默认 2)", required=False, min_value=0, max_value=10)
    deck = forms.CharField(
        label="暗火线:牌库张数(如 单发子弹=20 双发子弹=6;未写的用默认)",
        required=False,
        max_length=300,
        widget=forms.TextInput(attrs={"size": 60}),
    )

    def clean_players(self) -> list[str]:
        names = [n.strip() for n in re.split(r"[,,、;;\n]+", self.cleaned_data["players"]) if n.strip()]
        if not names:
            raise forms.ValidationError("请至少填写一名玩家。")
        if any(len(n) > 30 for n in names):
            raise forms.ValidationError("每个名字最多 30 个字。")
        return names

    def clean_team_of(self) -> list[int] | None:
        text = self.cleaned_data.get("team_of") or ""
        return _numbers(text, "队号") if text.strip() else None

    def clean_roles(self) -> list[int] | None:
        text = self.cleaned_data.get("roles") or ""
        return _numbers(text, "身份人数") if text.strip() else None

    def clean_deck(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for part in re.split(SPLIT, (self.cleaned_data.get("deck") or "").strip()):
            if not part:
                continue
            card, _, count = part.partition("=")
            if card not in (*DECK, WARRANT) or not re.fullmatch(r"[0-9]{1,2}", count):
                known = "、".join((*DECK, WARRANT))
                raise forms.ValidationError(f"「{part[:20]}」看不懂:请写「牌名=张数」,牌名是 {known} 之一。")
            counts[card] = int(count)
        return counts

    def game_options(self) -> dict[str, Any]:
        data = self.cleaned_data
        kind = data["kind"]
        series = {"target": data["target"]} if data.get("target") else {}
        if kind == "direnjie_cards":
            options = {"killer": bool(data.get("killer")), "teams": data.get("teams") or "", **series}
            if data.get("team_of"):
                options["team_of"] = data["team_of"]
            if data.get("start") is not None:
                options["start"] = data["start"]
            return options
        if kind == "noir":
            options = {"kill_target": data.get("kill_target") or 16}
            if data.get("noir_killer"):
                options["killer"] = int(data["noir_killer"])
            return options
        if kind == "anhuoxian":
            options = {"warrant": bool(data.get("warrant")), "first": data.get("first") or 0}
            for key in ("roles", "serums", "deck"):
                if data.get(key) not in (None, "", {}):
                    options[key] = data[key]
            return options
        return self._sanguosha_options(data)

    def _sanguosha_options(self, data: dict[str, Any]) -> dict[str, Any]:
        options: dict[str, Any] = {"rotate_lord": True} if data.get("rotate_lord") else {}
        rule2 = data.get("sgs_rule2") or "none"
        for key, on in (
            ("seat_lot", data.get("sgs_seat_lot")),
            ("ghosts", rule2 == "ghosts"),
            ("last_blood", rule2 == "last_blood"),
            ("countdown", data.get("sgs_countdown")),
            ("rebirth", data.get("sgs_rebirth")),
            ("generals", data.get("sgs_generals") and data.get("mode") == "digital"),
        ):
            if on:
                options[key] = True
        protected = (data.get("sgs_protected") or "").strip()
        if protected:
            options["protected"] = protected  # a name: the service turns it into a seat once the seats are drawn
        return options

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        protected = (data.get("sgs_protected") or "").strip()
        names = data.get("players") or []
        if protected and data.get("kind") == "sanguosha" and names and protected not in names:
            self.add_error("sgs_protected", f"要写玩家名单里的一个名字(收到「{protected}」),或者留空。")
        digital = (data.get("mode") or "digital") == "digital"
        if data.get("kind") == "sanguosha" and digital and data.get("sgs_rebirth") and not data.get("sgs_generals"):
            self.add_error("sgs_rebirth", "电子牌的转世要按武将的国籍转世:请同时勾选「挑选武将」,或者不勾转世。")
        return data
