"""Corrections after a close (issue 6): change the stored inputs of a closed phase, re-resolve every phase from the
first one by replaying, show what changes (losses, deaths, tallies, announcements), and apply only on confirmation."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from moderator.models import Announcement, AuditLog, Game, Input, InputVoid, Phase
from moderator.services import play
from moderator.services.announce import write_announcements
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
    diffs = []
    for phase in replay.replayed:
        if phase.pk not in replay.closed:
            continue
        new = play.result_json(replay.closed[phase.pk][1])
        diff = PhaseDiff(phase)
        for key in COMPARED:
            if phase.result.get(key) != new[key]:
                diff.changes.append((LABELS[key], describe(key, phase.result.get(key)), describe(key, new[key])))
        if diff.changes:
            diffs.append(diff)
    return diffs, replay


def _edits_apply(game: Game, edits: list[dict]) -> tuple[list[PhaseDiff], play.Replay]:
    touched = [_apply_edit(game, edit) for edit in edits]
    if not touched:
        raise play.PlayError("没有要更正的内容")
    return _resolve(game, min(touched, key=lambda p: (p.starts_at, p.pk)))


def _rewrite(game: Game, diffs: list[PhaseDiff], replay: play.Replay) -> None:
    for diff in diffs:
        phase = diff.phase
        state, result = replay.closed[phase.pk]
        old = phase.announcements.exclude(kind=Announcement.Kind.PRIVATE).order_by("-id").first()
        diff.before_text = old.text if old else ""
        nxt = game.phases.filter(starts_at=phase.ends_at).first()
        made = write_announcements(game=game, phase=phase, state=state, result=result, next_phase=nxt)
        public = [a for a in made if a.kind != Announcement.Kind.PRIVATE]
        diff.after_text = public[0].text if public else ""
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
