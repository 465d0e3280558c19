"""Move every input of the three old tables (nights.Action, votes.Vote, cards.DiscardOrder) into the one input log.

Each row keeps its game, phase, seat, message, forum time, entry number, entry time and who entered it; its fields
become the codec's payload (players by seat number, moderator.rules.codec); a voided row gets a void row; the
verdict it had is copied (derived data: the next replay of its phase writes it again). Snapshots start empty: the
first write to a game stores them."""

from django.db import migrations

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


def forwards(apps, schema_editor):
    Input = apps.get_model("moderator", "Input")
    InputVoid = apps.get_model("moderator", "InputVoid")
    InputVerdict = apps.get_model("moderator", "InputVerdict")
    Seat = apps.get_model("moderator", "Seat")
    Phase = apps.get_model("moderator", "Phase")
    number = dict(Seat.objects.values_list("pk", "number"))
    rows = []
    for rec in apps.get_model("nights", "Action").objects.all():
        payload = {f: getattr(rec, f) for f in ACTION_FIELDS if getattr(rec, f) not in (None, "", False)}
        if rec.target_id:
            payload["target"] = number[rec.target_id]
        rows.append((rec, "action", payload, rec.cost, rec.entered_by_id))
    for rec in apps.get_model("votes", "Vote").objects.all():
        payload = {("change" if rec.change else "for"): number[rec.target_id]}
        if rec.edited:
            payload["edited"] = True
        rows.append((rec, "vote", payload, 0, rec.entered_by_id))
    for rec in apps.get_model("cards", "DiscardOrder").objects.all():
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


class Migration(migrations.Migration):
    dependencies = [
        ("moderator", "0004_input_log"),
        ("nights", "0001_initial"),
        ("votes", "0001_initial"),
        ("cards", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
