"""Form parts more than one page uses: the forum time field, the seat menu and the structured action form (the
console's, and a player's own action page narrows it to one seat)."""

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
        if at is not None and not 2000 <= at.year <= 2100:  # year 1 or 9999 would overflow the arithmetic
            raise forms.ValidationError("时间必须在 2000 年到 2100 年之间")
        return at


def seat_choices(game):
    return [(s.pk, f"{s.number}. {s.player_name}") for s in game.seats.order_by("number")]


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
