"""Announcement drafts (A1–A5): events of a close → context → BBCode (a close's drafts: `posts`, in Python; the
notices the 天神 posts by hand: templates), plain text from the same render."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from typing import NamedTuple

from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from moderator.game.settle import winners
from moderator.game.state import CloseResult, GameState, evolve
from moderator.models import Announcement, AuditLog, Game, Phase, Seat
from moderator.rules.views import final_reveal, revealed_camp
from moderator.services import posts

NUMERALS = "零一两三四五六七八九十"
BBCODE_TAG = re.compile(r"\[/?(?:b|i|u|quote|color|size|list|\*)(?:=[^\]]*)?\]")
# A quote's text holds no bracket (templatetags.bbcode escapes every value), so it cannot close its quote early.
QUOTE = re.compile(r"\[quote\](.*?)\[/quote\]", re.S)
# Every character str.splitlines() (and a text box, a reader, a forum editor) breaks a line at: a lone CR inside a
# manifesto started a line of the plain text without its "> " (issue 22).
LINE_BREAK = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
BLANK_LINES = re.compile(r"\n{3,}")
# What renders a draft: a template's name (the notices the 天神 posts by hand) or a function of `posts` (a close's).
Renderer = str | Callable[[dict], str]


class Draft(NamedTuple):
    """A draft as a close writes it, before it is an `Announcement` row: its game and phase are the close's."""

    kind: str
    recipient: str
    title: str
    bbcode: str
    text: str
    events: list


def announcement(game: Game, phase: Phase, draft: Draft) -> Announcement:
    """The row of a draft (not saved)."""
    return Announcement(game=game, phase=phase, **draft._asdict())


def count(n: int) -> str:
    return NUMERALS[n] if n < len(NUMERALS) else str(n)


def cards_phrase(privilege: int, common: int) -> str:
    """A1: "一张特权牌和一张庶民牌" — by type only, never which card."""
    parts = [f"{count(n)}张{kind}牌" for n, kind in ((privilege, "特权"), (common, "庶民")) if n]
    return "和".join(parts)


def plain(bbcode: str) -> str:
    """The plain-text twin of a draft. A quote (a 杀人宣言, written by a player) keeps a "> " on each of its lines,
    so that a forged "…死亡。" inside it never reads like the 天神's own line."""
    quoted = QUOTE.sub(lambda m: "\n".join(f"> {line}" for line in LINE_BREAK.split(m.group(1))), bbcode)
    return BBCODE_TAG.sub("", quoted)


def _losses(events: list[dict], causes: tuple[str, ...]) -> list[dict]:
    by_player: dict[str, dict[str, int]] = defaultdict(lambda: {"特权": 0, "庶民": 0})
    for e in events:
        if e["type"] == "loss" and e["cause"] in causes and e["announced"]:
            by_player[e["player"]][e["card_type"]] += 1
    return [{"player": p, "phrase": cards_phrase(k["特权"], k["庶民"])} for p, k in by_player.items()]


def _typed(events: list[dict], cause: str) -> list[dict]:
    return [
        {"player": e["player"], "phrase": cards_phrase(e["card_type"] == "特权", e["card_type"] == "庶民")}
        for e in events
        if e["type"] == "loss" and e["cause"] == cause and e["announced"]
    ]


def _common(events: list[dict], result: CloseResult, next_phase: Phase | None) -> dict:
    return {
        "deaths": [e for e in events if e["type"] == "death"],
        "window": next((e["mark"] for e in events if e["type"] == "window"), None),
        "silence": result.silence,
        "silence_left": count(next((e.get("alive", 3) for e in events if e["type"] == "silence"), 3)),  # T7
        "winner": result.winner,
        "winners": next((e.get("winners", []) for e in events if e["type"] == "victory"), []),  # V2: both co-winners
        "next_phase": next_phase,
        "deadline": posts.deadline(next_phase.ends_at) if next_phase is not None else "",  # formatted once a close
        "doom": _typed(events, "绝杀"),
    }


def dawn_context(result: CloseResult) -> dict:
    """A2: losses by type, named 绝杀 and 束魂/巫医 failures, saved players, yesterday's executed cards, pardons,
    deaths (camp only for day deaths), the night's 杀人宣言 without authors, windows, 默哀期, victory."""
    events = list(result.events)
    return {
        "attacked": _losses(events, ("攻击",)),
        "failures": _typed(events, "束魂") + _typed(events, "巫医"),
        "saved": list(result.saved),
        "execution_cards": [
            {"player": e["player"], "phrase": cards_phrase(e["card_type"] == "特权", e["card_type"] == "庶民")}
            for e in events
            if e["type"] == "execution_card"
        ],
        "pardons": [e["player"] for e in events if e["type"] == "pardon"],
        "manifestos": [e["text"] for e in events if e["type"] == "manifesto"],
    }


def dusk_context(result: CloseResult, seats: list[str] | None = None) -> dict:
    """A3: the weighted tally (highest first, ties in seat order), executions, 圣人 and day 绝杀 losses, day deaths
    with camps, window, 默哀期, victory."""
    events = list(result.events)
    seat_of = {name: i for i, name in enumerate(seats or [])}
    announced_now = {e["player"]: e for e in events if e["type"] == "loss" and e["cause"] == "处决" and e["announced"]}
    return {
        "tally": sorted(result.tally.items(), key=lambda kv: (-kv[1], seat_of.get(kv[0], 0))),
        "executed": [
            {
                "player": p,
                "phrase": cards_phrase(announced_now[p]["card_type"] == "特权", announced_now[p]["card_type"] == "庶民")
                if p in announced_now
                else "",
            }
            for p in result.executed
        ],
        "saints": [e["player"] for e in events if e["type"] == "saint"],
        "saint_losses": _typed(events, "圣人"),
    }


def public_post(
    *,
    game: Game,
    phase: Phase,
    result: CloseResult,
    next_phase,
    seats: list[str] | None = None,
    state: GameState | None = None,
) -> tuple[Renderer, dict]:
    """The renderer and context of the close's public post: dawn (A2) after a night, dusk (A3) after a day (ties in
    the tally in `seats` order). `next_phase`: what the close opens (a `Phase`, or the close's `NextPhase`);
    `state`: the state after the close, for a self-chosen day death's stance (V5, as the final reveal says it)."""
    events = list(result.events)
    ctx = {"game": game, "phase": phase, **_common(events, result, next_phase)}
    ctx["deaths"] = [{**d, "camp": revealed_camp(state, d["player"], d.get("camp"))} for d in ctx["deaths"]]
    if phase.kind == Phase.Kind.NIGHT:
        return posts.dawn, {**ctx, **dawn_context(result)}
    return posts.dusk, {**ctx, **dusk_context(result, seats)}


def render_bbcode(template: Renderer, ctx: dict) -> str:
    """A draft's BBCode as it is stored and previewed (plain text: `plain`): a close's drafts through `posts`, the
    other notices through their templates."""
    raw = render_to_string(template, ctx) if isinstance(template, str) else template(ctx)
    return BLANK_LINES.sub("\n\n", raw.strip())


def write_announcements(
    *, game: Game, phase: Phase, state: GameState, result: CloseResult, next_phase: Phase | None
) -> list[Announcement]:
    made = Announcement.objects.bulk_create(  # one INSERT for every draft of the close
        announcement(game, phase, draft)
        for draft in write_announcements_drafts(
            game=game, phase=phase, state=state, result=result, next_phase=next_phase
        )
    )
    if result.winner:
        made.append(final_summary(game=game, phase=phase, state=state, winner=result.winner))
    return made


def write_announcements_drafts(
    *, game: Game, phase: Phase, state: GameState, result: CloseResult, next_phase
) -> list[Draft]:
    """The drafts of a close but the final summary, rendered (closesql writes them in its one statement;
    `write_announcements` in one INSERT). `next_phase`: a `Phase`, or the close's `NextPhase` (its kind, number,
    end and label)."""
    events = list(result.events)
    seats = [s.name for s in state.seats]
    render, ctx = public_post(game=game, phase=phase, result=result, next_phase=next_phase, seats=seats, state=state)
    made = []
    if phase.kind == Phase.Kind.NIGHT:
        title = f"【{game.name}】{phase.label}结束,天亮了"
        made.append(_build(Announcement.Kind.DAWN, title, render, ctx, events))
        if next_phase is not None:
            voters = [s.name for s in state.alive if s.name not in result.saved]  # N7/N8: the saved do not vote
            vote_ctx = {**ctx, "alive": [s.name for s in state.alive], "voters": voters, "no_vote": list(result.saved)}
            title = f"【{game.name}】{next_phase.label}投票帖"
            made.append(_build(Announcement.Kind.VOTE_POST, title, posts.vote_post, vote_ctx, []))
    else:
        title = f"【{game.name}】{phase.label}投票结果,天黑了"
        made.append(_build(Announcement.Kind.DUSK, title, render, ctx, events))
    made += _private_notices(game, state, events)
    return made


def _draft(game, phase, kind, title, template: Renderer, ctx, events, recipient="") -> Announcement:
    draft = announcement(game, phase, _build(kind, title, template, ctx, events, recipient))
    draft.save()
    return draft


def _build(kind, title, template: Renderer, ctx, events, recipient="") -> Draft:
    """A draft, rendered."""
    bbcode = render_bbcode(template, ctx)
    return Draft(kind, recipient, title, bbcode, plain(bbcode), events)


def _private_notices(game: Game, state: GameState, events: list[dict]) -> list[Draft]:
    """A5: the co-win notice to the partner (S4, naming nobody), and order-change reminders (O3)."""
    made = []
    for e in events:
        if e["type"] == "co_win" and e["partner"]:
            title = f"致{e['partner']}:共赢通知"
            made.append(
                _build(Announcement.Kind.PRIVATE, title, posts.co_win, {"partner": e["partner"]}, [e], e["partner"])
            )
        if e["type"] == "window":
            for seat in state.alive:
                ctx = {"game": game, "seat": seat, "bottom": seat.hand[-1].name if seat.hand else ""}
                title = f"致{seat.name}:可以修改丢牌顺序"
                made.append(_build(Announcement.Kind.PRIVATE, title, posts.order_window, ctx, [e], seat.name))
    return made


# --- notices the 天神 posts by hand: substitution (S5, T4), correction, the end of the game ---------------------------


def _notice(game: Game, phase: Phase, title: str, template: Renderer, ctx: dict, recipient: str = "") -> Announcement:
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
    return _notice(game, phase, f"【{game.name}】更正公告", "announcements/correction_notice.bbcode", ctx)


def _duration(delta) -> str:
    minutes = max(int(delta.total_seconds() // 60), 0)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} 小时 {minutes} 分" if minutes else f"{hours} 小时"


def clock_notice(*, game: Game, phase: Phase, what: str, by=None, reason: str = "") -> Announcement:
    """T4: the public notice of an extension (`what` = "extend", by a timedelta), a pause or a resume: the posted vote
    thread and dawn still state the old deadline, so the players are told the new one (or the time left)."""
    from moderator.services.clock import db_now

    titles = {"extend": f"{phase.label}延长", "pause": "游戏暂停", "resume": "游戏继续"}
    paused = game.status == Game.Status.PAUSED
    left = phase.paused_remaining if paused else phase.ends_at - db_now()
    ctx = {"what": what, "hours": f"{by.total_seconds() / 3600:g}" if by else "", "reason": reason, "paused": paused}
    ctx["left"] = _duration(left) if left is not None else ""
    return _notice(game, phase, f"【{game.name}】{titles[what]}", "announcements/clock_notice.bbcode", ctx)


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
        _notice(
            game,
            phase,
            f"致{seat.player_name}:替补交接",
            "announcements/handover_pm.bbcode",
            handover,
            seat.player_name,
        ),
        _notice(
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


def final_summary(*, game: Game, phase: Phase, state: GameState, winner: str) -> Announcement:
    """The end of the game: the winner, and every seat's camp and the cards it still held (nothing is secret now)."""
    draft = announcement(game, phase, final_summary_draft(game=game, phase=phase, state=state, winner=winner))
    draft.save()
    return draft


def final_summary_draft(*, game: Game, phase: Phase, state: GameState, winner: str) -> Draft:
    """`final_summary`, rendered and not saved."""
    won = evolve(state, winner=winner)  # a declared draw (V4) is not in the state yet
    ctx = {"game": game, "phase": phase, "seats": final_reveal(state), "winner": winner, "winners": winners(won)}
    title = f"【{game.name}】游戏结束:全体身份与手牌"
    events = [{"type": "victory", "winner": winner}]  # a draft of the close: a correction may supersede it
    return _build(Announcement.Kind.NOTICE, title, posts.final_summary, ctx, events)


@transaction.atomic
def announcement_post(*, game: Game, pk: int, posted: bool = True, actor=None, once=None) -> Announcement:
    """The 天神 says a draft is on the forum now (or not): only posted drafts reach the public page."""
    from moderator.services import play
    from moderator.services.once import spend

    game = play.game_lock(game)
    spend(game, once, "标记公告已发布")
    draft = Announcement.objects.filter(pk=pk, game=game).first()
    if draft is None:
        raise play.PlayError("没有这篇公告草稿")
    draft.posted_at = timezone.now() if posted else None
    draft.save(update_fields=["posted_at"])
    action = "标记公告已发布" if posted else "撤回公告发布标记"
    AuditLog.objects.create(game=game, actor=actor, action=action, detail={"title": draft.title})  # the page cache key
    return draft
