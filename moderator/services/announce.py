"""The announcement drafts as rows: a close's drafts stored (`write_announcements`), the notices the 天神 posts by
hand (substitution S5, T4; correction; the clock's notices; the end of the game) drafted and stored, and the verb that
marks a draft posted. What the drafts say is rendered in `drafts` (and `posts`), from data, without the database."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from moderator.game.state import CloseResult, GameState
from moderator.models import Announcement, AuditLog, Game, Phase, Seat
from moderator.services import audit, posts
from moderator.services.base import db_now, game_lock
from moderator.services.closing import redrafts
from moderator.services.drafts import Renderer, draft_make
from moderator.services.errors import PlayError
from moderator.services.once import spend
from moderator.services.storage import announcement, drafts_store


def write_announcements(*, game: Game, phase: Phase, state: GameState, result: CloseResult) -> list[Announcement]:
    """Store the drafts of a close a replay made again (`closing.redrafts`: the live close's drafts), in one INSERT.
    `state`: the state after the close."""
    following = None if state.winner else game.phases.filter(kind=state.phase[0], number=state.phase[1]).first()
    announced = following.announced_end or following.ends_at if following is not None else None
    return drafts_store(game, phase, redrafts(game, phase, state, result, announced_end=announced))


def _draft(game, phase, kind, title, template: Renderer, ctx, events, recipient="") -> Announcement:
    draft = announcement(game, phase, draft_make(kind, title, template, ctx, events, recipient))
    draft.save()
    return draft


# --- notices the 天神 posts by hand: substitution (S5, T4), correction, the end of the game ---------------------------


def notice(game: Game, phase: Phase, title: str, template: Renderer, ctx: dict, recipient: str = "") -> Announcement:
    """A notice the 天神 posts by hand, drafted and stored: public, or a private one to `recipient`."""
    kind = Announcement.Kind.PRIVATE if recipient else Announcement.Kind.NOTICE
    return _draft(game, phase, kind, title, template, {"game": game, "phase": phase, **ctx}, [], recipient)


def _last_phase(game: Game) -> Phase:
    phase = game.phases.order_by("-starts_at", "-id").first()
    assert phase is not None, "a started game has a phase: every announcement belongs to one"
    return phase


def correction_notice(*, game: Game, changes: list[tuple[str, list[tuple]]]) -> Announcement:
    """A labelled 更正公告: for each corrected phase, what its result was and what it is now (A1: types only)."""
    phase = _last_phase(game)
    ctx = {"changes": changes}
    return notice(game, phase, f"【{game.name}】更正公告", "announcements/correction_notice.bbcode", ctx)


def _duration(delta) -> str:
    minutes = max(int(delta.total_seconds() // 60), 0)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} 小时 {minutes} 分" if minutes else f"{hours} 小时"


def clock_notice(*, game: Game, phase: Phase, what: str, by=None, reason: str = "") -> Announcement:
    """T4: the public notice of an extension (`what` = "extend", by a timedelta), a pause or a resume: the posted vote
    thread and dawn still state the old deadline, so the players are told the new one (or the time left)."""
    titles = {"extend": f"{phase.label}延长", "pause": "游戏暂停", "resume": "游戏继续"}
    paused = game.status == Game.Status.PAUSED
    left = phase.paused_remaining if paused else phase.ends_at - db_now()
    ctx = {"what": what, "hours": f"{by.total_seconds() / 3600:g}" if by else "", "reason": reason, "paused": paused}
    ctx["left"] = _duration(left) if left is not None else ""
    return notice(game, phase, f"【{game.name}】{titles[what]}", "announcements/clock_notice.bbcode", ctx)


def _pending(state: GameState, name: str) -> list[str]:
    """What is under way for this seat (the handover PM, S5): arsons, transformations, an executed card."""
    me = state.seat(name)
    out = [f"纵火 → {a.target}(已发出,尚未生效;N14)" for a in state.arsons if a.by == name]
    out += [f"纵火:{a.by}对你的纵火尚未生效(N14)" for a in state.arsons if a.target == name and a.by != name]
    for a in me.amoebas.values():
        if a.pending:
            out.append(f"阿米巴正在变形为{a.pending}(M1)")
    if name in state.pending_executions:
        out.append(f"昨天被处决丢掉的{state.pending_executions[name].card.name},今夜可能被特赦(N12)")
    out += [f"{act.use}" + (f" → {act.target}" if act.target else "") + "(本时段已发出)" for act in me.actions]
    return out


def substitution_drafts(*, game: Game, seat: Seat, old: str, state: GameState, phase: Phase | None, link: str = ""):
    """S5, T4: the handover PM to the substitute (hand in order, AP, what is under way, the new private link), the
    public notice of the substitution and its 12-hour 交替期, and — on an open day — the vote post with the new name
    and the new deadline (the old vote post stays, marked 已更正)."""
    phase = phase or _last_phase(game)
    me = state.seat(seat.player_name)
    handover = {
        "seat": seat,
        "old": old,
        "me": me,
        "hand": [c.name for c in me.hand],
        "pending": _pending(state, me.name),
        "link": link,
    }
    made = [
        notice(
            game,
            phase,
            f"致{seat.player_name}:替补交接",
            "announcements/handover_pm.bbcode",
            handover,
            seat.player_name,
        ),
        notice(
            game,
            phase,
            f"【{game.name}】替补公告:{seat.player_name} 接替 {old}",
            "announcements/substitution.bbcode",
            {"seat": seat, "old": old, "open_phase": phase if phase.status == Phase.Status.OPEN else None},
        ),
    ]
    if phase.status == Phase.Status.OPEN and phase.kind == Phase.Kind.DAY:
        made.append(_vote_post_again(game, phase, state))
    return made


def _vote_post_again(game: Game, day: Phase, state: GameState) -> Announcement:
    night = game.phases.filter(kind=Phase.Kind.NIGHT, number=day.number).first() or day
    now = timezone.now()
    olds = Announcement.objects.filter(
        game=game, phase=night, kind=Announcement.Kind.VOTE_POST, corrected_at__isnull=True
    )
    for a in olds:
        Announcement.objects.filter(pk=a.pk).update(corrected_at=now, title=f"〔已更正〕{a.title}")
    alive = [s.name for s in state.alive]
    voters = [name for name in alive if name not in state.saved]  # N7/N8: the saved do not vote
    ctx = {"game": game, "phase": night, "next_phase": day, "alive": alive, "voters": voters}
    ctx["no_vote"] = list(state.saved)
    title = f"【{game.name}】{day.label}投票帖(替补后)"
    return _draft(game, night, Announcement.Kind.VOTE_POST, title, posts.vote_post, ctx, [])


@transaction.atomic
def announcement_post(*, game: Game, pk: int, posted: bool = True, actor=None, once=None) -> Announcement:
    """The 天神 says a draft is on the forum now (or not): only posted drafts reach the public page."""
    game = game_lock(game)
    spend(game, once, "标记公告已发布")
    draft = Announcement.objects.filter(pk=pk, game=game).first()
    if draft is None:
        raise PlayError("没有这篇公告草稿")
    draft.posted_at = timezone.now() if posted else None
    draft.save(update_fields=["posted_at"])
    action = AuditLog.Action.ANNOUNCEMENT_POSTED if posted else AuditLog.Action.ANNOUNCEMENT_UNPOSTED
    audit.record(game, actor, action, {"title": draft.title})
    return draft
