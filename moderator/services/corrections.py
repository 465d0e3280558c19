"""Corrections after a close (issue 6): change the stored inputs of a closed phase, re-resolve from the corrected
phase by replaying, show what changes (losses, deaths, tallies, announcements), and apply only on confirmation.

Results are compared by seat, never by the name its holder has now (a substitute, S5, is the same seat). Only the
phases whose result changed get new posts; the old ones stay, marked 已更正, and a 更正公告 says what changed."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from moderator import rules
from moderator.models import Announcement, AuditLog, Game, Input, InputVoid, Phase, SeatHolder
from moderator.services import play, verdicts
from moderator.services.announce import correction_notice, write_announcements
from moderator.services.intake import open_input
from moderator.services.once import Once, spend

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


def describe(key: str, value) -> str:
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
                (LABELS[key], describe(key, _named(key, old, names)), describe(key, _named(key, new, names)))
            )
    return changes


@dataclass
class PhaseDiff:
    phase: Phase
    changes: list[tuple[str, object, object]] = field(default_factory=list)  # (what, before, after)
    before_text: str = ""
    after_text: str = ""


class _Preview(Exception):
    pass


def _apply_edit(game: Game, edit: dict) -> Phase:
    """Append the edit to the log (a void row, or a new input of a closed phase); returns the phase it touches."""
    if edit["op"] == "void":
        rec = Input.objects.select_related("phase").filter(pk=edit["id"], game=game).first()
        if rec is None:
            raise play.PlayError("没有这条输入")
        if hasattr(rec, "void"):
            raise play.PlayError("这条输入已经作废过了")
        InputVoid.objects.create(input=rec, reason="天神更正时作废")
        return rec.phase
    if edit["op"] == "add":
        phase = game.phases.get(pk=edit["phase_id"])
        seat = game.seats.get(pk=edit["seat_id"])
        play.input_add(game=game, phase=phase, seat=seat, item=edit["item"], forum_at=edit["forum_at"])
        return phase
    raise play.PlayError(f"不认识的更正操作:{edit['op']}")


def _resolve(game: Game, first: Phase) -> tuple[list[PhaseDiff], play.Replay]:
    """Re-resolve from the corrected phase on (earlier phases keep their snapshots) and compare each closed phase's
    stored result with the new one."""
    replay = play.game_replay(game, from_phase=first)
    seat_of, names = seat_numbers_ever(game), replay.names
    diffs = []
    for phase in replay.replayed:
        if phase.pk not in replay.closed:
            continue
        new = play.result_json(replay.closed[phase.pk][1])
        diff = PhaseDiff(phase, result_changes(phase.result, new, seat_of, names))
        if diff.changes:
            diffs.append(diff)
    return diffs, replay


def _edits_apply(game: Game, edits: list[dict]) -> tuple[list[PhaseDiff], play.Replay]:
    touched = [_apply_edit(game, edit) for edit in edits]
    if not touched:
        raise play.PlayError("没有要更正的内容")
    return _resolve(game, min(touched, key=lambda p: (p.starts_at, p.pk)))


CLOSE_POSTS = (Announcement.Kind.DAWN, Announcement.Kind.DUSK, Announcement.Kind.VOTE_POST)


def _of_the_close(draft: Announcement) -> bool:
    """A draft the close wrote (its post, vote post, PMs and final summary: the redraft replaces it), not a notice the
    天神 wrote by hand on the same phase (a substitution, its handover PM, an earlier 更正公告: still true). The
    close's PMs and summary carry the events they tell; a hand notice carries none."""
    return draft.kind in CLOSE_POSTS or bool(draft.events)


def _rewrite(game: Game, diffs: list[PhaseDiff], replay: play.Replay) -> None:
    """New posts for the changed phases only; the old ones stay, marked 已更正; then one 更正公告."""
    now = timezone.now()
    for diff in diffs:
        phase = diff.phase
        state, result = replay.closed[phase.pk]
        olds = [a for a in phase.announcements.filter(corrected_at__isnull=True).order_by("id") if _of_the_close(a)]
        nxt = game.phases.filter(starts_at=phase.ends_at).first()
        if nxt is not None and nxt.announced_end:  # T5: the posts name the announced deadline, not the early end
            nxt.ends_at = nxt.announced_end
        made = write_announcements(game=game, phase=phase, state=state, result=result, next_phase=nxt)
        for a in made:
            Announcement.objects.filter(pk=a.pk).update(title=f"{a.title}(更正后)")
        for a in olds:
            Announcement.objects.filter(pk=a.pk).update(corrected_at=now, title=f"〔已更正〕{a.title}")
        public = [a for a in made if a.kind != Announcement.Kind.PRIVATE]
        diff.after_text = public[0].text if public else ""
        old = next((a for a in olds if public and a.kind == public[0].kind), None)  # a dawn with a dawn
        diff.before_text = old.text if old else ""
    if diffs:
        correction_notice(game=game, changes=[(d.phase.label, d.changes) for d in diffs])
    play.replay_save(replay)  # verdicts and snapshots from the corrected phase on; earlier ones are untouched
    winner = replay.state.winner or next((r.winner for _, r in replay.closed.values() if r.winner), None)
    if winner and game.winner != winner:
        game.status, game.winner = Game.Status.FINISHED, winner
        game.save(update_fields=["status", "winner"])


def correction_preview(*, game: Game, edits: list[dict]) -> list[PhaseDiff]:
    """What the correction would change, phase by phase; nothing is kept."""
    diffs: list[PhaseDiff] = []
    try:
        with transaction.atomic():
            game = play.game_lock(game)
            diffs, replay = _edits_apply(game, edits)
            _rewrite(game, diffs, replay)
            raise _Preview
    except _Preview:
        pass
    return diffs


@transaction.atomic
def correction_apply(
    *, game: Game, edits: list[dict], user=None, reason: str = "", once: Once | None = None
) -> list[PhaseDiff]:
    """Apply the correction: the stored results and the announcement drafts of every changed phase are redone."""
    game = play.game_lock(game)
    spend(game, once, "更正")
    diffs, replay = _edits_apply(game, edits)
    _rewrite(game, diffs, replay)
    detail = {
        "edits": [{k: (str(v) if k == "forum_at" else v) for k, v in e.items()} for e in edits],
        "reason": reason,
        "phases": [d.phase.label for d in diffs],
    }
    AuditLog.objects.create(game=game, actor=user, action="更正", detail=detail)
    return diffs


# --- a void of the open phase, previewed (bug: a void silently turned another vote into an accepted one) -----------


@dataclass
class VoidPreview:
    rec: Input
    sentence: str
    verdicts: list[tuple[str, str, str, str]] = field(default_factory=list)  # (who, what, before, after)
    changes: list[tuple[str, object, object]] = field(default_factory=list)  # if the phase closed now


def void_preview(*, game: Game, pk: int) -> VoidPreview:
    """What voiding one input of the open phase would change: every other input's verdict, and what a close now
    would give (a dry run of the rules before and after, inside a transaction that is rolled back)."""
    from moderator.rules import codec

    rec = open_input(game, pk)
    before = play.game_replay(game)
    names, seat_of = before.names, seat_numbers_ever(game)
    preview = VoidPreview(rec, codec.describe(rec.kind, rec.payload, names))
    try:
        with transaction.atomic():
            play.game_lock(game)
            InputVoid.objects.create(input=rec, reason="预览")
            after = play.game_replay(game)
            raise _Preview
    except _Preview:
        pass
    changes = verdicts.verdict_changes(before, after, rec.phase_id, skip=frozenset({rec.pk}))
    preview.verdicts = [(c.who, c.what, c.before, c.after) for c in changes]
    old_close = play.result_json(rules.close_phase(before.state)[1])
    new_close = play.result_json(rules.close_phase(after.state)[1])
    preview.changes = result_changes(old_close, new_close, seat_of, names)
    return preview
