import re

from django import forms

from cards.catalogue import CAMPS
from moderator.services.setup import NAME_MAX, SEATS_MAX

# The text a full table can need (SEATS_MAX names of NAME_MAX characters, a separator each): anything longer is
# refused by its length before it is split.
PLAYERS_CHARS = SEATS_MAX * (NAME_MAX + 2)
HANDS_CHARS = SEATS_MAX * 200


def _split(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"[\n,，、]+", text) if p.strip()]


class GameCreateForm(forms.Form):
    name = forms.CharField(label="游戏名称", max_length=100, initial="神探狄仁杰")
    players = forms.CharField(
        label="玩家论坛ID",
        widget=forms.Textarea(attrs={"rows": 7}),
        help_text=f"每行一个,按座位顺序(默认 7 人,最多 {SEATS_MAX} 人)",
        max_length=PLAYERS_CHARS,
        error_messages={
            "max_length": f"玩家论坛ID一共最多 {PLAYERS_CHARS} 个字({SEATS_MAX} 人,每人最多 {NAME_MAX} 字)"
        },
    )
    camps = forms.CharField(
        label="阵营(可选)",
        required=False,
        max_length=SEATS_MAX * 8,
        error_messages={"max_length": f"阵营一共最多 {SEATS_MAX * 8} 个字({SEATS_MAX} 人)"},
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=f"按座位顺序,逗号分隔,可选:{'、'.join(CAMPS)};留空则随机分配(记录随机种子)",
    )
    hands = forms.CharField(
        label="手牌(可选)",
        required=False,
        widget=forms.Textarea(attrs={"rows": 7}),
        max_length=HANDS_CHARS,
        error_messages={"max_length": f"手牌一共最多 {HANDS_CHARS} 个字({SEATS_MAX} 人)"},
        help_text="每行一人,牌名用顿号或逗号分隔;留空则按发牌原则(S3)随机发牌(记录随机种子)",
    )
    seed = forms.RegexField(
        label="随机种子(仅测试或复盘)",
        required=False,
        regex=r"^[0-9]{1,40}$",
        max_length=40,
        error_messages={"invalid": "随机种子必须是不超过 40 位的非负整数"},
        help_text="正式局请留空:系统生成 128 位随机种子并在游戏结束前保密。"
        "手填的种子可以被玩家从自己的手牌倒推出来,从而看穿所有人的阵营和手牌",
    )
    self_entry = forms.BooleanField(
        label="玩家可在私人页面提交",
        required=False,
        help_text="打开后玩家在自己的私人页面提交行动、丢牌顺序和投票(先看预览再确认),天神只需在截止时结算;"
        "不打开则照旧由天神录入短消息。开局后也可以在总览页更改",
    )
    replay = forms.BooleanField(
        label="这是测试或复盘局,我明白手填种子会泄露所有阵营和手牌",
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():  # a browser cuts a paste at maxlength without a word: the server says it
            field.widget.attrs.pop("maxlength", None)

    def clean(self):
        data = super().clean()
        if data.get("seed") and not data.get("replay"):
            self.add_error(
                "seed",
                "正式局不能手填随机种子:玩家可以从自己的手牌倒推出它,看穿所有人的阵营和手牌。"
                "请留空(系统生成 128 位种子),或勾选“测试或复盘局”",
            )
        return data

    def clean_players(self):
        names = _split(self.cleaned_data["players"])
        if len(names) < 3:
            raise forms.ValidationError("至少需要 3 名玩家")
        if len(names) > SEATS_MAX:
            raise forms.ValidationError(f"一局最多 {SEATS_MAX} 名玩家(标准局 7 人),现在填了 {len(names)} 个")
        return names

    def clean_camps(self):
        return _split(self.cleaned_data["camps"]) or None

    def clean_seed(self):
        return self.cleaned_data["seed"] or None

    def clean_hands(self):
        lines = [ln for ln in self.cleaned_data["hands"].splitlines() if ln.strip()]
        return [[c.strip() for c in re.split(r"[,，、\s]+", ln) if c.strip()] for ln in lines] or None
