"""Players enter their own actions, discard orders and votes on their private page (/p/<token>/act/).

Nothing new decides anything here: a player's submission goes through the same services as the 天神's console —
a structured form through `inputs.write` (its preview is that write rolled back, `preview.rolled_back`), free text
through `intake.pm_preview` / `intake.pm_confirm` (the parser, candidates as buttons). The forum time is the server's
time of the confirm (T3, D3 cutoffs measured from the announced end, as for a PM). The confirm takes the game lock,
spends the one-time token (`once`), checks that the link is still the seat's own (a rotation or a substitution ends
the old link's rights at once) and that the outcome is the one the preview showed; otherwise nothing is stored.

Each stored submission leaves a `SelfEntry` (who, when, from which link — a fingerprint, never the token — and the
raw submission) and an audit row: the 天神 sees them on the dashboard as the player's own and voids or corrects them
as any other input.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from moderator import rules
from moderator.game.state import NIGHT
from moderator.game.validate import ONCE_PER_PHASE
from moderator.models import AuditLog, Game, Input, Phase, Seat, SelfEntry
from moderator.rules import views
from moderator.selectors import open_phase_of
from moderator.services import audit, base, errors, inputs, intake, storage, verdicts
from moderator.services.once import Once, spend
from moderator.services.preview import rolled_back

FORM, TEXT = "form", "text"  # what a player may send, beside an order and a vote (codec.ORDER, codec.VOTE)


class EntryRefused(errors.PlayError):
    """The player may not act now (the link, the game, the phase, the seat): the message says why."""


class Changed(errors.PlayError):
    """The confirm would not store what the preview showed: nothing stored; `preview` is what it would do now."""

    def __init__(self, preview: SubmissionPreview):
        super().__init__(
            "结果和你看到的预览不同了(这期间有别的输入,或时间到了新的限制):什么都没有保存。请看新的预览后再确认。"
        )
        self.preview = preview


def link_mark(token: str) -> str:
    """Which link an entry came from, shown to the 天神: a fingerprint of the token (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()[:8]


@dataclass
class Submission:
    """What the player sent: structured items (form, order, vote) or free text with choices among candidates."""

    kind: str
    items: list[dict] = field(default_factory=list)
    text: str = ""
    choices: dict[int, str] = field(default_factory=dict)
    manifestos: dict[int, str] = field(default_factory=dict)  # the 杀人宣言 as the player edited it in the preview

    @property
    def raw(self) -> dict:
        if self.kind == TEXT:
            raw = {"text": self.text, "choices": {str(k): v for k, v in self.choices.items()}}
            if self.manifestos:
                raw["manifestos"] = {str(k): v for k, v in self.manifestos.items()}
            return raw
        return {"items": self.items}


@dataclass
class SubmissionPreview:
    """What the confirm would store, as the console's preview shows it."""

    submission: Submission
    items: list[intake.Item]
    refusals: list[dict] = field(default_factory=list)
    changes: list[verdicts.VerdictChange] = field(default_factory=list)
    later: int = 0
    seen: str = ""  # what the confirm compares: the verdicts shown, not the minute they were shown in
    digest: str = ""  # the services' own digest of this outcome (verdicts.EntryOutcome.digest), checked by the write
    text_preview: intake.MessagePreview | None = None
    repeats: list[dict] = field(default_factory=list)  # a second use of a privilege already used this phase (T3)

    @property
    def change_offered(self) -> bool:
        """The form's item is a second use of the same card and privilege on another target: a change (T3) means
        something, so it is offered beside the player's own reading. On the same target a change would move nothing:
        only the second use is offered."""
        return self.submission.kind == FORM and self.change is not None

    @property
    def change(self) -> dict | None:
        """The second use that a change of target (T3) would make meaningful: its first target differs."""
        return next((r for r in self.repeats if not r["same"]), None)

    @property
    def confirmable(self) -> bool:
        """Something would be stored: an accepted item. A refused one alone, or a text in which nothing was read, is
        only shown: nothing would reach the 天神, so there is nothing to confirm."""
        return any(i.accepted for i in self.items)

    @property
    def cost(self) -> int:
        return sum(i.cost for i in self.items if i.accepted)

    @property
    def choices(self) -> list[str]:
        return [f"{k}:{v}" for k, v in sorted(self.submission.choices.items())]


def to_you(text: str, name: str) -> str:
    """A verdict's reason said to the player it names: “甲”昨夜被救活… → 你昨夜被救活… (on his own pages only)."""
    return text.replace(f"“{name}”", "你") if name else text


def _seen(items: list[intake.Item], refusals: list[dict], changes, text: str) -> str:
    lines = [f"{i.sentence}|{i.accepted}|{i.reason}|{i.cost}|{i.data.get('manifesto') or ''}" for i in items]
    lines += [f"{r.get('text', '')}:{r.get('reason', '')}→{r.get('choice', '')}" for r in refusals]
    lines += [c.sentence for c in changes] + [" ".join(text.split())]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


# --- who may act ----------------------------------------------------------------------------------------------------


def why_not(game: Game, seat: Seat, state: rules.GameState | None, now: datetime) -> str:
    """Why this seat cannot enter anything now ("" when it can), as the player reads it."""
    if not game.self_entry:
        return "本局由天神录入:请用论坛短消息把行动、丢牌顺序寄给天神,投票在投票帖里发。这个页面只用来查看。"
    if game.status == Game.Status.SETUP:
        return "游戏还没有开始:《游戏者名单》发布后第1夜开始,到时就可以在这里提交。"
    if game.status == Game.Status.PAUSED:
        return "天神暂停了游戏:恢复之后才能提交。"
    if game.status == Game.Status.FINISHED or (state is not None and state.winner):
        return "游戏已经结束,不再接受输入。"
    phase = open_phase_of(game)
    if phase is None:
        return "现在没有进行中的时段。"
    if state is not None and not state.seat(seat.player_name).alive:
        return "你已经死亡:死者不能再行动、投票或改丢牌顺序(可以继续看自己的页面)。"
    last = last_card_pending(state, seat) if state is not None else ""
    if last:
        return last
    if phase.ends_at <= now:
        return f"{phase.label}已于 {timezone.localtime(phase.ends_at):%m-%d %H:%M} 截止,正在等待结算:不能再提交。"
    return ""


def last_card_pending(state: rules.GameState, seat: Seat) -> str:
    """D8, V5 ruling: a player whose last card went to yesterday's execution is alive until the end of the night;
    a pardon tonight gives the card back and he lives, else he dies at dawn. He holds no card to act with tonight:
    said plainly ("" for everyone else)."""
    me = state.seat(seat.player_name)
    pending = state.pending_executions.get(me.name)
    if pending is None or me.hand or not me.alive or state.phase_kind != NIGHT:
        return ""
    return (
        f"你的最后一张牌({pending.card.name})在昨天的处决中丢掉了:天亮时你就会死亡,除非今夜有人特赦你"
        "(特赦会把这张牌放回原位,你就活下来;N12, D8)。今晚你手里没有牌,不能行动,也不用提交什么。"
    )


def current_seat(seat_id: int, token: str) -> Seat:
    """The seat, read again under the game lock: a link that is no longer the seat's own acts for nobody."""
    seat = Seat.objects.filter(pk=seat_id, token=token).select_related("game").first()
    if seat is None:
        raise EntryRefused("这个私人链接已经失效(天神更换了链接,或座位已由替补接替):什么都没有保存。")
    return seat


# --- what is still missing ---------------------------------------------------------------------------------------------


def missing(game: Game, seat: Seat, state: rules.GameState) -> list[str]:
    """What this seat still has to send this phase (the player's page), or may still send."""
    if not state.phase_open or not state.seat(seat.player_name).alive or last_card_pending(state, seat):
        return []
    me = state.seat(seat.player_name)
    out = []
    if state.phase_kind == NIGHT:
        if me.name not in state.passed and not me.actions:
            out.append("今晚的行动:还没有提交(不行动也可以提交“空过”,天神就不再等你)。")
        if state.phase == (NIGHT, 1) and not (game.hands_are_orders or state.bottoms_fixed or me.name in state.ordered):
            out.append("丢牌顺序:还没有提交(第1夜结束前不交,由系统随机决定,底牌是一张特权牌,O1)。")
    else:
        if me.name in state.saved:
            out.append("你昨夜被救:今天不能投票(N7/N8),不用投。")
        elif me.name not in state.votes and me.name not in state.passed:
            out.append("今天的投票:还没有投(不投按投自己计,D1)。")
    if state.orders_open and state.phase != (NIGHT, 1) and me.hand and not _order_sent(game, seat):
        out.append("改顺序期(O3):可以提交新的丢牌顺序(底牌不能改),不交则保持原顺序。")
    return out


def _order_sent(game: Game, seat: Seat) -> bool:
    """O3: this seat's new order was accepted in the open phase (the window), so nothing is missing any more."""
    return Input.objects.filter(
        game=game,
        seat=seat,
        phase__status=Phase.Status.OPEN,
        kind=Input.Kind.ORDER,
        void__isnull=True,
        verdict__accepted=True,
    ).exists()


def time_left(phase: Phase, now: datetime) -> str:
    """The time left before the phase's deadline, as a player says it."""
    left = max(phase.ends_at - now, timedelta(0))
    hours, rest = divmod(int(left.total_seconds()) // 60, 60)
    return f"{hours} 小时 {rest} 分钟" if hours else f"{rest} 分钟"


def reminders(game: Game, state: rules.GameState, link_of: dict[str, str], now: datetime) -> list[dict]:
    """The 天神's `prod`: one PM draft per living player who has not acted this phase (T5), or whose night-1
    discard order has not arrived (O1: drawn at random at the night's end), with the time left."""
    phase = open_phase_of(game)
    if phase is None or game.status != Game.Status.RUNNING:
        return []
    seats = {s.player_name: s for s in game.seats.all()}
    waiting = set(views.not_acted(state))
    orders = set(views.orders_missing(state, game.hands_are_orders))
    out = []
    for name in [s.name for s in state.seats if s.name in waiting | orders]:
        seat = seats[name]
        what = []
        if name in waiting:
            what.append("今晚的行动(或空过)" if phase.kind == Phase.Kind.NIGHT else "今天的投票")
        if name in orders:
            what.append("丢牌顺序(第1夜结束前不交,由系统随机决定,底牌是一张特权牌)")
        how = (
            f"请在你的私人页面提交:{link_of.get(name, '')}"
            if game.self_entry
            else "请用短消息寄给天神" + ("。" if phase.kind == Phase.Kind.NIGHT else "(投票请在投票帖里发)。")
        )
        text = (
            f"{name},你好!《{game.name}》{phase.label}还剩 {time_left(phase, now)}"
            f"(到 {timezone.localtime(phase.ends_at):%m-%d %H:%M} 截止),天神还没有收到你{'和'.join(what)}。{how}"
        )
        out.append({"seat": seat, "name": name, "text": text})
    return out


# --- preview and confirm --------------------------------------------------------------------------------------------


def repeats(state: rules.GameState, name: str, items: list[intake.Item]) -> list[dict]:
    """T3, AP4: an item that uses again a card and privilege this seat already used this phase, not as a change of
    target, is a second use and is charged again. Said plainly, with how to move the first one instead (AP5's
    once-per-phase uses are never charged twice, so they are left alone)."""
    me = state.seat(name)
    out = []
    for item in items:
        use, card, target = item.data.get("use"), item.data.get("card"), item.data.get("target")
        if not use or not target or item.data.get("change") or use in ONCE_PER_PHASE:
            continue
        earlier = [a for a in me.actions if a.use == use and card in (None, "", a.card)]
        if not earlier:
            continue
        first = earlier[-1]
        cost = f"会再扣 {item.cost} 点" if item.accepted else "会再扣一次点数"
        said = f"这是你本时段第二次用“{use}”(第一次:{use} → {first.target},已扣 {first.cost} 点),{cost}。"
        same = first.target == target
        if same:
            text = said + f"确认就是对{target}的第二次{use};对象相同,没有可以更换的(T3, AP4)。"
        else:
            text = said + f"如果是想把第一次的{use}改到{target}身上,请选“更换对象”:不另扣点(T3, AP4)。"
        out.append({"text": text, "use": use, "before": first.target, "target": target, "same": same})
    return out


def _own(preview: SubmissionPreview, seat: Seat) -> SubmissionPreview:
    """A player sees only his own inputs: an entry that would change another seat's verdict (inputs entered with a
    forum time later than now, out of order) is for the 天神 to enter, never shown here."""
    if any(c.who != seat.player_name for c in preview.changes):
        raise EntryRefused("本时段有论坛时间晚于现在的输入,这条提交会改变别人的结果:请改用短消息寄给天神,由天神录入。")
    return preview


def _structured(game: Game, seat: Seat, sub: Submission, now: datetime) -> SubmissionPreview:
    outcome = rolled_back(lambda: inputs.write(game, inputs.Entry(seat, sub.items, now)).outcome)
    items = [
        intake.Item(item, v.accepted, v.reason, v.cost) for item, v in zip(sub.items, outcome.verdicts, strict=True)
    ]
    intake.mark_sender_words(items, game, seat)
    preview = SubmissionPreview(sub, items, changes=outcome.changes, later=outcome.later, digest=outcome.digest)
    preview.seen = _seen(items, [], outcome.changes, "")
    return _own(preview, seat)


def _text(
    game: Game, seat: Seat, sub: Submission, now: datetime, replay: storage.Replay | None = None
) -> SubmissionPreview:
    pv = intake.pm_preview(
        game,
        intake.Pasted(  # chooser: the player's own click among the candidates (由玩家选定), not the 天神's
            seat=seat, text=sub.text, forum_at=now, choices=sub.choices, manifestos=sub.manifestos, chooser="玩家"
        ),
        replay=replay,
    )
    preview = SubmissionPreview(
        sub, pv.items, refusals=pv.refusals, changes=pv.changes, later=pv.later, digest=pv.digest, text_preview=pv
    )
    preview.seen = _seen(pv.items, pv.refusals, pv.changes, sub.text)
    return _own(preview, seat)


def _check(game: Game, seat: Seat, sub: Submission, now: datetime) -> storage.Replay:
    replay = storage.game_replay(game)
    reason = why_not(game, seat, replay.state, now)
    if reason:
        raise EntryRefused(reason)
    if sub.kind == TEXT and not sub.text.strip():
        raise EntryRefused("请先写下要寄给天神的内容。")
    if sub.kind != TEXT and not sub.items:
        raise EntryRefused("没有要提交的内容。")
    return replay


@transaction.atomic
def preview(*, seat: Seat, token: str, sub: Submission, now: datetime | None = None) -> SubmissionPreview:
    """What the confirm would store now: the console's preview (cost, verdict, the reason for a refusal, what it
    changes). Stores nothing (a structured preview is the write rolled back)."""
    now = now or timezone.now()
    seat = current_seat(seat.pk, token)
    game = seat.game
    replay = _check(game, seat, sub, now)
    shown = _text(game, seat, sub, now, replay) if sub.kind == TEXT else _structured(game, seat, sub, now)
    shown.repeats = repeats(replay.state, seat.player_name, shown.items)
    return shown


@transaction.atomic
def confirm(
    *, seat: Seat, token: str, sub: Submission, seen: str, once: Once | None, now: datetime | None = None
) -> tuple[SelfEntry, SubmissionPreview]:
    """Store the submission exactly as its preview showed it, at the server's time of the confirm, or nothing:
    a repeated or stale confirm (`once`), a link no longer the seat's own, a player who may no longer act, or an
    outcome that differs from the preview (`Changed`, carrying the new preview) stores nothing."""
    now = now or timezone.now()
    game = base.game_lock(seat.game)  # the one lock order: the game row first
    spend(game, once, "玩家自行提交")
    seat = current_seat(seat.pk, token)
    replay = _check(game, seat, sub, now)  # under the lock: the one replay of this confirm (nothing written since)
    if sub.kind == TEXT:
        shown = _text(game, seat, sub, now, replay)
        if shown.seen != seen:
            shown.repeats = repeats(replay.state, seat.player_name, shown.items)
            raise Changed(shown)
        if not shown.confirmable:
            raise EntryRefused("这次提交没有一项会被接受:什么都没有保存。请按预览里的原因修改后重新预览。")
        message, _, _ = intake.pm_confirm(
            game,
            intake.Pasted(
                seat=seat, text=sub.text, forum_at=now, choices=sub.choices, manifestos=sub.manifestos, chooser="玩家"
            ),
            seen=shown.digest,
            replay=replay,
            audit_detail={
                "via": "私人页面",
                "link": link_mark(token),
            },
        )
        recs = list(message.inputs.order_by("seq"))
    else:
        shown = _structured(game, seat, sub, now)
        if shown.seen != seen:
            shown.repeats = repeats(replay.state, seat.player_name, shown.items)
            raise Changed(shown)
        if not shown.confirmable:
            raise EntryRefused("这次提交没有一项会被接受:什么都没有保存。请按预览里的原因修改后重新预览。")
        recs, message = inputs.write(game, inputs.Entry(seat, sub.items, now), seen=shown.digest).inputs, None
    entry = SelfEntry.objects.create(
        game=game,
        phase=recs[0].phase if recs else storage.require_open_phase(game),
        seat=seat,
        player_name=seat.player_name,
        link=link_mark(token),
        kind=sub.kind,
        raw=sub.raw,
        message=message,
    )
    entry.inputs.set(recs)
    detail = {
        "seat": seat.number,
        "sender": seat.player_name,
        "link": entry.link,
        "via": sub.kind,
        "inputs": [i.data for i in shown.items],
        "ids": [r.pk for r in recs],
        "message": message.pk if message else None,
        "raw": sub.raw,
    }
    audit.record(game, None, AuditLog.Action.SELF_ENTRY, detail)
    return entry, shown


@transaction.atomic
def setting_change(*, game: Game, on: bool, actor=None, once: Once | None = None) -> Game:
    """The 天神 turns self-entry on or off for a game (logged; the pages show which way the game is played)."""
    game = base.game_lock(game)
    spend(game, once, "玩家自行提交设置")
    game.self_entry = on
    game.save(update_fields=["self_entry"])
    audit.record(game, actor, AuditLog.Action.SELF_ENTRY_SETTING, {"on": on})
    return game
