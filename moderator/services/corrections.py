"""Corrections after a close: change the stored inputs of a closed phase, re-resolve from the corrected
phase by replaying, show what changes (losses, deaths, tallies, announcements), and apply only on confirmation.

Results are compared by seat, never by the name its holder has now (a substitute, S5, is the same seat). Only the
phases whose result changed get new posts; the old ones stay, marked 已更正, and a 更正公告 says what changed."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from moderator.models import Announcement, AuditLog, Game, Input, InputVoid, Phase, SeatHolder
from moderator.rules import codec
from moderator.selectors import open_phase_of
from moderator.services import audit, base, closing, errors, explain, inputs, intake, storage, verdicts
from moderator.services.announce import correction_notice, write_announcements
from moderator.services.clock import DRAW_RESULT
from moderator.services.intake import open_input
from moderator.services.once import Once, spend
from moderator.services.preview import close_on_time, drawn_sentence, rolled_back

COMPARED = ("lost", "saved", "executed", "tally", "died", "window", "silence", "winner")
LABELS = {
    "lost": "丢牌",
    "saved": "被救(不能投票)",
    "executed": "被处决",
    "tally": "计票",
    "died": "死亡",
    "window": "改顺序期",
    "silence": "默哀期",
    "winner": "胜方",
}


def result_sentence(key: str, value) -> str:
    """A stored close result, as the 天神 reads it."""
    if key == "lost":
        parts = [f"{name}:{k.get('特权', 0)}特权 {k.get('庶民', 0)}庶民" for name, k in (value or {}).items()]
        return ";".join(parts) or "无"
    if key == "tally":
        return "、".join(f"{name} {n}票" for name, n in sorted((value or {}).items(), key=lambda kv: -kv[1])) or "无"
    if key in ("window", "silence"):
        return "是" if value else "否"
    if isinstance(value, list):
        return "、".join(value) or "无"
    return str(value) if value else "无"


PLAYER_MAPS, PLAYER_LISTS = ("lost", "tally"), ("saved", "executed", "died")


def seat_numbers_ever(game: Game) -> dict[str, int]:
    """Every name that ever held a seat of this game (S5: the original player and each substitute) → seat number."""
    holders = SeatHolder.objects.filter(seat__game=game).values_list("player_name", "seat__number")
    return {**dict(holders), **dict(game.seats.values_list("player_name", "number"))}


def by_seat(key: str, value, seat_of: dict[str, int]):
    """A stored result's value with every player written as a seat number, so a substitution is no change."""
    if key in PLAYER_MAPS:
        return {seat_of.get(name, name): v for name, v in (value or {}).items()}
    if key in PLAYER_LISTS:
        return sorted((seat_of.get(name, name) for name in value or []), key=str)
    return value


def _named(key: str, value, names: dict[int, str]):
    if key in PLAYER_MAPS:
        return {names.get(n, n): v for n, v in value.items()}
    if key in PLAYER_LISTS:
        return [names.get(n, n) for n in value]
    return value


def result_changes(before: dict, after: dict, seat_of: dict[str, int], names: dict[int, str]) -> list[tuple]:
    """(what, before, after) sentences for each compared key whose value differs seat by seat."""
    changes = []
    for key in COMPARED:
        old, new = by_seat(key, before.get(key), seat_of), by_seat(key, after.get(key), seat_of)
        if (old or None) != (new or None):
            changes.append(
                (
                    LABELS[key],
                    result_sentence(key, _named(key, old, names)),
                    result_sentence(key, _named(key, new, names)),
                )
            )
    return changes


@dataclass
class PhaseDiff:
    phase: Phase
    changes: list[tuple[str, object, object]] = field(default_factory=list)  # (what, before, after)
    before_text: str = ""
    after_text: str = ""
    verdicts: list[str] = field(
        default_factory=list
    )  # other inputs whose verdict changes: "甲 投票 → 乙:接受 → 拒绝:…"
    drafts: list[tuple[str, str, str]] = field(default_factory=list)  # (title, before, after) of each changed draft
    open: bool = False  # the open phase: `changes` are what closing it on time would give
    drawn: list[str] = field(default_factory=list)  # the open night 1: each order O1 draws after, not before (or so)
    # 为什么, before and after (the preview only; not in the digest): the steps of the phase's trace that go, that come
    trace_gone: list[str] = field(default_factory=list)
    trace_new: list[str] = field(default_factory=list)

    @property
    def any(self) -> bool:
        return bool(self.changes or self.verdicts or self.drafts or self.drawn)


class Diffs(list):
    """Every phase a correction changes (a `PhaseDiff` each, the open phase included), what the edits themselves are,
    and what happens to the game (it ends, its winner changes, it re-opens: `game`), with the digest of it all."""

    def __init__(self, *args):
        super().__init__(*args)
        self.edits: list[str] = []
        self.game: list[tuple[str, str, str]] = []  # (what, before, after): 游戏状态 / 胜方

    @property
    def digest(self) -> str:
        lines = list(self.edits) + ["|".join(g) for g in self.game]
        for d in self:
            lines += [d.phase.label, *("|".join(map(str, c)) for c in d.changes), *d.verdicts, *d.drawn]
            lines += ["|".join(t) for t in d.drafts]
        return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


def _apply_edit(game: Game, edit: dict) -> tuple[Phase, Input]:
    """Append the edit to the log (a void row, or a new input of a closed phase); returns the phase it touches and
    the input."""
    if edit["op"] == "void":
        rec = Input.objects.select_related("phase").filter(pk=edit["id"], game=game).first()
        if rec is None:
            raise errors.PlayError("没有这条输入")
        if hasattr(rec, "void"):
            raise errors.PlayError("这条输入已经作废过了")
        if rec.phase.status != Phase.Status.CLOSED:
            raise errors.PlayError(f"这条输入属于进行中的{rec.phase.label}:请在控制台首页作废它")
        InputVoid.objects.create(input=rec, reason="天神更正时作废")
        return rec.phase, rec
    if edit["op"] == "add":
        phase = game.phases.get(pk=edit["phase_id"])
        if phase.status != Phase.Status.CLOSED:
            raise errors.PlayError(f"{phase.label}还没有结束:进行中时段的输入请用录入页面")
        seat = game.seats.get(pk=edit["seat_id"])
        (rec,) = inputs.store(game, phase, inputs.Entry(seat, [edit["item"]], edit["forum_at"]))
        return phase, rec
    raise errors.PlayError(f"不认识的更正操作:{edit['op']}")


def _ballots(result: dict) -> dict[str, int]:
    """Each voter's weight in a day's count (D2), from the tally event of a stored result."""
    tally = next((e for e in result.get("events") or [] if e.get("type") == "tally"), None)
    return {voter: b[1] for voter, b in (tally or {}).get("ballots", {}).items()}


def _changes(before: dict, after: dict, seat_of: dict[str, int], names: dict[int, str]) -> list[tuple]:
    """`result_changes`, and each voter whose vote weight changes (D2: the tally alone may hide two moves)."""
    changes = result_changes(before, after, seat_of, names)
    old, new = _ballots(before), _ballots(after)
    moved = [v for v in dict.fromkeys([*old, *new]) if old.get(v) != new.get(v)]
    for voter in moved:
        weight = lambda w: "不投票" if w is None else f"{w} 票"  # noqa: E731
        changes.append((f"{voter}的票权", weight(old.get(voter)), weight(new.get(voter))))
    return changes


def _verdict_lines(
    replay: storage.Replay, phase: Phase, names: dict[int, str], seat_names: dict[int, str]
) -> list[str]:
    """The inputs of a replayed phase whose verdict changes (the stored verdict, what the 天神 saw, → the new one)."""
    lines = []
    for rec in replay.records.get(phase.pk, []):
        old = storage.stored_verdict(rec)
        if storage.voided(rec) or old is None or rec.pk not in replay.verdicts:
            continue
        before, after = verdicts.verdict_text(old), verdicts.verdict_text(replay.verdicts[rec.pk])
        if before != after:
            what = codec.describe(rec.kind, rec.payload, names)
            lines.append(f"{seat_names[rec.seat_id]} {what}:{before} → {after}")
    return lines


def _plan(game: Game, edits: list[dict]) -> tuple[Diffs, storage.Replay, dict]:
    """Apply the edits to the log and replay from the first phase they touch; compare every replayed phase with what
    is stored: each closed phase's result and each input's verdict, and the open phase's verdicts and what closing it
    on time would give (T3/T5: the open phase is changed too; `preview.close_on_time`, on night 1 with the orders O1
    draws at its deadline before and after the edits, and its public post before and after)."""
    open_phase = open_phase_of(game)
    # The open phase's close on time before the edits (on night 1 with the orders O1 draws at its deadline).
    before_open = close_on_time(game, open_phase, storage.game_replay(game)) if open_phase is not None else None
    touched = [_apply_edit(game, edit) for edit in edits]
    if not touched:
        raise errors.PlayError("没有要更正的内容")
    first = min((p for p, _ in touched), key=lambda p: (p.starts_at, p.pk))
    replay = storage.game_replay(game, from_phase=first)
    seat_of, names = seat_numbers_ever(game), replay.names
    seat_names = dict(game.seats.values_list("pk", "player_name"))
    diffs = Diffs()
    for edit, (phase, rec) in zip(edits, touched, strict=True):
        what = f"{phase.label} {seat_names[rec.seat_id]} {codec.describe(rec.kind, rec.payload, names)}"
        if edit["op"] == "void":
            diffs.edits.append(f"作废:{what}")
        else:
            diffs.edits.append(f"补录:{what}({verdicts.verdict_text(replay.verdicts.get(rec.pk))})")
    for phase in replay.replayed:
        diff = PhaseDiff(phase, verdicts=_verdict_lines(replay, phase, names, seat_names))
        if phase.pk in replay.closed:
            diff.changes = _changes(phase.result, closing.result_json(replay.closed[phase.pk][1]), seat_of, names)
        elif before_open is not None and phase.status == Phase.Status.OPEN:
            diff.open = True
            old_drawn, old = before_open
            new_drawn, new = close_on_time(game, phase, replay, judged=replay.verdicts)
            diff.changes = _changes(old.result_doc, new.result_doc, seat_of, names)
            diff.drawn = drawn_changes("更正后,", phase, old_drawn, new_drawn, names)
            if old.post.text != new.post.text:
                diff.before_text, diff.after_text = old.post.text, new.post.text
        diffs.append(diff)
    return diffs, replay, seat_names


CLOSE_POSTS = (Announcement.Kind.DAWN, Announcement.Kind.DUSK, Announcement.Kind.VOTE_POST)


def _of_the_close(draft: Announcement) -> bool:
    """A draft the close wrote (its post, vote post, PMs and final summary: the redraft replaces it), not a notice the
    天神 wrote by hand on the same phase (a substitution, its handover PM, an earlier 更正公告: still true). The
    close's PMs and summary carry the events they tell; a hand notice carries none."""
    return draft.kind in CLOSE_POSTS or bool(draft.events)


AFTER = "(更正后)"


def _key(draft: Announcement) -> tuple:
    """Which earlier draft a redraft replaces: the same kind, recipient and title (an earlier correction's mark
    aside)."""
    return draft.kind, draft.recipient, draft.title.replace(AFTER, "")


@dataclass
class _End:
    """What the corrected closes do to the game: the winner they give (None: no close ends it), the open phase that
    no longer happens, the phase that re-opens."""

    winner: str | None = None
    cancelled: list[Phase] = field(default_factory=list)
    reopened: Phase | None = None


def _game_end(game: Game, diffs: Diffs, replay: storage.Replay, at: datetime) -> _End:
    """The first close with a winner ends the game there (V1–V3; its winner may be another camp now); a game that no
    close ends any more re-opens at the phase after its last close, a whole phase long from `at`, with the clock
    (T1). What changes is written to `diffs.game`, as the 天神 reads it."""

    old = game.winner if game.status == Game.Status.FINISHED else ""
    if old == DRAW_RESULT:  # V4: a declared draw is the 天神's ruling, not a close's: it stands
        return _End()
    closed = [p for p in replay.phases if p.pk in replay.closed]
    ends = next((p for p in closed if replay.closed[p.pk][1].winner), None)
    if ends is None and game.status == Game.Status.FINISHED and old:
        last = max((p for p in replay.phases), key=lambda p: (p.starts_at, p.pk))
        start = max(at.replace(second=0, microsecond=0), last.ends_at)  # never before the phase it follows
        following = closing.next_phase_of(game, replay.state, start)  # the phase the last close opened, from now
        assert following is not None  # no close ends the game
        reopened = Phase(game=game, **following._asdict())
        deadline = timezone.localtime(reopened.ends_at).strftime("%Y-%m-%d %H:%M")
        diffs.game.append(("胜方", old, "无(没有阵营获胜,游戏继续)"))
        diffs.game.append(("游戏状态", "已结束", f"重新开始:{reopened.label}从现在开始,截止 {deadline}"))
        return _End(reopened=reopened)
    if ends is None:
        return _End()
    winner = replay.closed[ends.pk][1].winner
    later = [p for p in replay.phases if (p.starts_at, p.pk) > (ends.starts_at, ends.pk)]
    busy = (
        any(p.status == Phase.Status.CLOSED for p in later)
        or Input.objects.filter(phase__in=later).exists()
        or Announcement.objects.filter(phase__in=later).exists()
    )
    if busy:
        labels = "、".join(p.label for p in later)
        raise errors.PlayError(
            f"这个更正会让游戏在{ends.label}结束(胜方:{winner}),但之后的{labels}已经有输入、公告或已经结算:"
            "无法自动更正。请先作废之后时段的输入,或按规则宣布结果"
        )
    for p in later:
        diffs.game.append(("进行中的时段", p.label, f"取消(游戏在{ends.label}结束;{p.label}还没有任何输入)"))
    if winner != old:
        diffs.game.append(("胜方", old or "游戏未结束", f"{winner}(游戏在{ends.label}结束)"))
    return _End(winner=winner, cancelled=later)


def _rewrite(game: Game, diffs: Diffs, replay: storage.Replay, at: datetime) -> None:
    """Apply the corrected results: the game's end or re-opening, then new drafts of every re-resolved phase whose
    text changed (the old ones stay, marked 已更正; unchanged drafts stay as they are), then one 更正公告."""
    end = _game_end(game, diffs, replay, at)
    for phase in end.cancelled:  # no input, no draft: nothing of it is lost
        phase.delete()
    if end.reopened is not None:
        end.reopened.save()
        game.status, game.winner = Game.Status.RUNNING, ""
        game.save(update_fields=["status", "winner"])
    elif end.winner and (game.status != Game.Status.FINISHED or game.winner != end.winner):
        game.status, game.winner = Game.Status.FINISHED, end.winner
        game.save(update_fields=["status", "winner"])
    now = timezone.now()
    by_phase = {d.phase.pk: d for d in diffs}
    phases = [p for p in replay.phases if p not in end.cancelled]
    for phase in phases:
        if phase.pk not in replay.closed or not by_phase[phase.pk].changes:
            continue  # its result stands seat by seat: its drafts stand (a substitute's name is no change, S5)
        state, result = replay.closed[phase.pk]
        olds = [a for a in phase.announcements.filter(corrected_at__isnull=True).order_by("id") if _of_the_close(a)]
        made = write_announcements(game=game, phase=phase, state=state, result=result)
        _supersede(by_phase[phase.pk], olds, made, now)
    diffs[:] = [d for d in diffs if d.any and d.phase not in end.cancelled]
    rows = [(d.phase.label, d.changes) for d in diffs if d.changes and not d.open]
    if diffs.game:
        rows.append(("游戏", diffs.game))
    if rows:
        correction_notice(game=game, changes=rows)
    for pk in [p.pk for p in end.cancelled]:
        replay.records.pop(pk, None)
    replay.phases = phases
    storage.replay_save(replay)  # verdicts and snapshots from the corrected phase on; earlier ones are untouched


def _supersede(diff: PhaseDiff, olds: list[Announcement], made: list[Announcement], now) -> None:
    """A redraft whose text is the same as the draft it would replace is dropped (the draft stands, posted
    or not); a changed one is marked (更正后) and the old one 〔已更正〕; an old draft the close no longer writes (a
    window notice, a final summary) is marked 〔已更正〕. Each change is listed in `diff.drafts`."""
    unmatched = {a.pk: a for a in olds}
    for a in made:
        old = next((o for o in unmatched.values() if _key(o) == _key(a)), None)
        if old is not None:
            del unmatched[old.pk]
        if old is not None and old.bbcode == a.bbcode:
            Announcement.objects.filter(pk=a.pk).delete()
            continue
        title = a.title.replace(AFTER, "")
        Announcement.objects.filter(pk=a.pk).update(title=f"{title}{AFTER}")
        if old is not None:
            Announcement.objects.filter(pk=old.pk).update(corrected_at=now, title=f"〔已更正〕{old.title}")
        diff.drafts.append((title, old.text if old else "", a.text))
        if a.kind != Announcement.Kind.PRIVATE and not diff.after_text:
            diff.after_text, diff.before_text = a.text, old.text if old else ""
    for old in unmatched.values():
        Announcement.objects.filter(pk=old.pk).update(corrected_at=now, title=f"〔已更正〕{old.title}")
        diff.drafts.append((old.title.replace(AFTER, ""), old.text, ""))


def correction_preview(*, game: Game, edits: list[dict], at: datetime | None = None) -> Diffs:
    """What the correction would change, phase by phase (the open one included), and to the game; nothing is kept."""

    def corrected() -> tuple[Game, Diffs, dict[int, list[str]]]:
        locked = base.game_lock(game)
        diffs, replay, _ = _plan(locked, edits)
        _rewrite(locked, diffs, replay, at or timezone.now())
        return locked, diffs, {d.phase.pk: _trace_lines(locked, d.phase) for d in diffs if d.any}

    locked, diffs, after = rolled_back(corrected)
    _trace_changes(locked, diffs, after)
    return diffs


def _trace_lines(game: Game, phase: Phase) -> list[str]:

    return [s.line for s in explain.phase_trace(game, phase).steps]


def _trace_changes(game: Game, diffs: Diffs, after: dict[int, list[str]]) -> None:
    """The steps of each changed phase's trace before the correction and after it (what goes, what comes): the
    为什么 of the preview. A phase the preview made (a re-opened game) has no before."""
    stored = set(game.phases.values_list("pk", flat=True))
    for d in diffs:
        if d.phase.pk not in after:
            continue
        before = _trace_lines(game, d.phase) if d.phase.pk in stored else []
        d.trace_gone = [line for line in before if line not in after[d.phase.pk]]
        d.trace_new = [line for line in after[d.phase.pk] if line not in before]


class CorrectionNotAsSeen(errors.PlayError):
    """The correction would now change something else than its preview showed: nothing is stored."""


@transaction.atomic
def correction_apply(
    *,
    game: Game,
    edits: list[dict],
    user=None,
    reason: str = "",
    once: Once | None = None,
    seen: str | None = None,
    at: datetime | None = None,
) -> Diffs:
    """Apply the correction: the stored results, the verdicts and the drafts of every changed phase are redone, the
    game ends or re-opens as its closes now say. `seen`: the digest of the preview the 天神 saw (None: not checked);
    if the correction would now do anything else, nothing is stored. `at`: the preview's time (a re-opened phase
    starts then, so that its deadline is the one the preview showed)."""
    game = base.game_lock(game)
    spend(game, once, "更正")
    diffs, replay, _ = _plan(game, edits)
    _rewrite(game, diffs, replay, at or timezone.now())
    if seen is not None and diffs.digest != seen:
        raise CorrectionNotAsSeen(
            "这个更正现在的结果和预览时不同(其间有输入被录入、作废或时段结束了):什么都没有保存,请重新预览。"
        )
    detail = {
        "edits": [{k: (str(v) if k == "forum_at" else v) for k, v in e.items()} for e in edits],
        "reason": reason,
        "phases": [d.phase.label for d in diffs],
        "game": [list(g) for g in diffs.game],
    }
    audit.record(game, user, AuditLog.Action.CORRECTION, detail)
    return diffs


# --- a void of the open phase, previewed: a void may change another input's verdict -------------------------------


@dataclass
class VoidPreview:
    rec: Input
    sentence: str
    verdicts: list[tuple[str, str, str, str]] = field(default_factory=list)  # (who, what, before, after)
    changes: list[tuple[str, object, object]] = field(default_factory=list)  # if the phase closes on time
    drawn: list[str] = field(default_factory=list)  # O1: the orders the deadline draws after the void, not before
    post: tuple[str, str] | None = None  # the public post of the close on time (before, after), when it changes

    @property
    def digest(self) -> str:
        """A fingerprint of everything the void's page shows: its confirm checks that the void still does that."""
        shown = [self.sentence, *map(str, self.verdicts), *map(str, self.changes), *self.drawn, *(self.post or ())]
        return hashlib.sha256("\n".join(shown).encode()).hexdigest()[:16]


def void_confirm(*, game: Game, pk: int, seen: str, user=None, reason: str = "", once: Once | None = None) -> None:
    """The void the 天神 confirmed on its page: `seen` is the digest of that page (`VoidPreview.digest`); when the void
    would now change something else (an input entered or voided since), nothing is voided and the page is to be
    looked at again. The repeated click is refused first (the one-time token), then the page's digest is checked
    under the game's lock, then the void is made."""
    if not seen:
        raise errors.PlayError("作废请从确认页操作:它先显示作废后会改变什么。")
    with transaction.atomic():
        game = base.game_lock(game)
        spend(game, once, "作废输入")
        if void_preview(game=game, pk=pk).digest != seen:
            raise errors.PlayError(
                "作废后会改变的和确认页上显示的不同(其间有输入被录入或作废):什么都没有作废,请看过新的确认页后再确认。"
            )
        intake.input_void(game=game, pk=pk, user=user, reason=reason)


def drawn_changes(lead: str, phase: Phase, before: list[Input], after: list[Input], names: dict[int, str]) -> list[str]:
    """O1, one sentence a seat: an order the deadline of night 1 draws after a void or a correction (`lead`: 作废后,
    更正后) and not before, said as the dashboard says it (`preview.drawn_sentence`), and a seat whose order it no
    longer draws."""
    was, now = {r.seat_id for r in before}, {r.seat_id for r in after}
    lines = [f"{lead}{phase.label}截止时系统随机决定{drawn_sentence(r, names)}" for r in after if r.seat_id not in was]
    lines += [
        f"{lead}{phase.label}截止时不再为{r.seat.player_name}随机决定丢牌顺序(O1)"
        for r in before
        if r.seat_id not in now
    ]
    return lines


def void_preview(*, game: Game, pk: int) -> VoidPreview:
    """What voiding one input of the open phase would change: every other input's verdict, and the close as the clock
    makes it at the deadline (`preview.close_on_time`: on night 1 with the orders O1 draws then, each order the void
    leaves to be drawn named), before and after: its result and its public post. The void is made inside a
    transaction that is rolled back; one replay each side."""
    rec = open_input(game, pk)
    phase = rec.phase
    before = storage.game_replay(game)
    names, seat_of = before.names, seat_numbers_ever(game)
    preview = VoidPreview(rec, codec.describe(rec.kind, rec.payload, names))
    old_drawn, old_close = close_on_time(game, phase, before)

    def voided() -> tuple[storage.Replay, list[Input], closing.Closed]:
        base.game_lock(game)
        InputVoid.objects.create(input=rec, reason="预览")
        after = storage.game_replay(game)
        return after, *close_on_time(game, phase, after, judged=after.verdicts)

    after, new_drawn, new_close = rolled_back(voided)
    changes = verdicts.verdict_changes(before, after, rec.phase_id, skip=frozenset({rec.pk}))
    preview.verdicts = [(c.who, c.what, c.before, c.after) for c in changes]
    preview.changes = result_changes(old_close.result_doc, new_close.result_doc, seat_of, names)
    preview.drawn = drawn_changes("作废后,", phase, old_drawn, new_drawn, names)
    if old_close.post.text != new_close.post.text:
        preview.post = (old_close.post.text, new_close.post.text)
    return preview
