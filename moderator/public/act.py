"""A player's own action page, /p/<token>/act/ — thin views over moderator.services.selfentry.

The seat is the link's, never the form's: no field names a seat, and a field that tries is ignored. Every form
carries the one-time token (`{% once game %}`); a submit first previews (the console's preview: cost, verdict, the
reason for a refusal, what it changes) and stores only on confirm. Nothing of another seat is shown.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from cards.catalogue import is_privilege
from moderator.game.validate import ATTACKS
from moderator.models import Phase, Seat
from moderator.rules import codec, views
from moderator.selectors import open_phase_of, seat_names
from moderator.services import errors, selfentry, storage
from moderator.services.once import Once
from moderator.web.forms import ActionForm
from moderator.web.inputs import phase_rows
from moderator.web.posted import manifesto_edits, refusal_choices
from moderator.web.private import not_found, private_page


class PlayerActionForm(ActionForm):
    """The console's action form without the sender and the forum time: the sender is the link's seat,
    the time the server's at the confirm."""

    def __init__(self, game, hand: list[str], uses: list[str], *args, **kwargs):
        super().__init__(game, *args, **kwargs)
        del self.fields["seat"], self.fields["forum_at"]
        use = self.fields["use"]
        assert isinstance(use, forms.ChoiceField)
        # The menu lists only what this hand can use in this phase; any privilege name still validates, so that a
        # stale page's post reaches the service and hears why (the phase ended, the card is gone…).
        use.widget.choices = [("", "—"), *[(u, u) for u in uses]]
        self.fields["passes"].label = "本时段空过(不行动;天神不再等我)"
        self.fields["change"].label = "更换我先前同一特权的对象(T3)"
        cards = list(dict.fromkeys(hand))
        card = self.fields["card"]
        assert isinstance(card, forms.ChoiceField)
        card.choices = [("", "(自动:按特权选我手里的牌)"), *[(c, c) for c in cards]]


def default_order(hand: list[str]) -> list[str]:
    """The order the form offers first: the hand as it stands, but never a 庶民 as 底牌 (O2 would refuse it) —
    the last privilege card goes to the bottom."""
    if not hand or is_privilege(hand[-1]):
        return list(hand)
    last = max((i for i, c in enumerate(hand) if is_privilege(c)), default=None)
    if last is None:
        return list(hand)
    return [c for i, c in enumerate(hand) if i != last] + [hand[last]]


class OrderForm(forms.Form):
    """O1–O3: the discard order, first card first; the last is the 底牌."""

    def __init__(self, hand: list[str], *args, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(c, c) for c in dict.fromkeys(hand)]
        hand = default_order(hand)
        for i, card in enumerate(hand):
            label = "底牌(最后一张)" if i == len(hand) - 1 else f"第{i + 1}张丢"
            self.fields[f"pos{i}"] = forms.ChoiceField(label=label, choices=choices, initial=card)
        self.size = len(hand)

    def item(self) -> dict:
        return {"order": [self.cleaned_data[f"pos{i}"] for i in range(self.size)]}


class PlayerVoteForm(forms.Form):
    """D1–D3: a vote, or the one change (another post, not in the last hour)."""

    post = forms.ChoiceField(
        label="这是",
        widget=forms.RadioSelect,
        initial="for",
        choices=[("for", "投票"), ("change", "改票(只能改一次,截止前最后一小时内不能改)")],
    )
    target = forms.ChoiceField(label="投给")

    def __init__(self, living: list[str], *args, **kwargs):
        super().__init__(*args, **kwargs)
        target = self.fields["target"]
        assert isinstance(target, forms.ChoiceField)
        target.choices = [("", "—"), *[(n, n) for n in living]]  # D4: never the dead

    def item(self) -> dict:
        return {self.cleaned_data["post"]: self.cleaned_data["target"]}


class TextForm(forms.Form):
    text = forms.CharField(
        label="像写短消息一样写给天神(系统读懂后先给你看预览)",
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=5000,
    )


SUBMISSION_KINDS = (selfentry.FORM, codec.ORDER, codec.VOTE, selfentry.TEXT)
FIELD_PREFIX = {selfentry.FORM: "a", codec.ORDER: "o", codec.VOTE: "v", selfentry.TEXT: "t"}


def _resubmit(kind: str, post) -> list[tuple[str, str]]:
    """The previewed submission's fields, carried by the confirm form exactly as they were previewed."""
    start = FIELD_PREFIX[kind] + "-"
    return [(k, v) for k in post if k.startswith(start) for v in post.getlist(k)]


def _forms(game, state, seat: Seat, data=None, kind: str = "") -> dict:
    me = state.seat(seat.player_name)
    hand = list(me.names)
    living = [s.name for s in state.alive]

    def bound(k):
        return data if kind == k else None

    return {
        selfentry.FORM: PlayerActionForm(
            game, hand, views.uses_of(state, seat.player_name), bound(selfentry.FORM), prefix="a"
        ),
        codec.ORDER: OrderForm(hand, bound(codec.ORDER), prefix="o"),
        codec.VOTE: PlayerVoteForm(living, bound(codec.VOTE), prefix="v"),
        selfentry.TEXT: TextForm(bound(selfentry.TEXT), prefix="t"),
    }


def _submission(kind: str, form, post) -> selfentry.Submission:
    if kind == selfentry.TEXT:
        text = form.cleaned_data["text"]
        return selfentry.Submission(kind, text=text, choices=refusal_choices(post), manifestos=manifesto_edits(post))
    return selfentry.Submission(kind, items=[form.item()])


def _private(response: HttpResponse) -> HttpResponse:
    """`private_page`, but the page's own forms must post back: under `no-referrer` Chromium sends `Origin: null`,
    which CSRF refuses. `same-origin` still never lets the token leave the site in a Referer."""
    response = private_page(response)
    response["Referrer-Policy"] = "same-origin"
    return response


def seat_act(request: HttpRequest, token: str) -> HttpResponse:
    """GET: what this seat can do now and what is still missing; POST: preview, or confirm what was previewed."""
    if request.method not in ("GET", "HEAD", "POST"):
        return _private(HttpResponse(status=405))
    seat = Seat.objects.filter(token=token).select_related("game").first() if 22 <= len(token) <= 64 else None
    if seat is None:
        return _private(not_found(request, private_link=True))
    game = seat.game
    now = timezone.now()
    replay = storage.game_replay(game)
    state = replay.state
    kind = request.POST.get("kind", "") if request.method == "POST" else ""
    kind = kind if kind in SUBMISSION_KINDS else ""
    page_forms = _forms(game, state, seat, request.POST if kind else None, kind)
    shown, error = None, ""
    if kind:
        form = page_forms[kind]
        if form.is_valid():
            sub = _submission(kind, form, request.POST)
            me_name = seat.player_name
            try:
                if "confirm" in request.POST:
                    entry, done = selfentry.confirm(
                        seat=seat,
                        token=token,
                        sub=sub,
                        seen=request.POST.get("seen", ""),
                        once=Once.from_post(request.POST),
                    )
                    accepted = sum(i.accepted for i in done.items)
                    messages.success(
                        request,
                        f"已提交({timezone.localtime(entry.at):%m-%d %H:%M}):"
                        + ";".join(
                            f"{i.sentence} — {'接受' if i.accepted else '拒绝:' + selfentry.to_you(i.reason, me_name)}"
                            for i in done.items
                        )
                        + f"。共 {accepted} 项被接受。",
                    )
                    return _private(redirect("seat_act", token=token))
                shown = selfentry.preview(seat=seat, token=token, sub=sub)
            except selfentry.Changed as exc:
                error, shown = str(exc), exc.preview
            except errors.PlayError as exc:
                error = str(exc)
    phase = open_phase_of(game)
    me = state.seat(seat.player_name)
    names = seat_names(game)
    context = {
        "game": game,
        "seat": seat,
        "phase": phase,
        "me": me,
        "view": views.seat_view(state, seat.player_name),
        "why_not": selfentry.why_not(game, seat, state, now),
        "missing": selfentry.missing(game, seat, state) if phase else [],
        "time_left": selfentry.time_left(phase, now) if phase else "",
        "forms": page_forms,
        "kind": kind,
        "shown": shown,
        "resubmit": _resubmit(kind, request.POST) if shown else [],
        "error": error,
        "rows": phase_rows(phase, names, seat) if phase else [],
        "night": phase is not None and phase.kind == Phase.Kind.NIGHT,
        "orders_open": state.orders_open and state.phase_open and bool(me.hand),
        "can_vote": phase is not None and phase.kind == Phase.Kind.DAY and me.name not in state.saved,
        "attacks": "、".join(ATTACKS),
    }
    return _private(render(request, "public/act.html", context))
