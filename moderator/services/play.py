"""Playing a game: inputs in, phases closed. State is never stored as the truth: it is rebuilt by replaying every
input record through the pure engine (moderator.rules), so a correction or an edit re-resolves everything after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Now

from cards.models import DiscardOrder
from cards.orders import random_order
from moderator import rules
from moderator.models import Game, Phase, Seat
from moderator.rules.state import CloseResult, GameState, Verdict
from nights.models import Action
from votes.models import Vote


class PlayError(ValueError):
    """A refused request about play (no open phase, unknown seat …); the message says what would be accepted."""


@dataclass
class Replay:
    state: GameState
    verdicts: dict[tuple[str, int], Verdict] = field(default_factory=dict)
    closed: dict[int, tuple[GameState, CloseResult]] = field(default_factory=dict)  # phase id -> after its close
    records: dict[int, list[Any]] = field(default_factory=dict)  # phase id -> its input records, replay order
    open_events: dict[int, list[dict]] = field(default_factory=dict)  # phase id -> events of its start (arson …)


def _minutes(phase: Phase, at: datetime) -> float:
    """Minutes since the phase began. Forum times are read to the minute, so a message in the minute the phase began
    (a phase ended early starts on the second) counts from its start."""
    return max((at - phase.starts_at).total_seconds() / 60, 0.0) if at >= _minute(phase.starts_at) else -1.0


def _minute(at: datetime) -> datetime:
    return at.replace(second=0, microsecond=0)


def _engine_input(rec: Any, phase: Phase, names: dict[int, str]) -> rules.Action | rules.Vote | rules.Order:
    at = _minutes(phase, rec.forum_at)
    by = names[rec.seat_id]
    if isinstance(rec, Vote):
        target = names[rec.target_id]
        return rules.Vote(by, None if rec.change else target, target if rec.change else None, at, rec.edited)
    if isinstance(rec, DiscardOrder):
        return rules.Order(by, tuple(rec.order), at)
    return rules.Action(
        by=by,
        use=rec.use,
        card=rec.card or None,
        target=names[rec.target_id] if rec.target_id else None,
        position=rec.position,
        into=rec.into or None,
        side=rec.side or None,
        mode=rec.mode or None,
        manifesto=rec.manifesto or None,
        at=at,
        change=rec.change,
    )


def _kind(rec: Any) -> str:
    return {Action: "action", Vote: "vote", DiscardOrder: "order"}[type(rec)]


def phase_inputs(phase: Phase) -> list[Any]:
    """Every input of a phase, in forum-time order, ties in entry order (T3: the forum's time counts)."""
    records: list[Any] = [*Action.objects.filter(phase=phase), *Vote.objects.filter(phase=phase)]
    records += list(DiscardOrder.objects.filter(phase=phase))
    return sorted(records, key=lambda r: (r.forum_at, r.seq))


def game_inputs(game: Game) -> dict[int, list[Any]]:
    """Every input of a game by phase id, each phase's in forum-time order (three queries for the whole game)."""
    by_phase: dict[int, list[Any]] = {}
    for model in (Action, Vote):
        for rec in model.objects.filter(game=game):
            by_phase.setdefault(rec.phase_id, []).append(rec)
    for rec in DiscardOrder.objects.filter(game=game, phase__isnull=False):
        by_phase.setdefault(rec.phase_id, []).append(rec)
    return {pid: sorted(recs, key=lambda r: (r.forum_at, r.seq)) for pid, recs in by_phase.items()}


def initial_state(game: Game, seats: list[Seat]) -> GameState:
    specs = [rules.SeatSpec(s.player_name, s.camp, tuple(s.dealt_hand)) for s in seats]
    return rules.new_game(
        specs,
        ap=game.initial_ap or {},
        start=(game.start_kind, game.start_number),
        phase_minutes=game.phase_seconds // 60,
    )


def game_replay(game: Game) -> Replay:
    """Rebuild the state from the table and every input, phase by phase (voided inputs are skipped)."""
    seats = list(game.seats.order_by("number"))
    names = {s.pk: s.player_name for s in seats}
    replay = Replay(initial_state(game, seats), records=game_inputs(game))
    phases = list(game.phases.order_by("starts_at", "id"))
    for i, phase in enumerate(phases):
        state = replace(replay.state, phase_minutes=_minutes(phase, phase.ends_at))
        for rec in replay.records.get(phase.pk, []):
            if rec.status == rec.Status.VOIDED:
                continue
            state, verdict = rules.submit(state, _engine_input(rec, phase, names))
            replay.verdicts[(_kind(rec), rec.pk)] = verdict
        if phase.status == Phase.Status.CLOSED:
            state, result = rules.close_phase(state)
            replay.closed[phase.pk] = (state, result)
            if i + 1 < len(phases):
                state, events = rules.open_phase(state)
                replay.open_events[phases[i + 1].pk] = events
        replay.state = state
    return replay


def verdicts_store(records: list[Any], replay: Replay) -> None:
    """Keep on each record the verdict the latest replay gave it (one UPDATE per kind of record that changed)."""
    changed: dict[type, list[Any]] = {}
    for rec in records:
        verdict = replay.verdicts.get((_kind(rec), rec.pk))
        if verdict is None or rec.status == rec.Status.VOIDED:
            continue
        status = rec.Status.ACCEPTED if verdict.accepted else rec.Status.REFUSED
        # An accepted input keeps a note it already had (e.g. why an order was drawn, O1); a refusal says why.
        keep = verdict.accepted and not verdict.reason and rec.status == rec.Status.ACCEPTED
        changes = {"status": status, "reason": rec.reason if keep else verdict.reason}
        if isinstance(rec, Action):
            changes["cost"] = verdict.cost
        if any(getattr(rec, k) != v for k, v in changes.items()):
            for k, v in changes.items():
                setattr(rec, k, v)
            changed.setdefault(type(rec), []).append(rec)
    for model, recs in changed.items():
        fields = ["status", "reason", "cost"] if model is Action else ["status", "reason"]
        model.objects.bulk_update(recs, fields)


def open_phase(game: Game) -> Phase:
    phase = game.phases.filter(status=Phase.Status.OPEN).order_by("-starts_at").first()
    if phase is None:
        raise PlayError("这局游戏现在没有进行中的时段")
    return phase


def check_forum_time(phase: Phase, forum_at: datetime) -> None:
    if forum_at < _minute(phase.starts_at):
        raise PlayError(f"这条消息的论坛时间早于{phase.label}开始:它属于已经结束的时段,请用更正功能补录")


def _lock(game: Game) -> Game:
    return Game.objects.select_for_update().get(pk=game.pk)


def _record(model, *, game: Game, seat: Seat, forum_at: datetime, **fields):
    """Store the input (append-only), then replay the game and keep the verdict the rules give it."""
    game = _lock(game)
    phase = open_phase(game)
    check_forum_time(phase, forum_at)
    Game.objects.filter(pk=game.pk).update(input_seq=F("input_seq") + 1)
    game.refresh_from_db(fields=["input_seq"])
    rec = model.objects.create(game=game, phase=phase, seat=seat, forum_at=forum_at, seq=game.input_seq, **fields)
    replay = game_replay(game)
    verdicts_store(replay.records.get(phase.pk, []), replay)
    rec.refresh_from_db()
    return rec, replay.verdicts[(_kind(rec), rec.pk)], replay


@transaction.atomic
def action_submit(*, game: Game, seat: Seat, payload: dict, forum_at: datetime, message=None, entered_by=None):
    """A privilege use (or the S4 stance) in the scenario vocabulary; returns (record, verdict)."""
    target = payload.get("target")
    target_seat = game.seats.filter(player_name=target).first() if target else None
    if target and target_seat is None:
        raise PlayError(f"没有叫“{target}”的玩家")
    rec, verdict, _ = _record(
        Action,
        game=game,
        seat=seat,
        forum_at=forum_at,
        message=message,
        entered_by=entered_by,
        card=payload.get("card") or "",
        use=payload["use"],
        target=target_seat,
        position=payload.get("position"),
        into=payload.get("into") or "",
        side=payload.get("side") or "",
        mode=payload.get("mode") or "",
        manifesto=payload.get("manifesto") or "",
        change=bool(payload.get("change")),
    )
    return rec, verdict


@transaction.atomic
def vote_submit(
    *,
    game: Game,
    seat: Seat,
    target: Seat,
    change: bool,
    forum_at: datetime,
    edited: bool = False,
    message=None,
    entered_by=None,
):
    """A vote post (D1–D3): an original vote or a change post."""
    rec, verdict, _ = _record(
        Vote,
        game=game,
        seat=seat,
        forum_at=forum_at,
        message=message,
        entered_by=entered_by,
        target=target,
        change=change,
        edited=edited,
    )
    return rec, verdict


@transaction.atomic
def order_submit(
    *,
    game: Game,
    seat: Seat,
    order: list[str],
    forum_at: datetime,
    message=None,
    source: str = DiscardOrder.Source.PLAYER,
    seed: int | None = None,
):
    """A discard order (O1–O3): accepted in the first 24 hours or an O3 window, refused otherwise with the reason."""
    rec, verdict, _ = _record(
        DiscardOrder,
        game=game,
        seat=seat,
        forum_at=forum_at,
        message=message,
        order=list(order),
        source=source,
        seed=seed,
    )
    return rec, verdict


def current_order(seat: Seat) -> list[str]:
    """The seat's discard order as the rules hold it now (O1–O3)."""
    return list(game_replay(seat.game).state.seat(seat.player_name).names)


def default_orders_assign(*, game: Game, phase: Phase) -> list[DiscardOrder]:
    """O1: at the 24-hour mark every seat without an accepted order gets a seeded random one whose 底牌 is a privilege
    card (seed derived from the game's recorded order seed: a replay draws the same). Stored at the phase's end, as
    inputs of night 1; the close that follows replays them like any other input and records their verdicts."""
    if game.hands_are_orders:
        return []
    has_order = set(
        DiscardOrder.objects.filter(game=game, status=DiscardOrder.Status.ACCEPTED).values_list("seat_id", flat=True)
    )
    missing = [seat for seat in game.seats.order_by("number") if seat.pk not in has_order]
    if not missing:
        return []
    Game.objects.filter(pk=game.pk).update(input_seq=F("input_seq") + len(missing))
    game.refresh_from_db(fields=["input_seq"])
    first = game.input_seq - len(missing) + 1
    made = [
        DiscardOrder(
            game=game,
            seat=seat,
            phase=phase,
            order=list(random_order(seat.dealt_hand, game.order_seed * 1000 + seat.number)),
            source=DiscardOrder.Source.RANDOM,
            seed=game.order_seed * 1000 + seat.number,
            forum_at=phase.ends_at,
            seq=first + i,
            reason="24 小时内未提交丢牌顺序,系统随机决定(O1)",
        )
        for i, seat in enumerate(missing)
    ]
    return DiscardOrder.objects.bulk_create(made)


def phase_close(*, phase: Phase, now: datetime | None = None) -> bool:
    """Close a phase exactly once: a compare-and-set (open → closed where the end time has come, by the database's
    clock), then resolve, open the next phase at the previous end time, and write the announcements to the outbox —
    one transaction. Returns False when there was nothing to do (already closed, not due, game not running)."""
    from moderator.services.announce import write_announcements

    with transaction.atomic():
        game = _lock(phase.game)  # the game row first, as every input service does: closers queue, never deadlock
        due = Phase.objects.filter(
            pk=phase.pk, status=Phase.Status.OPEN, ends_at__lte=now or Now(), game__status=Game.Status.RUNNING
        )
        if phase.kind == Phase.Kind.NIGHT and phase.number == 1 and due.exists():
            default_orders_assign(game=game, phase=phase)  # O1: at the 24-hour mark, before the night resolves
        if due.update(status=Phase.Status.CLOSED, closed_at=Now()) != 1:  # the database's clock, as the test
            return False
        phase.refresh_from_db()
        replay = game_replay(game)
        verdicts_store(replay.records.get(phase.pk, []), replay)
        state, result = replay.closed[phase.pk]
        phase.result = result_json(result)
        phase.save(update_fields=["result"])
        next_phase = None
        if state.winner:
            game.status, game.winner = Game.Status.FINISHED, state.winner
            game.save(update_fields=["status", "winner"])
        else:
            kind, number = state.phase
            length = timedelta(seconds=game.phase_seconds)
            next_phase = Phase.objects.create(
                game=game, kind=kind, number=number, starts_at=phase.ends_at, ends_at=phase.ends_at + length
            )
        write_announcements(game=game, phase=phase, state=state, result=result, next_phase=next_phase)
    return True


def result_json(result: CloseResult) -> dict:
    return {
        "phase": list(result.phase),
        "lost": result.lost,
        "saved": list(result.saved),
        "executed": list(result.executed),
        "tally": result.tally,
        "died": list(result.died),
        "window": result.window,
        "silence": result.silence,
        "winner": result.winner,
        "events": list(result.events),
    }
