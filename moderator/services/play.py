"""Playing a game: inputs in, phases closed.

The truth is the input log (`Input`, append-only) and the table. The state after each closed phase is stored as a
snapshot (`Phase.snapshot`, moderator.rules.codec), so a write replays only the open phase from the last snapshot; a
correction replays from the phase it corrects and rewrites only the snapshots after it.

Lock order (every service, one place): the game row first (`game_lock`), then whatever else. Two writers of one game
queue on it; writers of different games share no lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Protocol

from django.db import connection, transaction
from django.db.models import BooleanField, Case, ExpressionWrapper, F, Q, Subquery, TextField, Value, When
from django.db.models.functions import Now

from moderator import rules
from moderator.game.orders import random_order, seat_seed
from moderator.game.state import CloseResult, GameState, Verdict
from moderator.game.trace import Tracer
from moderator.models import Game, Input, InputVerdict, Phase, Seat
from moderator.rules import codec
from moderator.services import versions

NO_TRACERS: dict[int, tuple[Tracer, Tracer]] = {}  # a replay that explains nothing (never written to)


class SeatDeal(Protocol):
    """What a game's first state needs of a seat: a Seat row, or the close's lighter copy (closesql)."""

    player_name: str
    camp: str
    dealt_hand: list[str]


class PlayError(ValueError):
    """A refused request about play (no open phase, unknown seat …); the message says what would be accepted."""


@dataclass
class Replay:
    """A replay of the phases from `phases[start]` on (earlier ones come from their snapshots)."""

    state: GameState
    phases: list[Phase]
    start: int = 0
    verdicts: dict[int, Verdict] = field(default_factory=dict)  # input id -> verdict (replayed phases)
    closed: dict[int, tuple[GameState, CloseResult]] = field(default_factory=dict)  # phase id -> after its close
    records: dict[int, list[Input]] = field(default_factory=dict)  # phase id -> its inputs, replay order
    open_events: dict[int, list[dict]] = field(default_factory=dict)  # phase id -> events of its start (arson …)
    names: dict[int, str] = field(default_factory=dict)  # seat number -> current name
    fresh: set[int] = field(default_factory=set)  # inputs added after the replay read the log: no verdict stored yet

    @property
    def replayed(self) -> list[Phase]:
        return self.phases[self.start :]


def _minutes(phase: Phase, at: datetime) -> float:
    """Minutes since the phase began. Forum times are read to the minute, so a message in the minute the phase began
    (a phase ended early starts on the second) counts from its start."""
    return max((at - phase.starts_at).total_seconds() / 60, 0.0) if at >= _minute(phase.starts_at) else -1.0


def _minute(at: datetime) -> datetime:
    return at.replace(second=0, microsecond=0)


def phase_length(phase: Phase) -> float:
    """T1, T4, T5: the phase's length in minutes as announced (moved by an extension, never by an early end)."""
    return _minutes(phase, phase.announced_end or phase.ends_at)


def initial_state(game: Game, seats: Sequence[SeatDeal], tracer: Tracer | None = None) -> GameState:
    specs = [rules.SeatSpec(s.player_name, s.camp, tuple(s.dealt_hand)) for s in seats]
    return rules.new_game(
        specs,
        ap=game.initial_ap or {},
        start=(game.start_kind, game.start_number),
        phase_minutes=game.phase_seconds // 60,
        tracer=tracer,
    )


def _stored(phase: Phase) -> bool:
    """Whether the phase has a snapshot, without reading it when the query only said so (`has_snapshot`)."""
    flag = getattr(phase, "has_snapshot", None)
    return bool(phase.snapshot) if flag is None else flag


def _first_to_replay(phases: list[Phase], from_phase: Phase | None) -> int:
    """The first phase without a usable snapshot (the open one, normally), or the corrected one if earlier."""
    start = next((i for i, p in enumerate(phases) if p.status != Phase.Status.CLOSED or not _stored(p)), len(phases))
    if from_phase is not None:
        start = min(start, next(i for i, p in enumerate(phases) if p.pk == from_phase.pk))
    return start


def game_replay(
    game: Game,
    *,
    from_phase: Phase | None = None,
    full: bool = False,
    seats: list[Seat] | None = None,
    phases: list[Phase] | None = None,
    tracers: dict[int, tuple[Tracer, Tracer]] | None = None,
) -> Replay:
    """The state now: the snapshot of the last closed phase before the first phase to replay, then every later
    phase's inputs in forum-time order (ties in entry order, T3), voided inputs skipped. `from_phase` replays from
    that phase (a correction); `full` from night 1 (a check that snapshots change nothing). A page that has read the
    seats and phases already passes them: the replay then costs one query (the inputs it replays). `tracers`: phase
    id -> (its opening's tracer, its close's tracer), for the phases to explain (services/explain.py)."""
    tracers = tracers or NO_TRACERS
    seats = seats if seats is not None else list(game.seats.order_by("number"))
    # Every phase's row but its snapshot, except the last closed phase's (where a write's replay starts): the other
    # snapshots are read only when the replay starts earlier (one more query).
    if phases is None:
        stored = ExpressionWrapper(~Q(snapshot=""), output_field=BooleanField())
        last = game.phases.filter(status=Phase.Status.CLOSED).exclude(snapshot="").order_by("-starts_at", "-id")[:1]
        latest = Case(
            When(pk=Subquery(last.values("pk")), then=F("snapshot")), default=Value(""), output_field=TextField()
        )
        phases = list(
            game.phases.defer("snapshot")
            .annotate(has_snapshot=stored, last_snapshot=latest)
            .order_by("starts_at", "id")
        )
    start = 0 if full else _first_to_replay(phases, from_phase)
    first = tracers.get(phases[start].pk, (None, None))[0] if tracers and start < len(phases) else None
    if start == 0:
        state = initial_state(game, seats, first)
        events: list[dict] = []
    else:
        before = phases[start - 1]
        state, events = codec.state_load(getattr(before, "last_snapshot", "") or before.snapshot), []
        if start < len(phases):  # a phase follows the last snapshot (none follows a game's final close)
            state, events = rules.open_phase(state, first)
    replay = Replay(state, phases, start, names={s.number: s.player_name for s in seats})
    if start < len(phases):
        replay.open_events[phases[start].pk] = events
    by_seat = {s.pk: s.player_name for s in seats}
    inputs = Input.objects.filter(phase__in=[p.pk for p in replay.replayed]).select_related("void", "verdict")
    for rec in inputs.order_by("forum_at", "seq"):
        replay.records.setdefault(rec.phase_id, []).append(rec)
    for i, phase in enumerate(replay.replayed, start):
        state = replace(replay.state, phase_minutes=phase_length(phase))
        for message in _messages(replay.records.get(phase.pk, [])):
            engine_inputs = [
                codec.to_engine(
                    r.kind, r.payload, by=by_seat[r.seat_id], at=_minutes(phase, r.forum_at), names=replay.names
                )
                for r in message
            ]
            state, verdicts = rules.submit_message(state, engine_inputs)  # N-kill: one message, one count
            replay.verdicts.update(zip((r.pk for r in message), verdicts, strict=True))
        if phase.status == Phase.Status.CLOSED:
            state, result = rules.close_phase(state, tracers[phase.pk][1] if phase.pk in tracers else None)
            replay.closed[phase.pk] = (state, result)
            if i + 1 < len(phases):
                after = phases[i + 1].pk
                state, events = rules.open_phase(state, tracers[after][0] if after in tracers else None)
                replay.open_events[phases[i + 1].pk] = events
        replay.state = state
    return replay


def _messages(records: list[Input]) -> list[list[Input]]:
    """The inputs to judge together: consecutive inputs of one stored message (a PM), or one input alone; voided
    inputs are left out."""
    groups: list[list[Input]] = []
    for rec in records:
        if voided(rec):
            continue
        if groups and rec.message_id is not None and groups[-1][-1].message_id == rec.message_id:
            groups[-1].append(rec)
        else:
            groups.append([rec])
    return groups


def voided(rec: Input) -> bool:
    return hasattr(rec, "void")


def stored_verdict(rec: Input) -> InputVerdict | None:
    return getattr(rec, "verdict", None)


def replay_save(replay: Replay) -> None:
    """Keep what the replay derived: each replayed input's verdict (only those that changed, one statement) and the
    snapshot and result of each phase it closed."""
    changed = []
    for records in replay.records.values():
        for rec in records:
            verdict = replay.verdicts.get(rec.pk)
            if verdict is None:
                continue
            old = None if rec.pk in replay.fresh else stored_verdict(rec)
            new = (verdict.accepted, verdict.reason, verdict.cost)
            if old is None or (old.accepted, old.reason, old.cost) != new:
                changed.append(InputVerdict(input=rec, accepted=new[0], reason=new[1], cost=new[2]))
                rec.verdict = changed[-1]
    if changed:
        InputVerdict.objects.bulk_create(
            changed, update_conflicts=True, unique_fields=["input"], update_fields=["accepted", "reason", "cost"]
        )
    for phase in replay.replayed:
        if phase.pk in replay.closed:
            state, result = replay.closed[phase.pk]
            phase.snapshot, phase.result = codec.state_dump(state), result_json(result)
            Phase.objects.filter(pk=phase.pk).update(snapshot=phase.snapshot, result=phase.result)


def open_phase(game: Game) -> Phase:
    phase = game.phases.filter(status=Phase.Status.OPEN).order_by("-starts_at").first()
    if phase is None:
        raise PlayError("这局游戏现在没有进行中的时段")
    return phase


def check_forum_time(phase: Phase, forum_at: datetime) -> None:
    if forum_at < _minute(phase.starts_at):
        raise PlayError(f"这条消息的论坛时间早于{phase.label}开始:它属于已经结束的时段,请用更正功能补录")


def game_lock(game: Game) -> Game:
    """The one lock order: the game row first, always (see the module's docstring). Every writer takes it, so it
    also marks the game's pages as changed when the transaction commits (services.versions, issue 25.4)."""
    versions.bump_on_commit(game.pk)  # pages: a new version after the commit
    return Game.objects.select_for_update().get(pk=game.pk)


def _next_seq(game: Game, n: int = 1) -> int:
    """Reserve `n` entry numbers in one statement (the database adds and returns: safe whatever the caller's copy
    of the row says); returns the first."""
    with connection.cursor() as cursor:
        table = Game._meta.db_table
        cursor.execute(f"UPDATE {table} SET input_seq = input_seq + %s WHERE id = %s RETURNING input_seq", [n, game.pk])
        game.input_seq = cursor.fetchone()[0]
    return game.input_seq - n + 1


def seat_numbers(game: Game) -> dict[str, int]:
    return dict(game.seats.values_list("player_name", "number"))


def default_orders_assign(*, game: Game, phase: Phase) -> list[Input]:
    """O1: at the 24-hour mark every seat without an accepted order gets a seeded random one whose 底牌 is a privilege
    card (seed derived from the game's recorded order seed: a replay draws the same). Stored at the phase's end, as
    inputs of night 1; the close that follows replays them like any other input."""
    if game.hands_are_orders:
        return []
    orders = Input.objects.filter(game=game, kind=Input.Kind.ORDER, void__isnull=True)
    drawn_or_accepted = orders.filter(Q(verdict__accepted=True) | Q(payload__source="random"))
    has_order = set(drawn_or_accepted.values_list("seat_id", flat=True))
    missing = [seat for seat in game.seats.order_by("number") if seat.pk not in has_order]
    if not missing:
        return []
    first = _next_seq(game, len(missing))
    made = []
    for i, seat in enumerate(missing):
        seed = seat_seed(game.order_seed, seat.number)
        payload = {"order": list(random_order(seat.dealt_hand, seed)), "source": "random", "seed": seed}
        made.append(
            Input(
                game=game,
                phase=phase,
                seat=seat,
                kind=Input.Kind.ORDER,
                payload=payload,
                forum_at=phase.ends_at,
                seq=first + i,
            )
        )
    return Input.objects.bulk_create(made)


def phase_close(*, phase: Phase, now: datetime | None = None) -> bool:
    """Close a phase exactly once: a compare-and-set (open → closed where the end time has come, by the database's
    clock), then resolve from the last snapshot, store this phase's snapshot, open the next phase at the previous end
    time, and write the announcements to the outbox — one transaction. Returns False when there was nothing to do
    (already closed, not due, game not running)."""
    with transaction.atomic():
        return phase_close_locked(game=game_lock(phase.game), phase=phase, now=now)


def phase_close_locked(*, game: Game, phase: Phase, now: datetime | None = None) -> bool:
    """`phase_close` for a caller that already holds the lock of `game` (the phase's game, the row it locked) in its
    own transaction, as the clock does: no second lock, no savepoint. The compare-and-set is the same."""
    from moderator.services.announce import write_announcements

    due = Phase.objects.filter(
        pk=phase.pk, status=Phase.Status.OPEN, ends_at__lte=now or Now(), game__status=Game.Status.RUNNING
    )
    if due.update(status=Phase.Status.CLOSED, closed_at=Now()) != 1:  # the database's clock, as the test
        return False
    versions.bump_on_commit(game.pk)  # pages: a new version after the commit (issue 25.4)
    if phase.kind == Phase.Kind.NIGHT and phase.number == 1:
        default_orders_assign(game=game, phase=phase)  # O1: at the 24-hour mark, before the night resolves
    replay = game_replay(game)
    stored = next(p for p in replay.phases if p.pk == phase.pk)  # read after the update: its closed_at
    phase.status, phase.closed_at = stored.status, stored.closed_at
    replay_save(replay)
    state, result = replay.closed[phase.pk]
    phase.result = result_json(result)
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


def closed_states(game: Game, phases: list[Phase], seats: list[Seat] | None = None) -> dict[int, GameState]:
    """The state after each closed phase, from its snapshot (a game stored before snapshots is replayed whole)."""
    if all(p.snapshot for p in phases if p.status == Phase.Status.CLOSED):
        return {p.pk: codec.state_load(p.snapshot) for p in phases if p.status == Phase.Status.CLOSED}
    replay = game_replay(game, full=True, seats=seats, phases=phases)
    return {pk: closed[0] for pk, closed in replay.closed.items()}


def snapshots_rebuild(game: Game) -> Replay:
    """Replay the whole game and store every snapshot and verdict again (after a substitution renames a seat, S5, or
    an import). The caller holds the game lock."""
    replay = game_replay(game, full=True)
    replay_save(replay)
    return replay
