from django import forms
from django.utils import timezone

from cards.catalogue import AMOEBA_FORMS, CARD_NAMES, USES

LOCAL = "%Y-%m-%dT%H:%M"


class ForumTimeField(forms.DateTimeField):
    """The forum's PM / post time as the 天神 reads it (Beijing time), not the time of entry (T3)."""

    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL)

    def __init__(self, **kwargs):
        kwargs.setdefault("label", "论坛时间(北京时间)")
        kwargs.setdefault("input_formats", [LOCAL, "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"])
        kwargs.setdefault("initial", lambda: timezone.localtime().strftime(LOCAL))
        super().__init__(**kwargs)

    def clean(self, value):
        at = super().clean(value)
        if at is not None and not 2000 <= at.year <= 2100:  # issue 16.5: year 1 or 9999 overflows the arithmetic
            raise forms.ValidationError("时间必须在 2000 年到 2100 年之间")
        return at


def seat_choices(game):
    return [(s.pk, f"{s.number}. {s.player_name}") for s in game.seats.order_by("number")]


class MessageForm(forms.Form):
    seat = forms.TypedChoiceField(label="发送者", coerce=int)
    forum_at = ForumTimeField()
    text = forms.CharField(label="短消息原文", widget=forms.Textarea(attrs={"rows": 8}), max_length=20000)

    def __init__(self, game, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = seat_choices(game)


class VotePostForm(MessageForm):
    text = forms.CharField(label="投票帖原文", widget=forms.Textarea(attrs={"rows": 5}), max_length=20000)


class ActionForm(forms.Form):
    """The structured alternative to a pasted PM: the scenario vocabulary, field by field."""

    seat = forms.TypedChoiceField(label="发送者", coerce=int)
    forum_at = ForumTimeField()
    passes = forms.BooleanField(label="这个玩家本时段空过(不行动;T5 不再等他)", required=False)
    card = forms.ChoiceField(label="牌", choices=[("", "(自动)"), *[(c, c) for c in CARD_NAMES]], required=False)
    use = forms.ChoiceField(label="特权", choices=[("", "—"), *[(u, u) for u in USES]], required=False)
    target = forms.ChoiceField(label="对象", required=False)
    position = forms.IntegerField(
        label="瞄准位置(2 = 第2张,-2 = 倒数第2张)", required=False, min_value=-50, max_value=50
    )
    into = forms.ChoiceField(label="变形为", choices=[("", "—"), *[(c, c) for c in AMOEBA_FORMS]], required=False)
    side = forms.ChoiceField(label="立场阵营", choices=[("", "—"), ("杀手", "杀手"), ("狼人", "狼人")], required=False)
    mode = forms.ChoiceField(
        label="立场方式", choices=[("", "—"), ("共赢", "共赢"), ("独赢", "一山不容二虎")], required=False
    )
    manifesto = forms.CharField(
        label="杀人宣言", widget=forms.Textarea(attrs={"rows": 3}), required=False, max_length=20000
    )
    change = forms.BooleanField(label="更换先前同一特权的对象(T3)", required=False)

    def __init__(self, game, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = seat_choices(game)
        self.fields["target"].choices = [
            ("", "—"),
            *[(s.player_name, s.player_name) for s in game.seats.order_by("number")],
        ]

    def clean(self):
        data = super().clean()
        if not data.get("passes") and not data.get("use"):
            raise forms.ValidationError("请选择一项特权,或勾选“本时段空过”。")
        return data

    def item(self) -> dict:
        data = self.cleaned_data
        if data.get("passes"):
            return {"pass": True}
        item = {
            k: data[k]
            for k in ("card", "use", "target", "position", "into", "side", "mode", "manifesto")
            if data.get(k) not in (None, "")
        }
        if data.get("change"):
            item["change"] = True
        return item


ORIGINAL, CHANGE, EDITED = "original", "change", "edited"


class VoteForm(forms.Form):
    """D3: a post is one of three things, never two — an original vote, a change post, or the news that the original
    vote post was edited."""

    seat = forms.TypedChoiceField(label="投票者", coerce=int)
    forum_at = ForumTimeField(label="发帖时间(北京时间)")
    post = forms.ChoiceField(
        label="这是哪种帖子(D3)",
        widget=forms.RadioSelect,
        initial=ORIGINAL,
        required=False,  # a client that sends none means an original vote
        choices=[
            (ORIGINAL, "原投票帖:第一次投票。"),
            (CHANGE, "改票帖:另发新帖改票。只能改一次,截止前最后一小时内不能改。"),
            (
                EDITED,
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
        if not data.get("post"):  # the old form's two boxes: at most one of them (D3)
            legacy = [kind for kind in (CHANGE, EDITED) if self.data.get(kind)]
            if len(legacy) > 1:
                raise forms.ValidationError("改票帖和“原投票帖被编辑过”只能选一种(D3)。")
            data["post"] = legacy[0] if legacy else ORIGINAL
        if data["post"] in (ORIGINAL, CHANGE) and not data.get("target"):
            raise forms.ValidationError("原投票帖和改票帖都要选择投给谁。")
        return data

    def vote(self) -> dict:
        """What vote_submit takes: the target seat id (None: an edited post whose original target is unknown, D3)."""
        data = self.cleaned_data
        return {
            "target": data["target"],
            "change": data["post"] == CHANGE,
            "edited": data["post"] == EDITED,
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
