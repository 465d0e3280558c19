"""Move every input of the three old tables (nights_action, votes_vote, cards_discardorder) into the one input log.

Each row keeps its game, phase, seat, message, forum time, entry number, entry time and who entered it; its fields
become the codec's payload (players by seat number, moderator.rules.codec); a voided row gets a void row; the
verdict it had is copied (derived data: the next replay of its phase writes it again). Snapshots start empty: the
first write to a game stores them.

The three old tables belonged to apps that no longer exist (nights/, votes/ and cards/ are plain packages of the rules
engine now). A database made before the one input log still has them: they are read with plain SQL and dropped here.
A database made since never had them: there is nothing to move.
"""

import json
from datetime import UTC
from types import SimpleNamespace

from django.db import migrations
from django.utils.dateparse import parse_datetime

ACTION_FIELDS = ("card", "use", "position", "into", "side", "mode", "manifesto", "change")


def _common(rec):
    return {
        "game_id": rec.game_id,
        "phase_id": rec.phase_id,
        "seat_id": rec.seat_id,
        "message_id": rec.message_id,
        "forum_at": rec.forum_at,
        "seq": rec.seq,
    }


OLD_TABLES = ("nights_action", "votes_vote", "cards_discardorder")


def _rows(cursor, table):
    """Every row of an old table, its columns as attributes (datetimes and JSON decoded on every database)."""
    cursor.execute(f"SELECT * FROM {table}")
    columns = [c[0] for c in cursor.description]
    out = []
    for values in cursor.fetchall():
        rec = SimpleNamespace(**dict(zip(columns, values, strict=True)))
        for name in ("forum_at", "entered_at"):  # SQLite: text or naive, in UTC
            at = getattr(rec, name)
            at = parse_datetime(at) if isinstance(at, str) else at
            setattr(rec, name, at.replace(tzinfo=UTC) if at.tzinfo is None else at)
        for name in ("change", "edited"):  # SQLite: 0 or 1
            if hasattr(rec, name):
                setattr(rec, name, bool(getattr(rec, name)))
        if isinstance(getattr(rec, "order", None), str):
            rec.order = json.loads(rec.order)
        out.append(rec)
    return out


def forwards(apps, schema_editor):
    Input = apps.get_model("moderator", "Input")
    InputVoid = apps.get_model("moderator", "InputVoid")
    InputVerdict = apps.get_model("moderator", "InputVerdict")
    Seat = apps.get_model("moderator", "Seat")
    Phase = apps.get_model("moderator", "Phase")
    number = dict(Seat.objects.values_list("pk", "number"))
    existing = set(schema_editor.connection.introspection.table_names())
    old = {t: [] for t in OLD_TABLES}
    with schema_editor.connection.cursor() as cursor:
        for table in OLD_TABLES:
            if table in existing:
                old[table] = _rows(cursor, table)
    rows = []
    for rec in old["nights_action"]:
        payload = {f: getattr(rec, f) for f in ACTION_FIELDS if getattr(rec, f) not in (None, "", False)}
        if rec.target_id:
            payload["target"] = number[rec.target_id]
        rows.append((rec, "action", payload, rec.cost, rec.entered_by_id))
    for rec in old["votes_vote"]:
        payload = {("change" if rec.change else "for"): number[rec.target_id]}
        if rec.edited:
            payload["edited"] = True
        rows.append((rec, "vote", payload, 0, rec.entered_by_id))
    for rec in old["cards_discardorder"]:
        if rec.phase_id is None:  # never written by the services; attach to the game's first phase if there is one
            first = Phase.objects.filter(game_id=rec.game_id).order_by("starts_at", "id").first()
            if first is None:
                continue
            rec.phase_id = first.pk
        payload = {"order": list(rec.order)}
        if rec.source != "player":
            payload |= {"source": rec.source, "seed": rec.seed}
        rows.append((rec, "order", payload, 0, None))
    # Entry numbers were shared by the three tables, so they are unique per game; renumber any clash to be safe.
    seen: dict[int, set[int]] = {}
    top: dict[int, int] = {}
    for rec, *_ in rows:
        top[rec.game_id] = max(top.get(rec.game_id, 0), rec.seq)
    for rec, kind, payload, cost, entered_by in sorted(rows, key=lambda r: (r[0].game_id, r[0].seq, r[0].forum_at)):
        used = seen.setdefault(rec.game_id, set())
        if rec.seq in used:
            top[rec.game_id] += 1
            rec.seq = top[rec.game_id]
        used.add(rec.seq)
        new = Input.objects.create(kind=kind, payload=payload, entered_by_id=entered_by, **_common(rec))
        Input.objects.filter(pk=new.pk).update(entered_at=rec.entered_at)
        if rec.status == "voided":
            reason = rec.reason.removeprefix("天神作废:").removeprefix("天神作废")
            InputVoid.objects.create(input=new, reason=reason)
        else:
            InputVerdict.objects.create(input=new, accepted=rec.status == "accepted", reason=rec.reason, cost=cost)
    Game = apps.get_model("moderator", "Game")
    for game_id, seq in top.items():
        Game.objects.filter(pk=game_id, input_seq__lt=seq).update(input_seq=seq)
    with schema_editor.connection.cursor() as cursor:
        for table in OLD_TABLES:
            if table in existing:
                cursor.execute(f"DROP TABLE {schema_editor.quote_name(table)}")


class Migration(migrations.Migration):
    dependencies = [("moderator", "0004_input_log")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
