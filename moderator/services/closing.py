"""A phase resolved from data, without the database: its inputs judged, and the one close calculation.

`opening` is where every replay starts: the game's first state, or the snapshot of the phase before, the phase
opened. `judge` replays one phase: its inputs in forum-time order (ties in entry order, T3), the consecutive inputs
of one stored message judged together (N-kill: one message, one count). Every replay uses both (`storage.game_replay`,
for each phase it replays) and so does the close (`closesql.close`).

`resolve` is the engine's close of the judged phase, and the only code of the services that asks the engine for one:
the live close, a preview, a replay's close of a phase already closed (a correction, an import, the why), a digest.
`calculate` is the one close calculation built on it: the resolution and everything derived from it — the state's
snapshot and the result as stored, the verdicts that changed, the phase it opens (`next_phase_of`, the one
next-phase rule), the drafts of its announcements, its log row, and whether the game ends. A storage step only writes
it: `closesql.close` in SQL statements on PostgreSQL, `storage.close_store` through the ORM (SQLite, and the closes
the SQL statements leave to it). A replay that closed a phase again redrafts it with `redrafts`: the same drafts
from the same next phase.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple, Protocol

from moderator import rules
from moderator.game.state import CloseResult, GameState, Verdict, evolve
from moderator.game.trace import Tracer
from moderator.models import Game, Phase, phase_label
from moderator.rules import codec
from moderator.services.drafts import Draft, close_drafts
from moderator.services.errors import PlayError


class SeatDeal(Protocol):
    """What a game's first state needs of a seat: a Seat row, or the close's lighter copy (closesql)."""

    player_name: str
    camp: str
    dealt_hand: list[str]


class Record(Protocol):
    """An input as a replay judges it: an `Input` row, or the close's lighter copy (closesql)."""

    pk: Any
    seat_id: Any
    kind: str
    payload: Any
    forum_at: datetime
    message_id: Any


# A stored verdict as compared: (accepted, reason, cost), None when none is stored yet.
Stored = tuple[bool, str, int] | None


def minute(at: datetime) -> datetime:
    return at.replace(second=0, microsecond=0)


def minutes_into(phase: Phase, at: datetime) -> float:
    """Minutes since the phase began. Forum times are read to the minute, so a message in the minute the phase began
    (a phase ended early starts on the second) counts from its start."""
    return max((at - phase.starts_at).total_seconds() / 60, 0.0) if at >= minute(phase.starts_at) else -1.0


def check_forum_time(phase: Phase, forum_at: datetime) -> None:
    """A message of this phase is not older than its start (to the minute): an older one belongs to a closed phase."""
    if forum_at < minute(phase.starts_at):
        raise PlayError(f"这条消息的论坛时间早于{phase.label}开始:它属于已经结束的时段,请用更正功能补录")


def phase_length(phase: Phase) -> float:
    """T1, T4, T5: the phase's length in minutes as announced (moved by an extension, never by an early end)."""
    return minutes_into(phase, phase.announced_end or phase.ends_at)


def initial_state(game: Game, seats: Sequence[SeatDeal], tracer: Tracer | None = None) -> GameState:
    specs = [rules.SeatSpec(s.player_name, s.camp, tuple(s.dealt_hand)) for s in seats]
    return rules.start_game(
        specs,
        ap=game.initial_ap or {},
        start=(game.start_kind, game.start_number),
        phase_minutes=game.phase_seconds // 60,
        tracer=tracer,
    )


def opening(
    game: Game, seats: Sequence[SeatDeal], snapshot: str | None, tracer: Tracer | None = None
) -> tuple[GameState, list[dict]]:
    """The state a replay starts from and the events of that start (arsons …): the game's first state when no phase
    was closed before (`snapshot` None), else the state stored after the phase before (`Phase.snapshot`), the next
    phase opened. `tracer`: told the opening's steps (AP1, AP3, N14)."""
    if snapshot is None:
        return initial_state(game, seats, tracer), []
    return rules.open_phase(codec.state_load(snapshot), tracer)


def messages(records: Iterable[Record]) -> list[list[Record]]:
    """The inputs to judge together: consecutive inputs of one stored message (a PM), or one input alone. The
    records are those to judge (a voided input is left out by the caller)."""
    groups: list[list[Record]] = []
    for rec in records:
        if groups and rec.message_id is not None and groups[-1][-1].message_id == rec.message_id:
            groups[-1].append(rec)
        else:
            groups.append([rec])
    return groups


def judge(
    state: GameState, phase: Phase, records: Iterable[Record], *, by_seat: Mapping[Any, str], names: Mapping[int, str]
) -> tuple[GameState, dict[Any, Verdict]]:
    """The phase's inputs judged, from `state` at its opening: the state before its close, and each input's verdict
    by id. `by_seat`: seat id -> the name it plays under; `names`: seat number -> name (the codec's)."""
    state = evolve(state, phase_minutes=phase_length(phase))
    verdicts: dict[Any, Verdict] = {}
    for message in messages(records):
        inputs = [
            codec.to_engine(r.kind, r.payload, by=by_seat[r.seat_id], at=minutes_into(phase, r.forum_at), names=names)
            for r in message
        ]
        state, judged = rules.submit_message(state, inputs)  # N-kill: one message, one count
        verdicts.update(zip((r.pk for r in message), judged, strict=True))
    return state, verdicts


def verdicts_changed(judged: Iterable[tuple[Any, Stored, Verdict]]) -> list[tuple[Any, bool, str, int]]:
    """(input id, accepted, reason, cost) of each verdict to store: those that differ from the one stored."""
    changed = []
    for pk, stored, verdict in judged:
        new = (verdict.accepted, verdict.reason, verdict.cost)
        if stored != new:
            changed.append((pk, *new))
    return changed


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


class NextPhase(NamedTuple):
    """The phase a close opens, as its row is written and its drafts read it."""

    kind: str
    number: int
    starts_at: datetime
    ends_at: datetime

    @property
    def label(self) -> str:
        return phase_label(self.kind, self.number)


@dataclass
class Closed:
    """Everything a close writes, computed once (`calculate`)."""

    phase: Phase
    state: GameState  # after the close
    result: CloseResult
    result_doc: dict  # Phase.result
    snapshot: str  # Phase.snapshot
    verdicts: list[tuple[Any, bool, str, int]]  # the verdicts that changed: (input id, accepted, reason, cost)
    winner: str  # "" while the game goes on; else the game ends (Game.winner)
    next_phase: NextPhase | None  # None when the game ends
    drafts: list[Draft]  # the announcements' drafts, in their order
    log: dict  # the close's log row (AuditLog.Action.PHASE_CLOSE) but its lateness: the closing statement's clock gives that

    @property
    def post(self) -> Draft:
        """The public post: dawn after a night, dusk after a day (the first draft)."""
        return self.drafts[0]


def resolve(state: GameState, tracer: Tracer | None = None) -> tuple[GameState, CloseResult]:
    """The engine's close of the open phase of `state` (a night or a day resolved): the state after it and its
    result. `tracer`: told every step with its clause (the why), the same close."""
    return rules.end_phase(state, tracer)


def next_phase_of(game: Game, after: GameState, starts_at: datetime) -> NextPhase | None:
    """The one next-phase rule: the phase the engine opened after a close (`after`), starting when the closed phase
    ended and lasting the game's phase length; None when the close ended the game."""
    if after.winner:
        return None
    kind, number = after.phase
    return NextPhase(kind, number, starts_at, starts_at + timedelta(seconds=game.phase_seconds))


def redrafts(
    game: Game, phase: Phase, after: GameState, result: CloseResult, *, announced_end: datetime | None = None
) -> list[Draft]:
    """The drafts of a close a replay made again (a correction, an import): the live close's drafts (`calculate`),
    word for word — the next phase as the close opened it (`next_phase_of`), except its deadline when one has been
    announced since (`announced_end`: a substitution's 12 hours, T4), so that a corrected post never states a
    deadline that no longer holds (T5: the announced end is the reference)."""
    next_phase = next_phase_of(game, after, phase.ends_at)
    if next_phase is not None and announced_end is not None:
        next_phase = next_phase._replace(ends_at=announced_end)
    return close_drafts(game=game, phase=phase, state=after, result=result, next_phase=next_phase)


def calculate(
    game: Game,
    phase: Phase,
    state: GameState,
    judged: Iterable[tuple[Any, Stored, Verdict]] = (),
    *,
    ends_at: datetime | None = None,
    tracer: Tracer | None = None,
) -> Closed:
    """The one close calculation: `phase` of `game` resolved from `state` (its inputs judged: `judge`), and every row
    the close writes derived from that. `judged`: (input id, the stored verdict, the verdict now) of each input the
    replay judged, for the verdicts to store. `ends_at`: when the phase ends, if not at its deadline (a preview of
    an early end, T5). `tracer`: told every step of this close (the why of a preview is this close's own steps)."""
    state, result = resolve(state, tracer)
    next_phase = next_phase_of(game, state, ends_at or phase.ends_at)
    return Closed(
        phase=phase,
        state=state,
        result=result,
        result_doc=result_json(result),
        snapshot=codec.state_dump(state),
        verdicts=verdicts_changed(judged),
        winner=state.winner or "",
        next_phase=next_phase,
        drafts=close_drafts(game=game, phase=phase, state=state, result=result, next_phase=next_phase),
        log={"phase": phase.label, "ends_at": phase.ends_at.isoformat()},
    )
