"""A close in three statements, on PostgreSQL: the storage step of the clock's closes, in SQL.

1. `LOCK` (`lock`, called by `clock.phase_close_due` and `clock.close_batch`): the phases and their games, the game
   rows locked, in one statement for a whole batch (game row first: the one lock order). Then, for each phase:
2. `READ`: one statement reads what the close resolves from — the snapshot of the phase before, the seats, and the
   open phase's inputs (voided ones left out, each with its stored verdict) — and whether this phase can be closed
   from that snapshot alone (the last phase, every phase before it closed with a snapshot);
3. `WRITE`: one statement of data-modifying CTEs. Its first CTE is the compare-and-set of every close (open → closed
   where the end time has come by the database's clock and the game is running); every other CTE selects `FROM
   closed`, so when the compare-and-set matched no row nothing at all is written: no snapshot, verdict, next phase,
   draft or log row. That is what keeps a close exactly once.

Between the two, the phase is opened from that snapshot as every replay opens it (`closing.opening`), judged
(`closing.judge`) and closed by the one close calculation (`closing.calculate`), the same functions the ORM path
runs (`play.phase_close_locked`); this module only reads their data and writes their rows
(tests/clock/test_clock_batch.py compares the rows of both paths on every scenario). The ORM path stays for SQLite
(the embedded default), for a first night whose default orders must be drawn (O1: they are inputs stored before the
night resolves), and for a game whose snapshots do not reach the open phase: `close` returns None and the caller
takes that path. A batch (`clock.close_batch`) reads statement 2 of all its phases in one round trip (`read_many`),
and WRITE leaves out the CTEs that have nothing to write (`write_statement`).

Every table, column and status value in the statements comes from the models (`sql`: `{phase}` is Phase's table,
`{phase.ends_at}` its column, `{CLOSED}` Phase.Status.CLOSED); every INSERT lists the model's columns (`insert`), and
its rows are sent as JSON, each field's default filled in from the model (`model_rows`), that PostgreSQL maps onto the
table's columns (`jsonb_populate_recordset`): a field added to a model is written here without a change
(tests/clock/test_close_rows.py compares every column with the ORM close's).

The close's statements (LOCK, READ, READ_MANY, WRITE) are prepared once per database session, on generic plans
(`_cursor`; LOCK sets `plan_cache_mode` for the close's transaction): a later close sends their names and values
only, and the server neither parses nor plans them again. CLOCK_CLOSE_PREPARED=false turns that off (a pooler:
docs/scaling.md).

Raw SQL lives here and in the input log's append (`inputlog`), both built by `sqlrows` from the models they write."""

from __future__ import annotations

import json
from datetime import datetime
from functools import cache
from typing import Any

import psycopg
from django.conf import settings
from django.db import connection
from django.utils import timezone

from moderator.models import Announcement, AuditLog, Game, InputVerdict, Phase
from moderator.services import closing
from moderator.services.sqlrows import column_of, dumps, insert, inserted, model_rows, quote, sql

READ = sql("""
SELECT
  (SELECT count(*) FILTER (WHERE q.{phase.status} <> {CLOSED} OR q.{phase.snapshot} = ''
                              OR (q.{phase.starts_at}, q.{phase.id}) > (%(starts)s, %(phase)s))
     FROM {phase} q WHERE q.{phase.game} = %(game)s AND q.{phase.id} <> %(phase)s) AS odd,
  (SELECT q.{phase.snapshot} FROM {phase} q WHERE q.{phase.game} = %(game)s AND q.{phase.id} <> %(phase)s
     ORDER BY q.{phase.starts_at} DESC, q.{phase.id} DESC LIMIT 1) AS snapshot,
  (SELECT json_agg(json_build_array(s.{seat.id}, s.{seat.number}, s.{seat.player_name}, s.{seat.camp},
                                    s.{seat.dealt_hand}) ORDER BY s.{seat.number})
     FROM {seat} s WHERE s.{seat.game} = %(game)s) AS seats,
  (SELECT json_agg(json_build_array(i.{input.id}, i.{input.seat}, i.{input.kind}, i.{input.payload}, i.{input.forum_at},
                                    i.{input.message}, v.{verdict.accepted}, v.{verdict.reason}, v.{verdict.cost})
                   ORDER BY i.{input.forum_at}, i.{input.seq})
     FROM {input} i LEFT JOIN {verdict} v ON v.{verdict.input} = i.{input.id}
     WHERE i.{input.phase} = %(phase)s
       AND NOT EXISTS (SELECT 1 FROM {void} x WHERE x.{void.input} = i.{input.id})) AS inputs
""")

# READ for every phase of a batch in one statement (`read_many`): the same subqueries, one row per phase.
READ_MANY = (
    "SELECT t.phase,"
    + READ.split("SELECT", 1)[1]
    .replace("%(game)s", "t.game")
    .replace("%(phase)s", "t.phase")
    .replace("%(starts)s", "t.starts")
    .rstrip()
    + "\nFROM unnest(%(games)s::bigint[], %(phases)s::bigint[], %(starts)s::timestamptz[]) AS t(game, phase, starts)\n"
)

_UPDATED = ", ".join(f"{column_of(f)} = EXCLUDED.{column_of(f)}" for f in inserted(InputVerdict) if not f.primary_key)


def _each(table: str, key: str) -> str:
    """The rows under `key` of the close's JSON document (its one parameter `model_rows`, parsed once by the
    compare-and-set and returned as `closed.doc`) as rows of the table's type, in their order."""
    return sql(
        f"closed CROSS JOIN jsonb_populate_recordset(NULL::{{{table}}}, closed.doc -> '{key}') WITH ORDINALITY AS r"
    )


_LATENESS = "round(EXTRACT(EPOCH FROM closed.closed_at - closed.ends_at)::numeric, 3)::float8"
WRITE = sql(
    """
WITH closed AS (
  UPDATE {phase} p SET {phase.status} = {CLOSED}, {phase.closed_at} = STATEMENT_TIMESTAMP(),
                       {phase.snapshot} = %(snapshot)s, {phase.result} = doc.d -> 'result'
  FROM {game} g, (SELECT %(rows)s::jsonb AS d) AS doc
  WHERE p.{phase.id} = %(phase)s AND p.{phase.status} = {OPEN}
    AND p.{phase.ends_at} <= COALESCE(%(now)s::timestamptz, STATEMENT_TIMESTAMP())
    AND g.{game.id} = p.{phase.game} AND g.{game.status} = {RUNNING}
  RETURNING p.{phase.closed_at} AS closed_at, p.{phase.ends_at} AS ends_at, doc.d AS doc
), verdicts AS (
  {verdicts_rows}
  ON CONFLICT ({verdict.input}) DO UPDATE SET {updated}
), finished AS (
  UPDATE {game} SET {game.status} = {FINISHED}, {game.winner} = %(winner)s::text
    FROM closed WHERE {game}.{game.id} = %(game)s AND %(winner)s::text <> ''
), next AS (
  {next_rows}
), drafts AS (
  {drafts_rows}
   ORDER BY r.ordinality
), audit AS (
  {audit_rows}
)
SELECT closed_at FROM closed
""",
    updated=_UPDATED,
    verdicts_rows=insert(InputVerdict, _each("verdict", "verdicts")),
    next_rows=insert(Phase, _each("phase", "next")),
    drafts_rows=insert(Announcement, _each("draft", "drafts")),
    audit_rows=insert(
        AuditLog,
        _each("audit", "log"),
        detail=sql("r.{audit.detail} || jsonb_build_object('lateness_s', ") + _LATENESS + ")",
    ),
)


def _cte(name: str) -> str:
    """The text of one CTE of WRITE, from `name AS (` to the comma before the next one."""
    start = WRITE.index(f"{name} AS (")
    return WRITE[start : WRITE.index("\n), ", start) + 4]


@cache
def write_statement(*, verdicts: bool, finished: bool, following: bool) -> str:
    """WRITE without the CTEs that would write nothing (no verdict changed, no winner, no next phase): each left out
    would be run for nothing by PostgreSQL at every close (and planned at every close where CLOCK_CLOSE_PREPARED is
    off). What is written is the same: each CTE dropped here inserts or updates no row in WRITE."""
    statement = WRITE
    for name, kept in (("verdicts", verdicts), ("finished", finished), ("next", following)):
        if not kept:
            statement = statement.replace(_cte(name), "", 1)
    return statement


class _PreparedCursor(psycopg.Cursor):
    """A server-binding cursor that prepares each statement the first time this session sends it: later closes send
    only its name and values, and PostgreSQL neither parses nor (under the close's `plan_cache_mode`, see LOCK) plans
    it again — ≈ 0.3 ms of server time for each of READ and WRITE. Only the close's statements use it."""

    def execute(self, query, params=None, *, prepare=None, binary=None):  # type: ignore[override]
        return super().execute(query, params, prepare=True, binary=binary)


def _cursor():
    """The cursor of a close's statements: a Django cursor (its execute wrappers and query log still see every
    statement) over `_PreparedCursor` on this connection's session, or Django's ordinary client-side binding cursor
    when CLOCK_CLOSE_PREPARED is off (a transaction pooler that cannot keep prepared statements: docs/scaling.md).
    Django opens sessions with prepared statements off (`prepare_threshold` None); a threshold no statement reaches
    leaves every other cursor unprepared (Django's cursors bind on the client and never prepare anyway) and lets
    `prepare=True` prepare the close's."""
    if not settings.CLOCK_CLOSE_PREPARED:
        return connection.cursor()
    connection.ensure_connection()
    session = connection.connection
    if session.prepare_threshold is None:
        session.prepare_threshold = 1 << 30
    return connection._prepare_cursor(_PreparedCursor(session))


def _columns(model) -> tuple[list[str], list[str], list[tuple[int, Any]]]:
    fields = model._meta.concrete_fields
    converters = [(i, f.from_db_value) for i, f in enumerate(fields) if hasattr(f, "from_db_value")]
    return [f.attname for f in fields], [f.column for f in fields], converters


_GAME, _PHASE = _columns(Game), _columns(Phase)
# The first column sets `synchronous_commit` off for this transaction only (`set_config(…, true)` is SET LOCAL): a
# close's COMMIT does not wait for its WAL to reach the disk (docs/scaling.md "A close commits asynchronously"). A
# close is derived from rows already durable (the inputs, the snapshot before); if the database crashes in the
# fraction of a second before the WAL writer flushes it, the phase is still open and overdue after the restart and
# the next sweep closes it again, to the same rows. Any later durable commit that builds on it (a PM of the next
# phase) flushes it first: WAL is written in order. PM confirms and every other write keep the synchronous commit.
# The second sets `plan_cache_mode` for the same transaction: READ and WRITE, prepared (`_cursor`), run on their one
# generic plan from the first close of a session instead of being planned again for each of their first five (every
# plan they can have is the same: look-ups by primary and foreign key).
LOCK = sql(
    "SELECT set_config('synchronous_commit', 'off', true), set_config('plan_cache_mode', 'force_generic_plan', true), "
    "{g}, {p} FROM {phase} p JOIN {game} g ON g.{game.id} = p.{phase.game} "
    "WHERE p.{phase.id} = ANY(%s::bigint[]) ORDER BY p.{phase.game}, p.{phase.id} FOR UPDATE OF g",
    g=", ".join(f"g.{quote(c)}" for c in _GAME[1]),
    p=", ".join(f"p.{quote(c)}" for c in _PHASE[1]),
)


def _instance(model, spec, values: list) -> Any:
    names, _, converters = spec
    for i, convert in converters:
        values[i] = convert(values[i], None, connection)
    return model.from_db(connection.alias, names, values)


def lock(phase_ids: list[int], *, skip_locked: bool = False) -> list[tuple[Game, Phase]]:
    """Statement 1 of a close: these phases and their games, the game rows locked (only they: the one lock order),
    in game order; with `skip_locked` a game another closer holds is left out. The rows `Phase.objects
    .select_related("game").select_for_update(of=("game",))` gives, without compiling that query each time."""
    with _cursor() as cursor:
        cursor.execute(LOCK + (" SKIP LOCKED" if skip_locked else ""), [list(phase_ids)])
        rows = cursor.fetchall()
    n = len(_GAME[0]) + 2  # row[0], row[1]: set_config's answers
    pairs = []
    for row in rows:
        game = _instance(Game, _GAME, list(row[2:n]))
        phase = _instance(Phase, _PHASE, list(row[n:]))
        phase._state.fields_cache["game"] = game
        pairs.append((game, phase))
    return pairs


def read_many(pairs: list[tuple[Game, Phase]]) -> dict[int, tuple]:
    """Statement 2 of every close of a batch in one round trip: READ's row for each of these locked phases, by
    phase id. Each row reads only its own game's rows, which the batch holds locked, so reading them all before the
    first write gives the rows READ would give just before each close (one game per phase: the caller checks)."""
    if not pairs:
        return {}
    with _cursor() as cursor:
        cursor.execute(
            READ_MANY,
            {
                "games": [game.pk for game, _ in pairs],
                "phases": [phase.pk for _, phase in pairs],
                "starts": [phase.starts_at for _, phase in pairs],
            },
        )
        return {row[0]: tuple(row[1:]) for row in cursor.fetchall()}


def usable() -> bool:
    """The three-statement close runs on PostgreSQL unless CLOCK_CLOSE_SQL is off (then every close takes the ORM
    path: the test that both write the same rows turns it off)."""
    return connection.vendor == "postgresql" and getattr(settings, "CLOCK_CLOSE_SQL", True)


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


class _Seat:
    """A seat as the close needs it: what closing.initial_state reads, and its number and id."""

    __slots__ = ("camp", "dealt_hand", "number", "pk", "player_name")

    def __init__(self, row: list):
        self.pk, self.number, self.player_name, self.camp, self.dealt_hand = row


class _Rec:
    """An input of the open phase as the replay judges it (not a model instance: the close reads no more)."""

    __slots__ = ("forum_at", "kind", "message_id", "payload", "pk", "seat_id", "stored")

    def __init__(self, row: list):
        self.pk, self.seat_id, self.kind, self.payload = row[0], row[1], row[2], row[3]
        self.forum_at = datetime.fromisoformat(row[4])
        self.message_id = row[5]
        self.stored = None if row[6] is None else (row[6], row[7], row[8])


def close(game: Game, phase: Phase, now: datetime | None, read: tuple | None = None) -> bool | None:
    """Close `phase` of the locked `game` in two more statements; True if this call closed it, False if there was
    nothing to do (already closed, not due, game not running: nothing written), None if this close must take the
    ORM path (see the module's docstring)."""
    if phase.status != Phase.Status.OPEN or game.status != Game.Status.RUNNING:
        return False  # both read under the game's lock: no writer changes them without it
    if phase.kind == Phase.Kind.NIGHT and phase.number == 1 and not game.hands_are_orders:
        return None  # O1: default orders are drawn (inputs stored) only once the compare-and-set has succeeded
    with _cursor() as cursor:
        if read is None:  # `read`: this phase's row of `read_many`, read with the batch's others
            cursor.execute(READ, {"game": game.pk, "phase": phase.pk, "starts": phase.starts_at})
            read = cursor.fetchone()
        odd, snapshot, seats_json, inputs_json = read
        if odd:
            return None
        seats = [_Seat(row) for row in _json(seats_json) or []]
        state, _ = closing.opening(game, seats, snapshot)  # the replay's start (None: the game's first phase)
        records = [_Rec(row) for row in _json(inputs_json) or []]
        by_seat = {s.pk: s.player_name for s in seats}
        names = {s.number: s.player_name for s in seats}
        state, verdicts = closing.judge(state, phase, records, by_seat=by_seat, names=names)
        closed = closing.calculate(game, phase, state, ((r.pk, r.stored, verdicts[r.pk]) for r in records))
        cursor.execute(*_write(game, closed, now))
        row = cursor.fetchone()
    if row is None:
        return False
    phase.status, phase.closed_at = Phase.Status.CLOSED, row[0]
    phase.snapshot, phase.result = closed.snapshot, closed.result_doc
    if closed.winner:
        game.status, game.winner = Game.Status.FINISHED, closed.winner
    return True


def _write(game: Game, closed: closing.Closed, now: datetime | None) -> tuple[str, dict[str, Any]]:
    """WRITE and its values for this close: every row as the ORM path writes it (`storage.close_store`)."""
    phase, following, now_at = closed.phase, closed.next_phase, timezone.now().isoformat()
    verdicts = [{"input_id": pk, "accepted": a, "reason": why, "cost": cost} for pk, a, why, cost in closed.verdicts]
    nexts = []
    if following is not None:
        kind, number, starts_at, ends_at = following
        times = {"starts_at": starts_at.isoformat(), "ends_at": ends_at.isoformat()}
        nexts.append({"game_id": game.pk, "kind": kind, "number": number, **times})
    drafts = [{"game_id": game.pk, "phase_id": phase.pk, **draft._asdict()} for draft in closed.drafts]
    log = {"game_id": game.pk, "actor_id": None, "action": AuditLog.Action.PHASE_CLOSE.value, "detail": closed.log}
    statement = write_statement(verdicts=bool(verdicts), finished=bool(closed.winner), following=bool(nexts))
    return statement, {
        "game": game.pk,
        "phase": phase.pk,
        "now": now,
        "snapshot": closed.snapshot,
        "winner": closed.winner,
        "rows": dumps(
            {
                "result": closed.result_doc,
                "verdicts": model_rows(InputVerdict, verdicts, now_at),
                "next": model_rows(Phase, nexts, now_at),
                "drafts": model_rows(Announcement, drafts, now_at),
                "log": model_rows(AuditLog, [log], now_at),
            }
        ),
    }
