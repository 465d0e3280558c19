"""Playing a game: the close of a phase.

A close is the one close calculation (`closing.calculate`) written by one storage step: `closesql` (SQL statements, on
PostgreSQL, for the clock) or the ORM (`storage.close_store`: SQLite, the closes the SQL leaves to it, and
`phase_close`). The replay and the snapshots live in `storage`, the game lock in `base`, `PlayError` in `errors`.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q

from moderator.game.orders import random_order, seat_seed
from moderator.models import Game, Input, Phase
from moderator.services import closing, inputlog, versions
from moderator.services.base import game_lock
from moderator.services.storage import (
    Replay,
    close_claim,
    close_store,
    game_replay,
)


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
    first = inputlog.seq_reserve(game, len(missing))
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
    the caller calculated under this lock (an early end, whose digest it checked): stored as they are, unless O1
    draws default orders now, which the close then replays."""
    if not close_claim(phase, now):
        return False
    versions.bump_on_commit(game.pk)  # pages: a new version after the commit
    drawn = []
    if phase.kind == Phase.Kind.NIGHT and phase.number == 1:
        drawn = default_orders_assign(game=game, phase=phase)  # O1: at the 24-hour mark, before the night resolves
    if calculated is not None and not drawn:
        replay, closed = calculated
        phase.refresh_from_db(fields=["status", "closed_at"])  # as the compare-and-set left it
    else:
        replay = game_replay(game, closing=phase)
        stored = next(p for p in replay.phases if p.pk == phase.pk)  # read after the compare-and-set: its closed_at
        phase.status, phase.closed_at = stored.status, stored.closed_at
        closed = closing.calculate(game, phase, replay.state, replay.judged())
    close_store(game, replay, closed, logged=logged)
    return True
