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

Between the two, the phase is judged (`resolve.judge`) and closed by the one close calculation (`resolve.close`), the
same functions the ORM path runs (`play.phase_close_locked`); this module only reads their data and writes their rows
(tests/clock/test_clock_batch.py compares the rows of both paths on every scenario). The ORM path stays for SQLite
(the embedded default), for a first night whose default orders must be drawn (O1: they are inputs stored before the
night resolves), and for a game whose snapshots do not reach the open phase: `close` returns None and the caller
takes that path. A batch (`clock.close_batch`) reads statement 2 of all its phases in one round trip (`read_many`),
and WRITE leaves out the CTEs that have nothing to write (`write_statement`).

Every table, column and status value in the statements comes from the models (`_sql`: `{phase}` is Phase's table,
`{phase.ends_at}` its column, `{CLOSED}` Phase.Status.CLOSED); every INSERT lists the model's columns (`_insert`), and
its rows are sent as JSON, each field's default filled in from the model (`_rows`), that PostgreSQL maps onto the
table's columns (`jsonb_populate_recordset`): a field added to a model is written here without a change
(tests/clock/test_close_rows.py compares every column with the ORM close's).

The close's statements (LOCK, READ, READ_MANY, WRITE) are prepared once per database session, on generic plans
(`_cursor`; LOCK sets `plan_cache_mode` for the close's transaction): a later close sends their names and values
only, and the server neither parses nor plans them again. CLOCK_CLOSE_PREPARED=false turns that off (a pooler:
docs/scaling.md).

A PM confirm's inputs are written here too (`inputs_insert`: the entry numbers and the rows in one statement).
Raw SQL lives only here, beside the models it writes."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import cache
from typing import Any, NamedTuple

import psycopg
from django.conf import settings
from django.db import connection, models
from django.utils import timezone

from moderator import rules
from moderator.models import Announcement, AuditLog, Game, Input, InputVerdict, InputVoid, Phase, Seat
from moderator.rules import codec
from moderator.services import resolve


def _quote(name: str) -> str:
    """A table's or column's name as the statements write it: bare (each is a plain lower-case word, checked here, as
    in the statements the clock's tests watch for in pg_stat_activity)."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
        raise ValueError(f"not a plain SQL name: {name!r}")
    return name


class _Table:
    """A model in a statement's text: `{phase}` is its table, `{phase.ends_at}` a field's column (`{phase.game}`:
    game_id), both read from the model's `_meta`."""

    def __init__(self, model: type[models.Model]):
        self._model = model

    def __format__(self, spec: str) -> str:
        return _quote(self._model._meta.db_table)

    def __getattr__(self, name: str) -> str:
        if name.startswith("_"):
            raise AttributeError(name)
        field = self._model._meta.get_field(name)
        assert isinstance(field, models.Field), f"{name} is a field with a column, not a reverse relation"
        return _column(field)


def _literal(value: str) -> str:
    """A status value of a model's choices as an SQL literal (only plain words: nothing to escape)."""
    if not re.fullmatch(r"[a-z_]+", value):
        raise ValueError(f"not a plain status value: {value!r}")
    return f"'{value}'"


_TABLES = {
    "game": _Table(Game),
    "seat": _Table(Seat),
    "phase": _Table(Phase),
    "input": _Table(Input),
    "verdict": _Table(InputVerdict),
    "void": _Table(InputVoid),
    "draft": _Table(Announcement),
    "audit": _Table(AuditLog),
}
_VALUES = {
    "OPEN": _literal(Phase.Status.OPEN),
    "CLOSED": _literal(Phase.Status.CLOSED),
    "RUNNING": _literal(Game.Status.RUNNING),
    "FINISHED": _literal(Game.Status.FINISHED),
}


def _sql(text: str, **more: str) -> str:
    """A statement with its tables, columns and status values filled in from the models (see `_Table`)."""
    return text.format(**_TABLES, **_VALUES, **more)


def _column(f: models.Field) -> str:
    assert f.column is not None, f"{f.name} is a concrete field: it has a column"
    return _quote(f.column)


def _inserted(model: type[models.Model]) -> list[models.Field]:
    """The columns an INSERT of `model` writes: every concrete field but an automatic primary key."""
    return [f for f in model._meta.concrete_fields if f is not model._meta.auto_field]


def _insert(model: type[models.Model], source: str, **expressions: str) -> str:
    """`INSERT INTO` the model's table every column of `_inserted(model)`, each `r.<column>` of `source` (a row of
    the table's type, from `_rows`) unless `expressions` gives another by field name."""
    fields = _inserted(model)
    columns = ", ".join(_column(f) for f in fields)
    values = ", ".join(expressions.get(f.name, f"r.{_column(f)}") for f in fields)
    return f"INSERT INTO {_quote(model._meta.db_table)} ({columns})\n  SELECT {values}\n    FROM {source}"


def _encode(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, timedelta):
        return f"{value.total_seconds()} seconds"
    raise TypeError(f"{type(value).__name__} is not a column value")


class _Shape(NamedTuple):
    """What a row of a model needs besides the values a write gives: each column's default (a callable one is called
    for each row, but an empty `dict` or `list`: the row is only sent as JSON), and the columns an `auto_now_add`
    field stamps."""

    columns: dict[str, str]  # field attname -> column, where they differ
    defaults: dict[str, Any]  # column -> default value (but NULL: a row leaves its column out)
    made: dict[str, Callable[[], Any]]  # column -> the callable that makes its default for each row
    stamped: tuple[str, ...]  # columns of `auto_now_add` fields


@cache
def _shape(model: type[models.Model]) -> _Shape:
    columns, defaults, made, stamped = {}, {}, {}, []
    for f in _inserted(model):
        column = _column(f)
        if column != f.attname:
            columns[f.attname] = column
        if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False):
            stamped.append(column)
        elif f.has_default() and callable(f.default) and f.default not in (dict, list):
            made[column] = f.default
        elif (default := f.get_default()) is not None:  # a column left out of a row is NULL
            defaults[column] = default
    return _Shape(columns, defaults, made, tuple(stamped))


def _rows(model: type[models.Model], values: Sequence[dict[str, Any]], now: str) -> list[dict[str, Any]]:
    """Rows of `model` (column -> value) as `jsonb_populate_recordset` maps them onto its table, once sent as JSON
    (`_dumps`): each row the ORM would insert for these field values (by attname; a time as its ISO text), every other
    field's default, `auto_now_add` times `now` (ISO text)."""
    if not values:
        return []
    shape = _shape(model)
    base = {**shape.defaults, **dict.fromkeys(shape.stamped, now)}
    rows = []
    for given in values:
        row = base.copy()
        for column, make in shape.made.items():
            row[column] = make()
        if shape.columns:
            given = {shape.columns.get(name, name): value for name, value in given.items()}
        row.update(given)
        rows.append(row)
    return rows


def _dumps(value: Any) -> str:
    """A statement's JSON parameter."""
    return json.dumps(value, default=_encode, ensure_ascii=False)


READ = _sql("""
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

_UPDATED = ", ".join(f"{_column(f)} = EXCLUDED.{_column(f)}" for f in _inserted(InputVerdict) if not f.primary_key)


def _each(table: str, key: str) -> str:
    """The rows under `key` of the close's JSON document (its one parameter `rows`, parsed once by the
    compare-and-set and returned as `closed.doc`) as rows of the table's type, in their order."""
    return _sql(
        f"closed CROSS JOIN jsonb_populate_recordset(NULL::{{{table}}}, closed.doc -> '{key}') WITH ORDINALITY AS r"
    )


_LATENESS = "round(EXTRACT(EPOCH FROM closed.closed_at - closed.ends_at)::numeric, 3)::float8"
WRITE = _sql(
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
    verdicts_rows=_insert(InputVerdict, _each("verdict", "verdicts")),
    next_rows=_insert(Phase, _each("phase", "next")),
    drafts_rows=_insert(Announcement, _each("draft", "drafts")),
    audit_rows=_insert(
        AuditLog,
        _each("audit", "log"),
        detail=_sql("r.{audit.detail} || jsonb_build_object('lateness_s', ") + _LATENESS + ")",
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


INPUTS_INSERT = _sql(
    """
WITH seq AS (
  UPDATE {game} SET {game.input_seq} = {game.input_seq} + %(n)s WHERE {game.id} = %(game)s
  RETURNING {game.input_seq} - %(n)s AS base
)
{insert}
 ORDER BY r.ordinality
RETURNING {input.id}, {input.seq}
""",
    insert=_insert(
        Input,
        "seq CROSS JOIN jsonb_populate_recordset(NULL::" + _sql("{input}") + ", %(items)s::jsonb) WITH ORDINALITY AS r",
        seq="seq.base + r.ordinality",
    ),
)


def inputs_insert(
    *, game: Game, phase: Phase, seat: Seat, encoded: list[tuple[str, Any]], forum_at: datetime, message, entered_by
) -> list[Input]:
    """An input log write on PostgreSQL: the entry numbers reserved and the inputs inserted in one statement (a PM
    confirm: one round trip fewer). The rows are those the ORM's entry numbers and `bulk_create` write."""
    at = timezone.now()
    ids = {"game_id": game.pk, "phase_id": phase.pk, "seat_id": seat.pk, "message_id": getattr(message, "pk", None)}
    common = {**ids, "forum_at": forum_at.isoformat(), "seq": 0, "entered_by_id": getattr(entered_by, "pk", None)}
    rows = _dumps(
        _rows(Input, [{**common, "kind": kind, "payload": payload} for kind, payload in encoded], at.isoformat())
    )
    with connection.cursor() as cursor:
        cursor.execute(INPUTS_INSERT, {"n": len(encoded), "game": game.pk, "items": rows})
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
LOCK = _sql(
    "SELECT set_config('synchronous_commit', 'off', true), set_config('plan_cache_mode', 'force_generic_plan', true), "
    "{g}, {p} FROM {phase} p JOIN {game} g ON g.{game.id} = p.{phase.game} "
    "WHERE p.{phase.id} = ANY(%s::bigint[]) ORDER BY p.{phase.game}, p.{phase.id} FOR UPDATE OF g",
    g=", ".join(f"g.{_quote(c)}" for c in _GAME[1]),
    p=", ".join(f"p.{_quote(c)}" for c in _PHASE[1]),
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
    """A seat as the close needs it: what resolve.initial_state reads, and its number and id."""

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
        if snapshot is None:  # the game's first phase
            state = resolve.initial_state(game, seats)
        else:
            state, _ = rules.open_phase(codec.state_load(snapshot))
        records = [_Rec(row) for row in _json(inputs_json) or []]
        by_seat = {s.pk: s.player_name for s in seats}
        names = {s.number: s.player_name for s in seats}
        state, verdicts = resolve.judge(state, phase, records, by_seat=by_seat, names=names)
        closed = resolve.close(game, phase, state, ((r.pk, r.stored, verdicts[r.pk]) for r in records))
        cursor.execute(*_write(game, closed, now))
        row = cursor.fetchone()
    if row is None:
        return False
    phase.status, phase.closed_at = Phase.Status.CLOSED, row[0]
    phase.snapshot, phase.result = closed.snapshot, closed.result_doc
    if closed.winner:
        game.status, game.winner = Game.Status.FINISHED, closed.winner
    return True


def _write(game: Game, closed: resolve.Closed, now: datetime | None) -> tuple[str, dict[str, Any]]:
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
        "rows": _dumps(
            {
                "result": closed.result_doc,
                "verdicts": _rows(InputVerdict, verdicts, now_at),
                "next": _rows(Phase, nexts, now_at),
                "drafts": _rows(Announcement, drafts, now_at),
                "log": _rows(AuditLog, [log], now_at),
            }
        ),
    }
