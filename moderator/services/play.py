"""Playing a game: the close of a phase.

A close is the one close calculation (`closing.calculate`) written by one storage step: `closesql` (SQL statements, on
PostgreSQL, for the clock) or the ORM (`storage.close_store`: SQLite, the closes the SQL leaves to it, and
`phase_close`). The replay and the snapshots live in `storage`, the game lock in `base`, `PlayError` in `errors`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from django.db import transaction

from moderator.game.orders import random_order, seat_seed
from moderator.game.state import GameState, Verdict
from moderator.models import Game, Input, Phase, Seat
from moderator.services import closing, inputlog, versions
from moderator.services.base import game_lock
from moderator.services.storage import (
    Replay,
    close_claim,
    close_store,
    game_replay,
    judged_after,
    stored_verdict,
)


def seat_numbers(game: Game) -> dict[str, int]:
    return dict(game.seats.values_list("player_name", "number"))


def drawn_order(order_seed: int | str, seat: Seat) -> dict:
    """O1: the payload of the order drawn for `seat`: a seeded shuffle of its dealt hand, a privilege card at the bottom,
    from its own seed (derived from the game's recorded order seed). Pure: the same seat always draws the same."""
    seed = seat_seed(order_seed, seat.number)
    return {"order": list(random_order(seat.dealt_hand, seed)), "source": "random", "seed": seed}


def default_orders(
    game: Game, phase: Phase, *, at: datetime, judged: Mapping[int, Verdict] | None = None
) -> list[Input]:
    """O1: the orders the end of night 1 draws, not stored: one for each seat without an accepted order (nor one drawn
    already), in seat order, as the inputs of `phase` sent at `at` (the night's end), numbered after the log's last
    entry. None after night 1, or when the hands were entered in discard order. The same rows a close stores
    (`default_orders_assign`) and an end-early preview judges unsaved (`storage.game_replay(unsaved=…)`). `judged`:
    input id -> its verdict in a replay whose verdicts are not stored (a void's or a correction's preview, replayed
    inside a savepoint rolled back): read instead of the stored ones, as the confirm stores them before the close."""
    if game.hands_are_orders or (phase.kind, phase.number) != (Phase.Kind.NIGHT, 1):
        return []
    judged = judged or {}
    orders = Input.objects.filter(game=game, kind=Input.Kind.ORDER, void__isnull=True).select_related("verdict")
    has_order = {
        rec.seat_id
        for rec in orders
        if rec.payload.get("source") == "random"
        or (judged[rec.pk].accepted if rec.pk in judged else getattr(stored_verdict(rec), "accepted", False))
    }
    missing = [seat for seat in game.seats.order_by("number") if seat.pk not in has_order]
    return [
        Input(
            game=game,
            phase=phase,
            seat=seat,
            kind=Input.Kind.ORDER,
            payload=drawn_order(game.order_seed, seat),
            forum_at=at,
            seq=game.input_seq + 1 + i,
        )
        for i, seat in enumerate(missing)
    ]


def judged_on_time(
    game: Game, phase: Phase, replay: Replay, *, judged: Mapping[int, Verdict] | None = None
) -> tuple[list[Input], GameState]:
    """The open `phase` of `replay` as the clock closes it at its deadline: on night 1 with the orders O1 draws then
    for the seats that sent none (`default_orders` at the phase's end; `judged`: as there), judged after the stored
    inputs (`storage.judged_after`). The orders drawn, and the state to close. What the dashboard, the open phase's
    为什么 and a void's or a correction's preview close."""
    drawn = default_orders(game, phase, at=phase.ends_at, judged=judged)
    return drawn, judged_after(replay, phase, drawn)


def default_orders_assign(*, game: Game, phase: Phase) -> list[Input]:
    """O1: at the 24-hour mark every seat without an accepted order gets its seeded random order (`default_orders`),
    stored at the phase's end as inputs of night 1; the close that follows replays them like any other input. The
    caller holds the game lock."""
    made = default_orders(game, phase, at=phase.ends_at)
    if not made:
        return []
    first = inputlog.seq_reserve(game, len(made))
    for i, rec in enumerate(made):
        rec.seq = first + i
    return Input.objects.bulk_create(made)


def phase_close(*, phase: Phase, now: datetime | None = None) -> bool:
    """Close a phase exactly once: a compare-and-set (open → closed where the end time has come, by the database's
    clock), then resolve from the last snapshot, store this phase's snapshot, open the next phase at the previous end
    time, and write the announcements to the outbox — one transaction. Returns False when there was nothing to do
    (already closed, not due, game not running)."""
    with transaction.atomic():
        return phase_close_locked(game=game_lock(phase.game), phase=phase, now=now)


def phase_close_locked(
    *,
    game: Game,
    phase: Phase,
    now: datetime | None = None,
    logged: bool = False,
    calculated: tuple[Replay, closing.Closed] | None = None,
) -> bool:
    """`phase_close` for a caller that already holds the lock of `game` (the phase's game, the row it locked) in its
    own transaction, as the clock does: no second lock, no savepoint. The close through the ORM: the compare-and-set
    first (O1's default orders are stored only once it has matched), then the replay up to the close, the close
    calculation, and its rows; `logged`: with its log row (the clock's closes). `calculated`: the replay and the close
    the caller calculated under this lock, O1's default orders drawn and stored before it (an early end, whose digest
    it checked): stored as they are."""
    if not close_claim(phase, now):
        return False
    versions.bump_on_commit(game.pk)  # pages: a new version after the commit
    if calculated is not None:
        replay, closed = calculated
        phase.refresh_from_db(fields=["status", "closed_at"])  # as the compare-and-set left it
    else:
        default_orders_assign(game=game, phase=phase)  # O1: at the 24-hour mark, before night 1 resolves
        replay = game_replay(game, closing=phase)
        stored = next(p for p in replay.phases if p.pk == phase.pk)  # read after the compare-and-set: its closed_at
        phase.status, phase.closed_at = stored.status, stored.closed_at
        closed = closing.calculate(game, phase, replay.state, replay.judged())
    close_store(game, replay, closed, logged=logged)
    return True
