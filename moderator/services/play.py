"""Playing a game: the close of a phase, and the names the other verbs take from the floors below.

A close is the one close calculation (`resolve.close`) written by one storage step: `closesql` (SQL statements, on
PostgreSQL, for the clock) or the ORM (`storage.close_store`: SQLite, the closes the SQL leaves to it, and
`phase_close`). The replay and the snapshots live in `storage`, the game lock in `base`, `PlayError` in `errors`.
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection, transaction
from django.db.models import Q

from moderator import rules
from moderator.game.orders import random_order, seat_seed
from moderator.game.state import Verdict
from moderator.models import Game, Input, Phase, Seat
from moderator.rules import codec
from moderator.services import resolve, versions
from moderator.services.base import game_lock
from moderator.services.errors import PlayError
from moderator.services.resolve import check_forum_time, initial_state, phase_length, result_json
from moderator.services.resolve import minutes_into as _minutes
from moderator.services.storage import (
    Replay,
    close_claim,
    close_store,
    closed_states,
    game_replay,
    replay_save,
    require_open_phase,
    snapshots_rebuild,
    stored_verdict,
    voided,
)

__all__ = [  # what the other verbs and the pages take from here (the floors below define most of it)
    "PlayError",
    "Replay",
    "_minutes",
    "_next_seq",
    "check_forum_time",
    "closed_states",
    "default_orders_assign",
    "game_lock",
    "game_replay",
    "initial_state",
    "phase_close",
    "phase_close_locked",
    "phase_length",
    "replay_save",
    "require_open_phase",
    "result_json",
    "seat_numbers",
    "snapshots_rebuild",
    "stored_verdict",
    "voided",
]


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


def input_add(
    *, game: Game, phase: Phase, seat: Seat, item: dict, forum_at: datetime, message=None, entered_by=None
) -> Input:
    """Append one input to the log (the caller holds the game lock and replays). Unknown players are refused."""
    return inputs_add(
        game=game, phase=phase, seat=seat, items=[item], forum_at=forum_at, message=message, entered_by=entered_by
    )[0]


def inputs_add(
    *,
    game: Game,
    phase: Phase,
    seat: Seat,
    items: list[dict],
    forum_at: datetime,
    message=None,
    entered_by=None,
    seat_of: dict[str, int] | None = None,
) -> list[Input]:
    """Append the inputs of one message to the log, in one insert (the caller holds the game lock and replays).
    Unknown players are refused before anything is written."""
    seat_of = seat_of if seat_of is not None else seat_numbers(game)
    try:
        encoded = [codec.encode(item, seat_of) for item in items]
    except codec.CodecError as exc:
        raise PlayError(str(exc)) from exc
    if not encoded:
        return []
    if connection.vendor == "postgresql":  # the entry numbers and the rows in one statement
        from moderator.services import closesql

        kw = {"forum_at": forum_at, "message": message, "entered_by": entered_by}
        return closesql.inputs_insert(game=game, phase=phase, seat=seat, encoded=encoded, **kw)
    first = _next_seq(game, len(encoded))
    common = {"game": game, "phase": phase, "seat": seat, "forum_at": forum_at, "message": message}
    recs = [
        Input(**common, kind=kind, payload=payload, seq=first + i, entered_by=entered_by)
        for i, (kind, payload) in enumerate(encoded)
    ]
    return Input.objects.bulk_create(recs)


@transaction.atomic
def inputs_submit(
    *,
    game: Game,
    seat: Seat,
    items: list[dict],
    forum_at: datetime,
    message=None,
    entered_by=None,
    once=None,
    replay: Replay | None = None,
    seen: str | None = None,
    dry_run: bool = False,
    context: list[str] | None = None,
) -> list[tuple[Input, Verdict]]:
    """The inputs of one message of the open phase, in the codec's vocabulary (actions, vote posts, discard
    orders, a pass), stored and judged. A message sent at or after every input already entered for the phase (the
    usual case) is judged by continuing the open phase's replay — `replay`, if the caller made one under this lock,
    or one replay from the last snapshot; a message entered out of forum order replays the phase again, since it
    may change the verdicts after it (T3, AP4, N-kill). A repeated or stale submit (`once`) stores nothing.

    Nothing changes a verdict the 天神 has not seen: `seen` is the `verdicts.Outcome.digest` the 天神 was shown, or "" when
    nothing was shown (a form without a preview) — then the write is refused (`verdicts.NotAsSeen`, nothing stored) if the
    outcome differs, or ("") if any other input's verdict would change. None checks nothing (scenarios, commands).
    `dry_run` stores nothing and raises `DryRun` with the outcome. `context`: what the message is besides its inputs
    (`verdicts.message_context`), part of the digest."""
    game = game_lock(game)
    if once is not None:
        from moderator.services.once import spend

        spend(game, once, "录入输入")
    return inputs_submit_locked(
        game=game,
        seat=seat,
        items=items,
        forum_at=forum_at,
        message=message,
        entered_by=entered_by,
        replay=replay,
        seen=seen,
        dry_run=dry_run,
        context=context,
    )


def inputs_submit_locked(
    *,
    game: Game,
    seat: Seat,
    items: list[dict],
    forum_at: datetime,
    message=None,
    entered_by=None,
    replay: Replay | None = None,
    seen: str | None = None,
    dry_run: bool = False,
    context: list[str] | None = None,
) -> list[tuple[Input, Verdict]]:
    """`inputs_submit` for a caller that already holds the game lock (`game` is the row it locked) in its own
    transaction, as intake.pm_confirm does: no second lock, no savepoint. Raises before writing anything else."""
    if game.status == Game.Status.FINISHED:  # V4: a declared draw ends the game with its phase still open
        raise PlayError(f"这局游戏已经结束({game.winner}),不再接受输入")
    from moderator.services.verdicts import DryRun, Outcome, check_seen, later_inputs, verdict_changes

    replay = replay if replay is not None else game_replay(game)
    phase = next((p for p in reversed(replay.phases) if p.status == Phase.Status.OPEN), None)
    if phase is None:
        raise PlayError("这局游戏现在没有进行中的时段")
    check_forum_time(phase, forum_at)
    earlier = replay.records.setdefault(phase.pk, [])
    in_order = all(r.forum_at <= forum_at for r in earlier)
    seat_of = {name: number for number, name in replay.names.items()}
    recs = inputs_add(
        game=game,
        phase=phase,
        seat=seat,
        items=items,
        forum_at=forum_at,
        message=message,
        entered_by=entered_by,
        seat_of=seat_of,
    )
    if in_order:
        at, by = _minutes(phase, forum_at), seat.player_name
        inputs = [codec.to_engine(r.kind, r.payload, by=by, at=at, names=replay.names) for r in recs]
        replay.state, verdicts = rules.submit_message(replay.state, inputs)
        earlier.extend(recs)
        replay.fresh.update(r.pk for r in recs)
        replay.verdicts.update(zip((r.pk for r in recs), verdicts, strict=True))
        outcome = Outcome(verdicts)
    else:
        before, replay = replay, game_replay(game)
        new = frozenset(r.pk for r in recs)
        changes = verdict_changes(before, replay, phase.pk, skip=new)
        outcome = Outcome([replay.verdicts[r.pk] for r in recs], changes, later_inputs(before, phase, forum_at))
    outcome.what = [codec.describe(r.kind, r.payload, replay.names) for r in recs]
    outcome.context = list(context or [])
    if dry_run:
        raise DryRun(outcome)
    check_seen(outcome, seen)
    replay_save(replay)
    return [(rec, replay.verdicts[rec.pk]) for rec in recs]


def input_submit(
    *,
    game: Game,
    seat: Seat,
    item: dict,
    forum_at: datetime,
    message=None,
    entered_by=None,
    once=None,
    seen: str | None = None,
    dry_run: bool = False,
) -> tuple[Input, Verdict]:
    """One input of the open phase: `inputs_submit` with one item."""
    kw = {"message": message, "entered_by": entered_by, "once": once, "seen": seen, "dry_run": dry_run}
    return inputs_submit(game=game, seat=seat, items=[item], forum_at=forum_at, **kw)[0]


def action_submit(*, game: Game, seat: Seat, payload: dict, forum_at: datetime, message=None, entered_by=None):
    """A privilege use (or the S4 stance) in the scenario vocabulary; returns (record, verdict)."""
    return input_submit(game=game, seat=seat, item=payload, forum_at=forum_at, message=message, entered_by=entered_by)


def vote_submit(
    *, game: Game, seat: Seat, target: Seat | None, change: bool, forum_at: datetime, edited: bool = False, **kw
):
    """A vote post (D1–D3): an original vote or a change post; an edited post without a target: the original target
    cannot be known (D3)."""
    item = {("change" if change else "for"): target.player_name, "edited": edited} if target else {"edited": True}
    return input_submit(game=game, seat=seat, item=item, forum_at=forum_at, **kw)


def order_submit(*, game: Game, seat: Seat, order: list[str], forum_at: datetime, message=None):
    """A discard order (O1–O3): accepted in the first 24 hours or an O3 window, refused otherwise with the reason."""
    return input_submit(game=game, seat=seat, item={"order": list(order)}, forum_at=forum_at, message=message)


def current_order(seat: Seat) -> list[str]:
    """The seat's discard order as the rules hold it now (O1–O3)."""
    return list(game_replay(seat.game).state.seat(seat.player_name).names)


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


def phase_close_locked(*, game: Game, phase: Phase, now: datetime | None = None, logged: bool = False) -> bool:
    """`phase_close` for a caller that already holds the lock of `game` (the phase's game, the row it locked) in its
    own transaction, as the clock does: no second lock, no savepoint. The close through the ORM: the compare-and-set
    first (O1's default orders are stored only once it has matched), then the replay up to the close, the close
    calculation, and its rows; `logged`: with its log row (the clock's closes)."""
    if not close_claim(phase, now):
        return False
    versions.bump_on_commit(game.pk)  # pages: a new version after the commit
    if phase.kind == Phase.Kind.NIGHT and phase.number == 1:
        default_orders_assign(game=game, phase=phase)  # O1: at the 24-hour mark, before the night resolves
    replay = game_replay(game, closing=phase)
    stored = next(p for p in replay.phases if p.pk == phase.pk)  # read after the compare-and-set: its closed_at
    phase.status, phase.closed_at = stored.status, stored.closed_at
    closed = resolve.close(game, phase, replay.state, replay.judged())
    close_store(game, replay, closed, logged=logged)
    return True
