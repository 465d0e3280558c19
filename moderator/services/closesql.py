"""A close in three statements (issue 25.1), on PostgreSQL: the clock's close at the floor.

1. `LOCK` (`lock`, called by `clock.phase_close_due` and `clock.close_batch`): the phases and their games, the game
   rows locked, in one statement for a whole batch (game row first: the one lock order). Then, for each phase:
2. `READ`: one statement reads what the close resolves from — the snapshot of the phase before, the seats, and the
   open phase's inputs (voided ones left out, each with its stored verdict) — and whether this phase can be closed
   from that snapshot alone (the last phase, every phase before it closed with a snapshot);
3. `WRITE`: one statement of data-modifying CTEs. Its first CTE is the compare-and-set of every close (open → closed
   where the end time has come by the database's clock and the game is running); every other CTE selects `FROM
   closed`, so when the compare-and-set matched no row nothing at all is written: no snapshot, verdict, next phase,
   draft or log row. That is what keeps a close exactly once.

Between the two, the rules resolve the phase in Python exactly as `play.game_replay` + `play.phase_close_locked` do
(the same engine calls, the same codec, the same draft renderers), so the rows written are the rows the ORM path writes
(tests/clock/test_clock_batch.py compares them on every scenario). The ORM path stays for SQLite (the embedded
default), for a first night whose default orders must be drawn (O1: they are inputs stored before the night resolves),
and for a game whose snapshots do not reach the open phase: `close` returns None and the caller takes that path.
A batch (`clock.close_batch`) reads statement 2 of all its phases in one round trip (`read_many`), and WRITE leaves
out the CTEs that have nothing to write (`write_statement`).

The close's statements (LOCK, READ, READ_MANY, WRITE) are prepared once per database session, on generic plans
(`_cursor`; LOCK sets `plan_cache_mode` for the close's transaction): a later close sends their names and values
only, and the server neither parses nor plans them again. CLOCK_CLOSE_PREPARED=false turns that off (a pooler:
docs/scaling.md).

A PM confirm's inputs are written here too (`inputs_insert`: the entry numbers and the rows in one statement).
Raw SQL lives only here, beside the models it writes (their tables are read from the models' `_meta`)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from functools import cache
from typing import Any, NamedTuple

import psycopg
from django.conf import settings
from django.db import connection
from django.utils import timezone

from moderator import rules
from moderator.game.state import evolve
from moderator.models import Announcement, AuditLog, Game, Input, InputVerdict, InputVoid, Phase, Seat, phase_label
from moderator.rules import codec

_T = {
    "game": Game._meta.db_table,
    "seat": Seat._meta.db_table,
    "phase": Phase._meta.db_table,
    "input": Input._meta.db_table,
    "verdict": InputVerdict._meta.db_table,
    "void": InputVoid._meta.db_table,
    "draft": Announcement._meta.db_table,
    "audit": AuditLog._meta.db_table,
}

READ = """
SELECT
  (SELECT count(*) FILTER (WHERE q.status <> 'closed' OR q.snapshot = '' OR (q.starts_at, q.id) > (%(starts)s, %(phase)s))
     FROM {phase} q WHERE q.game_id = %(game)s AND q.id <> %(phase)s) AS odd,
  (SELECT q.snapshot FROM {phase} q WHERE q.game_id = %(game)s AND q.id <> %(phase)s
     ORDER BY q.starts_at DESC, q.id DESC LIMIT 1) AS snapshot,
  (SELECT json_agg(json_build_array(s.id, s.number, s.player_name, s.camp, s.dealt_hand) ORDER BY s.number)
     FROM {seat} s WHERE s.game_id = %(game)s) AS seats,
  (SELECT json_agg(json_build_array(i.id, i.seat_id, i.kind, i.payload, i.forum_at, i.message_id,
                                    v.accepted, v.reason, v.cost) ORDER BY i.forum_at, i.seq)
     FROM {input} i LEFT JOIN {verdict} v ON v.input_id = i.id
     WHERE i.phase_id = %(phase)s AND NOT EXISTS (SELECT 1 FROM {void} x WHERE x.input_id = i.id)) AS inputs
""".format(**_T)

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

WRITE = """
WITH closed AS (
  UPDATE {phase} p SET status = 'closed', closed_at = STATEMENT_TIMESTAMP(),
                       snapshot = %(snapshot)s, result = %(result)s::jsonb
  FROM {game} g
  WHERE p.id = %(phase)s AND p.status = 'open'
    AND p.ends_at <= COALESCE(%(now)s::timestamptz, STATEMENT_TIMESTAMP())
    AND g.id = p.game_id AND g.status = 'running'
  RETURNING p.id, p.closed_at, p.ends_at
), verdicts AS (
  INSERT INTO {verdict} (input_id, accepted, reason, cost)
  SELECT (e->>0)::integer, (e->>1)::boolean, e->>2, (e->>3)::smallint
    FROM closed CROSS JOIN jsonb_array_elements(%(verdicts)s::jsonb) AS e
  ON CONFLICT (input_id) DO UPDATE SET accepted = EXCLUDED.accepted, reason = EXCLUDED.reason, cost = EXCLUDED.cost
), finished AS (
  UPDATE {game} SET status = 'finished', winner = %(winner)s::text
    FROM closed WHERE {game}.id = %(game)s AND %(winner)s::text <> ''
), next AS (
  INSERT INTO {phase} (game_id, kind, number, starts_at, ends_at, status, closed_at, result, paused_remaining,
                       announced_end, snapshot, close_failures, close_error)
  SELECT %(game)s, %(next_kind)s::text, %(next_number)s::integer, closed.ends_at, closed.ends_at + %(length)s,
         'open', NULL, '{{}}'::jsonb, NULL, NULL, '', 0, ''
    FROM closed WHERE %(next_kind)s::text <> ''
), drafts AS (
  INSERT INTO {draft} (game_id, phase_id, kind, recipient, title, bbcode, text, events, created_at, posted_at,
                       corrected_at)
  SELECT %(game)s, closed.id, d.e->>0, d.e->>1, d.e->>2, d.e->>3, d.e->>4, d.e->5, %(at)s, NULL, NULL
    FROM closed CROSS JOIN jsonb_array_elements(%(drafts)s::jsonb) WITH ORDINALITY AS d(e, n)
   ORDER BY d.n
), audit AS (
  INSERT INTO {audit} (game_id, actor_id, action, detail, at)
  SELECT %(game)s, NULL, 'phase_close',
         jsonb_build_object('phase', %(label)s::text, 'ends_at', %(ends_iso)s::text,
                            'lateness_s', round(EXTRACT(EPOCH FROM closed.closed_at - closed.ends_at)::numeric, 3)::float8),
         %(at)s
    FROM closed
)
SELECT closed_at FROM closed
""".format(**_T)


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


INPUTS_INSERT = """
WITH seq AS (
  UPDATE {game} SET input_seq = input_seq + %(n)s WHERE id = %(game)s RETURNING input_seq - %(n)s AS base
)
INSERT INTO {input} (game_id, phase_id, seat_id, kind, payload, message_id, forum_at, seq, entered_at, entered_by_id)
SELECT %(game)s, %(phase)s, %(seat)s, e.v->>0, e.v->1, %(message)s, %(forum_at)s, seq.base + e.n, %(at)s, %(by)s
  FROM seq CROSS JOIN jsonb_array_elements(%(items)s::jsonb) WITH ORDINALITY AS e(v, n)
 ORDER BY e.n
RETURNING id, seq
""".format(**_T)


def inputs_insert(
    *, game: Game, phase: Phase, seat: Seat, encoded: list[tuple[str, Any]], forum_at: datetime, message, entered_by
) -> list[Input]:
    """play.inputs_add's write on PostgreSQL: the entry numbers reserved and the inputs inserted in one statement
    (a PM confirm: one round trip fewer). The rows are those `_next_seq` + `bulk_create` write."""
    at = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(
            INPUTS_INSERT,
            {
                "n": len(encoded),
                "game": game.pk,
                "phase": phase.pk,
                "seat": seat.pk,
                "message": None if message is None else message.pk,
                "forum_at": forum_at,
                "at": at,
                "by": None if entered_by is None else entered_by.pk,
                "items": json.dumps([[kind, payload] for kind, payload in encoded]),
            },
        )
        ids = dict((seq, pk) for pk, seq in cursor.fetchall())
    first = min(ids)
    game.input_seq = first + len(encoded) - 1
    common = {"game": game, "phase": phase, "seat": seat, "forum_at": forum_at, "message": message}
    return [
        Input(
            **common, id=ids[first + i], kind=kind, payload=payload, seq=first + i, entered_at=at, entered_by=entered_by
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
LOCK = (
    "SELECT set_config('synchronous_commit', 'off', true), set_config('plan_cache_mode', 'force_generic_plan', true), "
    "{g}, {p} FROM {phase} p JOIN {game} g ON g.id = p.game_id "
    "WHERE p.id = ANY(%s::bigint[]) ORDER BY p.game_id, p.id FOR UPDATE OF g"
).format(g=", ".join(f"g.{c}" for c in _GAME[1]), p=", ".join(f"p.{c}" for c in _PHASE[1]), **_T)


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
    """A seat as the close needs it: what play.initial_state reads, and its number and id."""

    __slots__ = ("camp", "dealt_hand", "number", "pk", "player_name")

    def __init__(self, row: list):
        self.pk, self.number, self.player_name, self.camp, self.dealt_hand = row


class _Rec:
    """An input of the open phase as the replay needs it (not a model instance: the close reads no more)."""

    __slots__ = ("forum_at", "kind", "message_id", "payload", "pk", "seat_id", "stored")

    def __init__(self, row: list):
        self.pk, self.seat_id, self.kind, self.payload = row[0], row[1], row[2], row[3]
        self.forum_at = datetime.fromisoformat(row[4])
        self.message_id = row[5]
        self.stored = None if row[6] is None else (row[6], row[7], row[8])


class NextPhase(NamedTuple):
    """The phase a close opens, as its drafts read it (WRITE inserts the row): no model instance is built for it."""

    kind: str
    number: int
    ends_at: datetime
    label: str


def _messages(records: list[_Rec]) -> list[list[_Rec]]:
    """play._messages: consecutive inputs of one stored message are judged together (voided ones were not read)."""
    groups: list[list[_Rec]] = []
    for rec in records:
        if groups and rec.message_id is not None and groups[-1][-1].message_id == rec.message_id:
            groups[-1].append(rec)
        else:
            groups.append([rec])
    return groups


def close(game: Game, phase: Phase, now: datetime | None, read: tuple | None = None) -> bool | None:
    """Close `phase` of the locked `game` in two more statements; True if this call closed it, False if there was
    nothing to do (already closed, not due, game not running: nothing written), None if this close must take the
    ORM path (see the module's docstring)."""
    from moderator.services import play
    from moderator.services.announce import final_summary_draft, write_announcements_drafts

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
        names = {s.number: s.player_name for s in seats}
        by_seat = {s.pk: s.player_name for s in seats}
        if snapshot is None:  # the game's first phase
            state = play.initial_state(game, seats)
        else:
            state, _ = rules.open_phase(codec.state_load(snapshot))
        state = evolve(state, phase_minutes=play.phase_length(phase))
        records = [_Rec(row) for row in _json(inputs_json) or []]
        changed = []
        for message in _messages(records):
            inputs = [
                codec.to_engine(
                    r.kind, r.payload, by=by_seat[r.seat_id], at=play._minutes(phase, r.forum_at), names=names
                )
                for r in message
            ]
            state, verdicts = rules.submit_message(state, inputs)
            for rec, verdict in zip(message, verdicts, strict=True):
                new = (verdict.accepted, verdict.reason, verdict.cost)
                if rec.stored != new:
                    changed.append([rec.pk, *new])
        state, result = rules.close_phase(state)
        next_phase = None
        if not state.winner:
            kind, number = state.phase
            length = timedelta(seconds=game.phase_seconds)
            next_phase = NextPhase(kind, number, phase.ends_at + length, phase_label(kind, number))
        drafts = write_announcements_drafts(game=game, phase=phase, state=state, result=result, next_phase=next_phase)
        if result.winner:
            drafts.append(final_summary_draft(game=game, phase=phase, state=state, winner=result.winner))
        result_doc = play.result_json(result)
        dump = codec.state_dump(state)
        cursor.execute(
            write_statement(verdicts=bool(changed), finished=bool(state.winner), following=next_phase is not None),
            {
                "game": game.pk,
                "phase": phase.pk,
                "now": now,
                "snapshot": dump,
                "result": json.dumps(result_doc),
                "verdicts": json.dumps(changed),
                "winner": state.winner or "",
                "next_kind": next_phase.kind if next_phase else "",
                "next_number": next_phase.number if next_phase else 0,
                # psycopg adapts a timedelta to an interval; the stub's list of parameter types omits it
                "length": timedelta(seconds=game.phase_seconds),  # type: ignore[dict-item]
                "drafts": json.dumps(drafts),  # each Draft a JSON array: kind, recipient, title, bbcode, text, events
                "at": timezone.now(),
                "label": phase.label,
                "ends_iso": phase.ends_at.isoformat(),
            },
        )
        row = cursor.fetchone()
    if row is None:
        return False
    phase.status, phase.closed_at, phase.snapshot, phase.result = Phase.Status.CLOSED, row[0], dump, result_doc
    if state.winner:
        game.status, game.winner = Game.Status.FINISHED, state.winner
    return True
