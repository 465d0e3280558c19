"""Corrections after a close (issue 6): change the stored inputs of a closed phase, re-resolve every phase from the
first one by replaying, show what changes (losses, deaths, tallies, announcements), and apply only on confirmation."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction

from moderator.models import Announcement, AuditLog, Game, Phase, Seat
from moderator.services import play
from moderator.services.announce import write_announcements
from moderator.services.intake import ACTION_KEYS, MODELS
from nights.models import Action
from votes.models import Vote

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


def _apply_edit(game: Game, edit: dict) -> None:
    if edit["op"] == "void":
        rec = MODELS[edit["kind"]].objects.get(pk=edit["id"], game=game)
        rec.status, rec.reason = rec.Status.VOIDED, "天神更正时作废"
        rec.save(update_fields=["status", "reason"])
    elif edit["op"] == "add":
        phase = game.phases.get(pk=edit["phase_id"])
        seat = game.seats.get(pk=edit["seat_id"])
        _add(game, phase, seat, edit["item"], edit["forum_at"])
    else:
        raise play.PlayError(f"不认识的更正操作:{edit['op']}")


def _add(game: Game, phase: Phase, seat: Seat, item: dict, forum_at: datetime) -> None:
    game.input_seq += 1
    game.save(update_fields=["input_seq"])
    common = {"game": game, "phase": phase, "seat": seat, "forum_at": forum_at, "seq": game.input_seq}
    if "for" in item or ("change" in item and "use" not in item):
        target = game.seats.get(player_name=item.get("for") or item["change"])
        Vote.objects.create(**common, target=target, change="for" not in item)
    else:
        fields = {k: item[k] for k in ACTION_KEYS if k in item and k != "target"}
        target = game.seats.get(player_name=item["target"]) if item.get("target") else None
        Action.objects.create(**common, target=target, **{k: (v if v is not None else "") for k, v in fields.items()})


def _resolve(game: Game) -> tuple[list[PhaseDiff], play.Replay]:
    replay = play.game_replay(game)
    diffs = []
    for phase in game.phases.filter(status=Phase.Status.CLOSED).order_by("starts_at"):
        _, result = replay.closed[phase.pk]
        new = play.result_json(result)
        diff = PhaseDiff(phase)
        for key in COMPARED:
            if phase.result.get(key) != new[key]:
                diff.changes.append((LABELS[key], describe(key, phase.result.get(key)), describe(key, new[key])))
        if diff.changes:
            diffs.append(diff)
    return diffs, replay


def _rewrite(game: Game, diffs: list[PhaseDiff], replay: play.Replay) -> None:
    for diff in diffs:
        phase = diff.phase
        state, result = replay.closed[phase.pk]
        old = phase.announcements.exclude(kind=Announcement.Kind.PRIVATE).order_by("-id").first()
        diff.before_text = old.text if old else ""
        phase.result = play.result_json(result)
        phase.save(update_fields=["result"])
        nxt = game.phases.filter(starts_at=phase.ends_at).first()
        made = write_announcements(game=game, phase=phase, state=state, result=result, next_phase=nxt)
        public = [a for a in made if a.kind != Announcement.Kind.PRIVATE]
        diff.after_text = public[0].text if public else ""
    for phase in game.phases.order_by("starts_at"):
        play.verdicts_store(play.phase_inputs(phase), replay)
    winner = replay.state.winner or next((r.winner for _, r in replay.closed.values() if r.winner), None)
    if winner and game.winner != winner:
        game.status, game.winner = Game.Status.FINISHED, winner
        game.save(update_fields=["status", "winner"])


def correction_preview(*, game: Game, edits: list[dict]) -> list[PhaseDiff]:
    """What the correction would change, phase by phase; nothing is kept."""
    diffs: list[PhaseDiff] = []
    try:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game.pk)
            for edit in edits:
                _apply_edit(game, edit)
            diffs, replay = _resolve(game)
            _rewrite(game, diffs, replay)
            raise _Preview
    except _Preview:
        pass
    return diffs


@transaction.atomic
def correction_apply(*, game: Game, edits: list[dict], user=None, reason: str = "") -> list[PhaseDiff]:
    """Apply the correction: the stored results and the announcement drafts of every changed phase are redone."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    for edit in edits:
        _apply_edit(game, edit)
    diffs, replay = _resolve(game)
    _rewrite(game, diffs, replay)
    detail = {
        "edits": [{k: (str(v) if k == "forum_at" else v) for k, v in e.items()} for e in edits],
        "reason": reason,
        "phases": [d.phase.label for d in diffs],
    }
    AuditLog.objects.create(game=game, actor=user, action="更正", detail=detail)
    return diffs
