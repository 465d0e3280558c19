import re

from django import forms

from cards.catalogue import CAMPS


def _split(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"[\n,，、]+", text) if p.strip()]


class GameCreateForm(forms.Form):
    name = forms.CharField(label="游戏名称", max_length=100, initial="神探狄仁杰")
    players = forms.CharField(
        label="玩家论坛ID", widget=forms.Textarea(attrs={"rows": 7}), help_text="每行一个,按座位顺序(默认 7 人)"
    )
    camps = forms.CharField(
        label="阵营(可选)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=f"按座位顺序,逗号分隔,可选:{'、'.join(CAMPS)};留空则随机分配(记录随机种子)",
    )
    hands = forms.CharField(
        label="手牌(可选)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 7}),
        help_text="每行一人,牌名用顿号或逗号分隔;留空则按发牌原则(S3)随机发牌(记录随机种子)",
    )
    seed = forms.IntegerField(
        label="随机种子(可选)",
        required=False,
        min_value=0,
        help_text="阵营、发牌和默认丢牌顺序都由它决定;留空则随机生成并记录",
    )

    def clean_players(self):
        names = _split(self.cleaned_data["players"])
        if len(names) < 3:
            raise forms.ValidationError("至少需要 3 名玩家")
        return names

    def clean_camps(self):
        return _split(self.cleaned_data["camps"]) or None

    def clean_hands(self):
        lines = [ln for ln in self.cleaned_data["hands"].splitlines() if ln.strip()]
        return [[c.strip() for c in re.split(r"[,，、\s]+", ln) if c.strip()] for ln in lines] or None
