"""The input log's append: the game's next entry numbers (`Game.input_seq`) reserved and the new `Input` rows inserted,
unjudged. Every input the site stores — an entry of the open phase (`inputs.store`), O1's default orders
(`play.default_orders_assign`) — is numbered here; on PostgreSQL an entry's numbers and rows go in one statement."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import connection
from django.utils import timezone

from moderator.models import Game, Input, Phase, Seat
from moderator.services.sqlrows import dumps, insert, model_rows, sql

_RESERVE = sql(
    "UPDATE {game} SET {game.input_seq} = {game.input_seq} + %s WHERE {game.id} = %s RETURNING {game.input_seq}"
)


def seq_reserve(game: Game, n: int = 1) -> int:
    """Reserve `n` entry numbers in one statement (the database adds and returns: safe whatever the caller's copy of
    the row says); returns the first."""
    with connection.cursor() as cursor:
        cursor.execute(_RESERVE, [n, game.pk])
        game.input_seq = cursor.fetchone()[0]
    return game.input_seq - n + 1


def append(
    *, game: Game, phase: Phase, seat: Seat, encoded: list[tuple[str, Any]], forum_at: datetime, message, entered_by
) -> list[Input]:
    """One entry's inputs (codec-encoded `(kind, payload)` pairs) appended to the log of `phase`, numbered in order."""
    if not encoded:
        return []
    if connection.vendor == "postgresql":
        return _append_sql(
            game=game,
            phase=phase,
            seat=seat,
            encoded=encoded,
            forum_at=forum_at,
            message=message,
            entered_by=entered_by,
        )
    first = seq_reserve(game, len(encoded))
    common = {"game": game, "phase": phase, "seat": seat, "forum_at": forum_at, "message": message}
    recs = [
        Input(**common, kind=kind, payload=payload, seq=first + i, entered_by=entered_by)
        for i, (kind, payload) in enumerate(encoded)
    ]
    return Input.objects.bulk_create(recs)


_APPEND = sql(
    """
WITH seq AS (
  UPDATE {game} SET {game.input_seq} = {game.input_seq} + %(n)s WHERE {game.id} = %(game)s
  RETURNING {game.input_seq} - %(n)s AS base
)
{insert}
 ORDER BY r.ordinality
RETURNING {input.id}, {input.seq}
""",
    insert=insert(
        Input,
        "seq CROSS JOIN jsonb_populate_recordset(NULL::" + sql("{input}") + ", %(items)s::jsonb) WITH ORDINALITY AS r",
        seq="seq.base + r.ordinality",
    ),
)


def _append_sql(
    *, game: Game, phase: Phase, seat: Seat, encoded: list[tuple[str, Any]], forum_at: datetime, message, entered_by
) -> list[Input]:
    """The append on PostgreSQL: the entry numbers reserved and the inputs inserted in one statement (a PM confirm: one
    round trip fewer). The rows are those `seq_reserve` and `bulk_create` write."""
    at = timezone.now()
    ids = {"game_id": game.pk, "phase_id": phase.pk, "seat_id": seat.pk, "message_id": getattr(message, "pk", None)}
    common = {**ids, "forum_at": forum_at.isoformat(), "seq": 0, "entered_by_id": getattr(entered_by, "pk", None)}
    rows = dumps(
        model_rows(Input, [{**common, "kind": kind, "payload": payload} for kind, payload in encoded], at.isoformat())
    )
    with connection.cursor() as cursor:
        cursor.execute(_APPEND, {"n": len(encoded), "game": game.pk, "items": rows})
        ids_of = dict((seq, pk) for pk, seq in cursor.fetchall())
    first = min(ids_of)
    game.input_seq = first + len(encoded) - 1
    common = {"game": game, "phase": phase, "seat": seat, "forum_at": forum_at, "message": message}
    return [
        Input(
            **common,
            id=ids_of[first + i],
            kind=kind,
            payload=payload,
            seq=first + i,
            entered_at=at,
            entered_by=entered_by,
        )
        for i, (kind, payload) in enumerate(encoded)
    ]
