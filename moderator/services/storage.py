"""The game as stored: the replay read from the input log and the snapshots, and what a replay or a close writes.

The truth is the input log (`Input`, append-only) and the table. The state after each closed phase is stored as a
snapshot (`Phase.snapshot`, moderator.rules.codec), so a write replays only the open phase from the last snapshot; a
correction replays from the phase it corrects and rewrites only the snapshots after it. A replay starts where the
close starts (`closing.opening`), judges each phase by `closing.judge`, the close's own replay, and closes each closed
phase again by the close's own resolution (`closing.resolve`).

The close's rows are written here through the ORM (`close_store`), from the one close calculation
(`closing.calculate`); `closesql` writes the same rows in SQL statements on PostgreSQL.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.db.models import BooleanField, Case, ExpressionWrapper, F, Q, Subquery, TextField, Value, When
from django.db.models.functions import Now

from moderator import rules
from moderator.game.state import CloseResult, GameState, Verdict
from moderator.game.trace import Tracer
from moderator.models import Announcement, AuditLog, Game, Input, InputVerdict, Phase, Seat
from moderator.rules import codec
from moderator.selectors import open_phase_of
from moderator.services import audit
from moderator.services.closing import Closed, Stored, judge, opening, resolve, result_json, verdicts_changed
from moderator.services.drafts import Draft
from moderator.services.errors import PlayError

NO_TRACERS: dict[int, tuple[Tracer, Tracer]] = {}  # a replay that explains nothing (never written to)


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

    def judged(self) -> list[tuple[int, Stored, Verdict]]:
        """(input id, its stored verdict, its verdict now) of every input the replay judged."""
        out = []
        for records in self.records.values():
            for rec in records:
                verdict = self.verdicts.get(rec.pk) if rec.pk is not None else None  # unsaved: nothing to store
                if verdict is not None:
                    old = None if rec.pk in self.fresh else stored_verdict(rec)
                    out.append((rec.pk, None if old is None else (old.accepted, old.reason, old.cost), verdict))
        return out


# --- selectors ------------------------------------------------------------------------------------------------------


def require_open_phase(game: Game) -> Phase:
    """The game's open phase (the latest, should there be two), for a verb that needs one: PlayError, saying so, when
    none is open."""
    phase = open_phase_of(game)
    if phase is None:
        raise PlayError("这局游戏现在没有进行中的时段")
    return phase


def voided(rec: Input) -> bool:
    return hasattr(rec, "void")


def stored_verdict(rec: Input) -> InputVerdict | None:
    return getattr(rec, "verdict", None)


# --- the replay -----------------------------------------------------------------------------------------------------


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


def _phases(game: Game) -> list[Phase]:
    """Every phase's row but its snapshot, except the last closed phase's (where a write's replay starts): the other
    snapshots are read only when the replay starts earlier (one more query)."""
    stored = ExpressionWrapper(~Q(snapshot=""), output_field=BooleanField())
    last = game.phases.filter(status=Phase.Status.CLOSED).exclude(snapshot="").order_by("-starts_at", "-id")[:1]
    latest = Case(When(pk=Subquery(last.values("pk")), then=F("snapshot")), default=Value(""), output_field=TextField())
    return list(
        game.phases.defer("snapshot").annotate(has_snapshot=stored, last_snapshot=latest).order_by("starts_at", "id")
    )


def game_replay(
    game: Game,
    *,
    from_phase: Phase | None = None,
    full: bool = False,
    seats: list[Seat] | None = None,
    phases: list[Phase] | None = None,
    tracers: Mapping[int, tuple[Tracer, Tracer]] | None = None,
    closing: Phase | None = None,
    until: Phase | None = None,
    unsaved: Sequence[Input] = (),
) -> Replay:
    """The state now: the snapshot of the last closed phase before the first phase to replay, then every later
    phase's inputs in forum-time order (ties in entry order, T3), voided inputs skipped, and each closed phase closed
    again by the close's own resolution (`closing.resolve`). `from_phase` replays from that phase (a correction);
    `full` from night 1 (a check that snapshots change nothing). A page that has read the seats and phases already
    passes them: the replay then costs one query (the inputs it replays). `tracers`: phase id -> (its opening's
    tracer, its close's tracer), for the phases to explain (services/explain.py). `closing`: the phase a close is
    resolving, replayed up to its close and not closed (`closing.calculate` closes it). `until`: the last phase to
    replay (the why of one closed phase: the phases after it are not closed again). `unsaved`: inputs not in the log,
    judged with their phase's inputs where their forum time and entry number place them, as if stored (the orders O1
    would draw if the 天神 ended night 1 now: the end-early preview); they have no id, so no verdict of theirs is
    kept (`Replay.judged`)."""
    tracers = tracers or NO_TRACERS
    seats = seats if seats is not None else list(game.seats.order_by("number"))
    phases = phases if phases is not None else _phases(game)
    start = 0 if full else _first_to_replay(phases, from_phase)
    replay = _start(game, seats, phases, start, tracers)
    if until is not None:
        replay.phases = phases[: next(i for i, p in enumerate(phases) if p.pk == until.pk) + 1]
    by_seat = {s.pk: s.player_name for s in seats}
    inputs = Input.objects.filter(phase__in=[p.pk for p in replay.replayed]).select_related("void", "verdict")
    for rec in inputs.order_by("forum_at", "seq"):
        replay.records.setdefault(rec.phase_id, []).append(rec)
    for rec in unsaved:
        bisect.insort(replay.records.setdefault(rec.phase_id, []), rec, key=_log_order)
    closing_pk = closing.pk if closing is not None else None
    for i, phase in enumerate(replay.replayed, start):
        records = [r for r in replay.records.get(phase.pk, []) if not voided(r)]
        state, verdicts = judge(replay.state, phase, records, by_seat=by_seat, names=replay.names)
        replay.verdicts.update(verdicts)
        if phase.status == Phase.Status.CLOSED and phase.pk != closing_pk:
            state, result = resolve(state, tracers[phase.pk][1] if phase.pk in tracers else None)
            replay.closed[phase.pk] = (state, result)
            if i + 1 < len(replay.phases):
                after = replay.phases[i + 1].pk
                state, events = rules.open_phase(state, tracers[after][0] if after in tracers else None)
                replay.open_events[after] = events
        replay.state = state
    return replay


def judged_after(replay: Replay, phase: Phase, unsaved: Sequence[Input]) -> GameState:
    """The open `phase` as the replay left it (the stored log), with `unsaved` inputs judged after its stored ones, as
    if stored at its end: the orders O1 draws at the deadline (`play.default_orders` at the phase's end), which the
    close stores there, after every input of the log. A stored input sent after the end is refused (T3) and changes
    nothing, so judging these after it gives the state the close judges. `replay.state` is kept as it is: a page
    shows the game as stored and previews its close from this state."""
    if not unsaved:
        return replay.state
    by_seat = {rec.seat_id: rec.seat.player_name for rec in unsaved}
    return judge(replay.state, phase, unsaved, by_seat=by_seat, names=replay.names)[0]


def _log_order(rec: Input) -> tuple:
    """Where an input stands in the log: by forum time, ties in entry order (T3)."""
    return (rec.forum_at, rec.seq)


def _start(
    game: Game, seats: list[Seat], phases: list[Phase], start: int, tracers: Mapping[int, tuple[Tracer, Tracer]]
) -> Replay:
    """A replay at the opening of `phases[start]` (`closing.opening`), or, when no phase follows the last snapshot
    (a game's final close), at that snapshot."""
    names = {s.number: s.player_name for s in seats}
    snapshot = None
    if start > 0:
        before = phases[start - 1]
        snapshot = getattr(before, "last_snapshot", "") or before.snapshot
    if start == len(phases) and snapshot is not None:
        return Replay(codec.state_load(snapshot), phases, start, names=names)
    first = tracers.get(phases[start].pk, (None, None))[0] if start < len(phases) else None
    state, events = opening(game, seats, snapshot, first)
    replay = Replay(state, phases, start, names=names)
    if start < len(phases):
        replay.open_events[phases[start].pk] = events
    return replay


def _verdicts_store(changed: list[tuple[int, bool, str, int]], records: dict[int, Input] | None = None) -> None:
    """Upsert these verdicts in one statement; `records`: the inputs by id, to keep their verdicts current."""
    rows = [
        InputVerdict(input_id=pk, accepted=accepted, reason=reason, cost=cost) for pk, accepted, reason, cost in changed
    ]
    if records is not None:
        for row in rows:
            records[row.input_id].verdict = row
    if rows:
        InputVerdict.objects.bulk_create(
            rows, update_conflicts=True, unique_fields=["input"], update_fields=["accepted", "reason", "cost"]
        )


def _records(replay: Replay) -> dict[int, Input]:
    return {rec.pk: rec for records in replay.records.values() for rec in records}


def _snapshots_store(replay: Replay, skip: int | None = None) -> None:
    """The snapshot and result of each phase the replay closed (but `skip`)."""
    for phase in replay.replayed:
        if phase.pk in replay.closed and phase.pk != skip:
            state, result = replay.closed[phase.pk]
            phase.snapshot, phase.result = codec.state_dump(state), result_json(result)
            Phase.objects.filter(pk=phase.pk).update(snapshot=phase.snapshot, result=phase.result)


def replay_save(replay: Replay) -> None:
    """Keep what the replay derived: each replayed input's verdict (only those that changed, one statement) and the
    snapshot and result of each phase it closed."""
    changed = verdicts_changed(replay.judged())
    if changed:
        _verdicts_store(changed, _records(replay))
    _snapshots_store(replay)


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


# --- drafts --------------------------------------------------------------------------------------------------------


def announcement(game: Game, phase: Phase, draft: Draft) -> Announcement:
    """The row of a draft (not saved)."""
    return Announcement(game=game, phase=phase, **draft._asdict())


def drafts_store(game: Game, phase: Phase, drafts: list[Draft]) -> list[Announcement]:
    """Rows for these drafts of `phase`, in one INSERT, in their order."""
    return Announcement.objects.bulk_create([announcement(game, phase, draft) for draft in drafts])


# --- a close, through the ORM ---------------------------------------------------------------------------------------


def close_claim(phase: Phase, now=None) -> bool:
    """A close's compare-and-set: open → closed where the end time has come (by the database's clock, as the test)
    and the game is running. False: nothing to do (already closed, not due, game not running)."""
    due = Phase.objects.filter(
        pk=phase.pk, status=Phase.Status.OPEN, ends_at__lte=now or Now(), game__status=Game.Status.RUNNING
    )
    return due.update(status=Phase.Status.CLOSED, closed_at=Now()) == 1


def close_store(game: Game, replay: Replay, closed: Closed, *, logged: bool) -> None:
    """Write a close (`closing.calculate`) through the ORM, after its compare-and-set (`close_claim`): the verdicts that
    changed, the snapshots of the phases the replay closed before it (when theirs were missing) and its own, the end
    of the game or the next phase, the drafts, and (`logged`) its log row."""
    phase = closed.phase
    _verdicts_store(closed.verdicts)
    _snapshots_store(replay, skip=phase.pk)
    phase.snapshot, phase.result = closed.snapshot, closed.result_doc
    Phase.objects.filter(pk=phase.pk).update(snapshot=closed.snapshot, result=closed.result_doc)
    if closed.winner:
        game.status, game.winner = Game.Status.FINISHED, closed.winner
        game.save(update_fields=["status", "winner"])
    elif closed.next_phase is not None:
        kind, number, starts_at, ends_at = closed.next_phase
        Phase.objects.create(game=game, kind=kind, number=number, starts_at=starts_at, ends_at=ends_at)
    drafts_store(game, phase, closed.drafts)
    if logged:
        assert phase.closed_at is not None  # read back after the compare-and-set
        lateness = round((phase.closed_at - phase.ends_at).total_seconds(), 3)
        audit.record(game, None, AuditLog.Action.PHASE_CLOSE, {**closed.log, "lateness_s": lateness})
