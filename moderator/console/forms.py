"""The console's forms: a new game, a pasted PM or vote post, a vote, an import, the start, a reason."""

import re

from django import forms

from cards.catalogue import CAMPS, SEATS_MAX
from moderator.services.setup import NAME_MAX
from moderator.web.forms import ForumTimeField, seat_choices

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


class MessageForm(forms.Form):
    seat = forms.TypedChoiceField(label="发送者", coerce=int)
    forum_at = ForumTimeField()
    text = forms.CharField(label="短消息原文", widget=forms.Textarea(attrs={"rows": 8}), max_length=20000)

    def __init__(self, game, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = seat_choices(game)


class VotePostForm(MessageForm):
    text = forms.CharField(label="投票帖原文", widget=forms.Textarea(attrs={"rows": 5}), max_length=20000)


POST_ORIGINAL, POST_CHANGE, POST_EDITED = "original", "change", "edited"


class VoteForm(forms.Form):
    """D3: a post is one of three things, never two — an original vote, a change post, or the news that the original
    vote post was edited."""

    seat = forms.TypedChoiceField(label="投票者", coerce=int)
    forum_at = ForumTimeField(label="发帖时间(北京时间)")
    post = forms.ChoiceField(
        label="这是哪种帖子(D3)",
        widget=forms.RadioSelect,
        initial=POST_ORIGINAL,
        required=False,  # a client that sends none means an original vote
        choices=[
            (POST_ORIGINAL, "原投票帖:第一次投票。"),
            (POST_CHANGE, "改票帖:另发新帖改票。只能改一次,截止前最后一小时内不能改。"),
            (
                POST_EDITED,
                "原投票帖被编辑过:改票无效,按原投票计票,并且失去改票权;原投票对象无法得知时按投自己计。",
            ),
        ],
    )
    target = forms.TypedChoiceField(
        label="投给(原帖被编辑过时:原投票对象)", coerce=int, required=False, empty_value=None
    )

    def __init__(self, game, *args, alive: set[str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        seat, target = self.fields["seat"], self.fields["target"]
        assert isinstance(seat, forms.ChoiceField) and isinstance(target, forms.ChoiceField)
        seat.choices = seat_choices(game)
        seats = game.seats.order_by("number")
        living = [(s.pk, f"{s.number}. {s.player_name}") for s in seats if alive is None or s.player_name in alive]
        target.choices = [("", "—(原帖被编辑过且原对象无法得知)"), *living]  # D4: never the dead

    def clean(self):
        data = super().clean()
        if not data.get("post"):  # a client that sends the boxes `change` and `edited` instead: one at most (D3)
            boxes = [kind for kind in (POST_CHANGE, POST_EDITED) if self.data.get(kind)]
            if len(boxes) > 1:
                raise forms.ValidationError("改票帖和“原投票帖被编辑过”只能选一种(D3)。")
            data["post"] = boxes[0] if boxes else POST_ORIGINAL
        if data["post"] in (POST_ORIGINAL, POST_CHANGE) and not data.get("target"):
            raise forms.ValidationError("原投票帖和改票帖都要选择投给谁。")
        return data

    def vote(self) -> dict:
        """What inputs.vote_item takes: the target seat id (None: an edited post whose original target is unknown, D3)."""
        data = self.cleaned_data
        return {
            "target": data["target"],
            "change": data["post"] == POST_CHANGE,
            "edited": data["post"] == POST_EDITED,
        }


class ImportForm(forms.Form):
    file = forms.FileField(label="导出的游戏 JSON 文件")
    name = forms.CharField(
        label="新名称(可选)",
        required=False,
        max_length=100,
        help_text="和已有游戏同名时,导入的这局自动命名为“原名(副本)”。进行中的游戏导入后先暂停、不在首页列出,点“继续”才开始计时。",
    )


class StartForm(forms.Form):
    at = ForumTimeField(label="《游戏者名单》发帖时间(北京时间)")
    # Shown only when the start time is more than a phase in the past (console.views.start): ticked, it confirms.
    confirm_past = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def ask_to_confirm(self, closing: list[str]) -> None:
        """T1: this start closes these phases at once, before anyone has acted: say so, and ask for a tick."""
        shown = "、".join(closing[:10]) + (f" 等 {len(closing)} 个时段" if len(closing) > 10 else "")
        self.add_error(
            None,
            f"这个开始时间已经过去超过一个时段:开始后{shown}会立即结束(没有人来得及行动)。"
            "如果确实如此,请勾选下面的确认框再提交;否则请改正开始时间。",
        )
        field = self.fields["confirm_past"]
        field.widget = forms.CheckboxInput()
        field.label = f"我确认:开始后{shown}立即结束"


class ReasonForm(forms.Form):
    reason = forms.CharField(label="原因", required=False, max_length=500)
