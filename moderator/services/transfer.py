"""Export and import of a whole game as JSON: the table, its seeds and every input of the log — enough to replay to
the same state (the derived verdicts, snapshots, results and announcement drafts are rebuilt on import) — and the
drafts' posted and corrected marks, put back on the redrafts (moderator.services.transfer_drafts).

Format 2 stores each input as the codec's payload; format 1 (before the one input log) is still read. An upload is
checked against the declared schema (transfer_schema) before anything is written, and refused with its first problem
named: a file of the wrong shape never reaches the database or the rules."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.db import DatabaseError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from pydantic import ValidationError

from moderator.models import AuditLog, Game, Input, InputVoid, Message, Phase, Seat, SeatHolder
from moderator.services import audit, setup, storage
from moderator.services import once as one_time
from moderator.services import transfer_schema as schema
from moderator.services.announce import write_announcements
from moderator.services.errors import PlayError
from moderator.services.transfer_drafts import drafts_export, drafts_restore

FORMAT = "direnjie-game/2"
FORMATS = ("direnjie-game/1", FORMAT)
GAME_FIELDS = (
    "name",
    "seats_count",
    "hand_size",
    "deck",
    "left_out",
    "camp_seed",
    "deal_seed",
    "order_seed",
    "phase_seconds",
    "status",
    "winner",
    "start_kind",
    "start_number",
    "initial_ap",
    "hands_are_orders",
    "input_seq",
    "self_entry",  # how the game is played: players enter on their private pages (a file without it: off)
)
ACTION_FIELDS = ("card", "use", "position", "into", "side", "mode", "manifesto", "change", "cost")


class ImportRefused(PlayError):
    """An import refused before anything was written; the message names the first problem."""


def _no_constant(name: str):
    raise ImportRefused(f"JSON 里不能有 {name}")


def read_upload(upload) -> dict[str, Any]:
    """An uploaded export, parsed: at most MAX_BYTES, UTF-8 JSON, no NaN/Infinity, nested at most MAX_DEPTH deep."""
    if upload.size is not None and upload.size > schema.MAX_BYTES:
        raise ImportRefused(f"文件太大:{upload.size // 1024} KB,最多 {schema.MAX_BYTES // 1024 // 1024} MB")
    raw = upload.read(schema.MAX_BYTES + 1)
    if len(raw) > schema.MAX_BYTES:
        raise ImportRefused(f"文件太大:最多 {schema.MAX_BYTES // 1024 // 1024} MB")
    return export_parse(raw)


def _json(raw: bytes | str) -> Any:
    """The file's JSON, or ImportRefused saying in a sentence why it is not JSON (nested too deep, a syntax error and
    where, not UTF-8)."""
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise ImportRefused("JSON 嵌套太深") from None
    except json.JSONDecodeError as exc:
        raise ImportRefused(f"这不是有效的 JSON 文件:第 {exc.lineno} 行第 {exc.colno} 列附近写错了") from None
    except UnicodeDecodeError:
        raise ImportRefused("这不是有效的 JSON 文件:不是 UTF-8 编码的文字") from None


def export_parse(raw: bytes | str) -> dict[str, Any]:
    data = _json(raw)
    if not isinstance(data, dict):
        raise ImportRefused(f"这不是本系统导出的游戏文件(需要 format = {FORMAT})")
    if schema.depth(data) > schema.MAX_DEPTH:
        raise ImportRefused(f"JSON 嵌套太深(最多 {schema.MAX_DEPTH} 层)")
    return data


def validate(data: Any) -> schema.GameFile:
    """The file against the declared schema; ImportRefused names the first problem."""
    if not isinstance(data, dict) or data.get("format") not in FORMATS:
        raise ImportRefused(f"这不是本系统导出的游戏文件(需要 format = {FORMAT})")
    if schema.depth(data) > schema.MAX_DEPTH:
        raise ImportRefused(f"JSON 嵌套太深(最多 {schema.MAX_DEPTH} 层)")
    if (nul := schema.nul_at(data)) is not None:
        raise ImportRefused(f"{schema.where_said(nul) or '文件'}:不能含有 NUL 字符(\\u0000)")
    for key, limit, what in schema.LIMITS:  # counted before any item is read
        items = data.get(key)
        if isinstance(items, list) and len(items) > limit:
            raise ImportRefused(f"一局游戏最多 {limit} {what},这个文件有 {len(items)} {what}(真实的游戏远远到不了)")
    try:
        return schema.GameFile.model_validate(data)
    except ValidationError as exc:
        raise ImportRefused(schema.first_problem(exc)) from None


def _t(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def export_game(game: Game) -> dict[str, Any]:
    seats = list(game.seats.order_by("number"))
    number: dict[int | None, int] = {s.pk: s.number for s in seats}  # looked up by nullable keys: None → None
    phases = list(game.phases.order_by("starts_at", "id"))
    index = {p.pk: i for i, p in enumerate(phases)}
    msgs = list(game.messages.order_by("forum_at", "id"))
    msg_index: dict[int | None, int] = {m.pk: i for i, m in enumerate(msgs)}
    inputs = [
        {
            "kind": r.kind,
            "payload": r.payload,
            "phase": index[r.phase_id],
            "seat": number[r.seat_id],
            "forum_at": _t(r.forum_at),
            "seq": r.seq,
            "message": msg_index.get(r.message_id),
            "void": r.void.reason if hasattr(r, "void") else None,
        }
        for r in Input.objects.filter(game=game).select_related("void").order_by("seq")
    ]
    return {
        "format": FORMAT,
        "game": {**{f: getattr(game, f) for f in GAME_FIELDS}, "started_at": _t(game.started_at)},
        "seats": [
            {
                "number": s.number,
                "player_name": s.player_name,
                "camp": s.camp,
                "dealt_hand": s.dealt_hand,
                "signed_in_at": _t(s.signed_in_at),
                "holders": [
                    {"player_name": h.player_name, "since": _t(h.since), "reason": h.reason} for h in s.holders.all()
                ],
            }
            for s in seats
        ],
        "phases": [
            {
                "kind": p.kind,
                "number": p.number,
                "starts_at": _t(p.starts_at),
                "ends_at": _t(p.ends_at),
                "status": p.status,
                "closed_at": _t(p.closed_at),
                "announced_end": _t(p.announced_end),
            }
            for p in phases
        ],
        "messages": [
            {
                "id": i,
                "seat": number.get(m.seat_id),
                "sender_name": m.sender_name,
                "text": m.text,
                "forum_at": _t(m.forum_at),
                "parsed": m.parsed,
            }
            for i, m in enumerate(msgs)
        ],
        "inputs": inputs,
        "announcements": drafts_export(game, index),
    }


def import_game(
    data: Any, *, gm=None, name: str | None = None, once=None, restore: bool = False, uid: UUID | None = None
) -> Game:
    """A whole game from an export (format 1 or 2), replayed; ImportRefused (nothing written) when the file does
    not hold, or its inputs cannot be replayed. `once`: the form's one-time token (a repeated upload makes one game).
    An upload of a running game arrives paused (not a second live game); `restore` (the `restore` command putting back
    a backup into a database that lacks the game) keeps it running as it was, under its own name and identity `uid`
    (an upload is a new game: a name of its own, a new identity)."""
    checked = validate(data)
    _table_check(checked)
    try:
        with transaction.atomic():
            one_time.spend_create(once, "导入游戏")
            game = _import(checked, gm=gm, name=name, restore=restore, uid=uid)
            one_time.made(once, game)
            return game
    except (DatabaseError, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        if isinstance(exc, PlayError):
            raise
        # the rules and the codec say what is wrong in Chinese; a Python message would read like data
        said = f":{exc}" if isinstance(exc, ValueError) and not str(exc).isascii() else ""
        raise ImportRefused(f"这些输入无法重放{said}") from None


def _table_check(data: schema.GameFile) -> None:
    """An import passes the new-game form's checks (S1, S3, names), and every former holder's name is one the
    substitution form would take: a file cannot seat what the form refuses."""
    seats = sorted(data.seats, key=lambda s: s.number)
    try:
        setup.table_check(
            names=[s.player_name for s in seats],
            camps=[s.camp for s in seats],
            hands=[s.dealt_hand for s in seats],
            deck=data.game.deck,
            hand_size=data.game.hand_size,
            mid_game=data.game.hands_are_orders,
        )
        for s in seats:
            for h in s.holders:
                setup.name_check(h.player_name)
    except setup.SetupError as exc:
        raise ImportRefused(f"座位表通不过新建游戏时的检查:{exc}") from None


def _seed(value: int | str | None) -> str | None:
    return None if value is None else str(value)


def _import(data: schema.GameFile, *, gm, name: str | None, restore: bool = False, uid: UUID | None = None) -> Game:
    fields = data.game.model_dump(exclude={"started_at"})
    fields |= {f: _seed(fields[f]) for f in ("camp_seed", "deal_seed", "order_seed")}
    fields["name"] = fields["name"] if restore else copy_name(name or fields["name"])
    if uid is not None:
        fields["uid"] = uid
    game = Game.objects.create(**fields, started_at=data.game.started_at)
    if gm is not None:
        game.gms.add(gm)
    seats: dict[int | None, Seat] = {}
    for s in data.seats:
        seat = Seat.objects.create(
            game=game,
            number=s.number,
            player_name=s.player_name,
            camp=s.camp,
            dealt_hand=s.dealt_hand,
            signed_in_at=s.signed_in_at,
        )
        for h in s.holders:
            SeatHolder.objects.create(seat=seat, player_name=h.player_name, since=h.since, reason=h.reason)
        seats[s.number] = seat
    phases = [
        Phase.objects.create(
            game=game,
            kind=p.kind,
            number=p.number,
            starts_at=p.starts_at,
            ends_at=p.ends_at,
            status=p.status,
            closed_at=p.closed_at,
            announced_end=p.announced_end,
        )
        for p in data.phases
    ]
    messages: dict[int | None, Message] = {
        m.id: Message.objects.create(
            game=game,
            seat=seats.get(m.seat),
            sender_name=m.sender_name,
            text=m.text,
            parsed=m.parsed or {},
            forum_at=m.forum_at,
        )
        for m in data.messages
    }
    v2 = data.format == FORMAT
    model = schema.InputV2 if v2 else schema.InputV1
    for raw in data.inputs:
        i = model.model_validate(raw)
        kind, payload = (i.kind, raw["payload"]) if v2 else _input_v1(i.model_dump())
        rec = Input.objects.create(
            game=game,
            phase=phases[i.phase],
            seat=seats[i.seat],
            kind=kind,
            payload=payload,
            forum_at=i.forum_at,
            seq=i.seq,
            message=messages.get(i.message),
        )
        if isinstance(i, schema.InputV2):
            void = i.void
        else:
            void = i.reason or "" if i.status == "voided" else None
        if void is not None:
            InputVoid.objects.create(input=rec, by=gm, reason=void)
    replay = storage.snapshots_rebuild(game)
    for phase in phases:
        if phase.pk in replay.closed:
            state, result = replay.closed[phase.pk]
            write_announcements(game=game, phase=phase, state=state, result=result)
    drafts = drafts_restore(game, phases, data.announcements)
    detail = {"inputs": len(data.inputs), **({"drafts": drafts.detail()} if data.announcements is not None else {})}
    open_phase = next((p for p in phases if p.status == Phase.Status.OPEN), None)
    if not restore and game.status == Game.Status.RUNNING and open_phase is not None:  # not a second live game
        open_phase.paused_remaining = max(open_phase.ends_at - timezone.now(), timedelta(0))
        open_phase.save(update_fields=["paused_remaining"])
        game.status = Game.Status.PAUSED
        game.save(update_fields=["status"])
        detail["paused"] = True
    audit.record(game, gm, AuditLog.Action.GAME_IMPORT, detail)
    return game


def copy_name(name: str) -> str:
    """An imported game never takes the name of a game already here: "X(副本)", then "X(副本2)" …"""
    if not Game.objects.filter(name=name).exists():
        return name
    for n in range(1, 1000):
        candidate = f"{name}(副本{n if n > 1 else ''})"[-100:]
        if not Game.objects.filter(name=candidate).exists():
            return candidate
    return name


def listed_on_home(games):
    """The games the public home page lists: an imported game only once the 天神 has started its clock (继续)."""
    imported = AuditLog.objects.filter(game=OuterRef("pk"), action=AuditLog.Action.GAME_IMPORT)
    resumed = AuditLog.objects.filter(game=OuterRef("pk"), action=AuditLog.Action.GAME_RESUME)
    return games.exclude(Exists(imported) & ~Exists(resumed))


def _input_v1(i: dict) -> tuple[str, dict]:
    """Format 1 (three tables): the same input, as the codec's payload (players by seat number)."""
    if i["kind"] == "order":
        payload = {"order": i["order"]}
        if i.get("source") and i["source"] != "player":
            payload |= {"source": i["source"], "seed": i.get("seed")}
        return "order", payload
    if i["kind"] == "vote":
        return "vote", {("change" if i["change"] else "for"): i["target"], **({"edited": True} if i["edited"] else {})}
    payload = {f: i[f] for f in ACTION_FIELDS if f != "cost" and i.get(f) not in (None, "", False)}
    if i.get("target") is not None:
        payload["target"] = i["target"]
    return "action", payload


# --- backup and restore (manage.py backup / restore) -------------------------------------------------------------


def backup_entry(game: Game) -> dict[str, Any]:
    """One game of a backup file: its identity (so a restore knows it, whatever its name), its export, the user names
    of its 天神, each seat's private link (so a restore keeps them) and its audit history (so a restore keeps it)."""
    return {
        "uid": str(game.uid),
        "gms": sorted(game.gms.values_list("username", flat=True)),
        "export": export_game(game),
        "links": {str(n): token for n, token in game.seats.values_list("number", "token")},
        "audit": [
            {
                "action": a.action,
                "at": a.at.isoformat(),
                "actor": a.actor.username if a.actor else None,
                "detail": a.detail,
            }
            for a in AuditLog.objects.filter(game=game).select_related("actor").order_by("at", "id")
        ],
    }


def backup_parse(raw: bytes | str) -> schema.BackupFile:
    """A backup file, every game of it checked (its shape, then each export as an upload is) before anything is
    written; ImportRefused names the first problem and where it is."""
    data = _json(raw)
    if not isinstance(data, dict) or data.get("format") not in schema.BACKUP_FORMATS:
        raise ImportRefused(f"这不是 backup 命令写的备份文件(需要 format = {schema.BACKUP_FORMAT})")
    if schema.depth(data, schema.MAX_DEPTH + 4) > schema.MAX_DEPTH + 3:  # games → 第 n 局 → export → the export
        raise ImportRefused(f"JSON 嵌套太深(每局最多 {schema.MAX_DEPTH} 层)")
    if (nul := schema.nul_at(data)) is not None:
        raise ImportRefused(f"{schema.where_said(nul)}:不能含有 NUL 字符(\\u0000)")
    try:
        backup = schema.BackupFile.model_validate(data)
    except ValidationError as exc:
        raise ImportRefused(schema.first_problem(exc)) from None
    for n, entry in enumerate(backup.games, 1):
        try:
            _table_check(validate(entry.export))
        except ImportRefused as exc:
            raise ImportRefused(f"第 {n} 局(games · 第 {n} 项 · export)· {exc}") from None
    return backup


@dataclass
class Restored:
    game: Game | None  # None: skipped, the same game is already there (`already`)
    name: str
    missing_gms: list[str]
    new_links: list[str]  # the seats whose link clashed with one in use, and were given a new one
    already: Game | None = None
    rows: dict[str, int] = field(default_factory=dict)  # what was written: seats, inputs, audit rows


def same_game(entry: schema.BackupGame) -> Game | None:
    """The game of this database that is the entry's game: by its identity; a file of format 1 has none, so there the
    same name with the same default-order seed (128 random bits) and the same seated players."""
    if entry.uid is not None:
        return Game.objects.filter(uid=entry.uid).first()
    game = entry.export["game"]
    players = sorted(str(s.get("player_name")) for s in entry.export.get("seats", []))
    for candidate in Game.objects.filter(name=game["name"], order_seed=_seed(game.get("order_seed"))):
        if sorted(candidate.seats.values_list("player_name", flat=True)) == players:
            return candidate
    return None


def restore_game(entry: schema.BackupGame, *, gm=None) -> Restored:
    """One checked game of a backup, put back whole under its name and identity: replayed as an import is, running as
    it was; attached to the 天神 named in the file whose accounts exist (never created) and to `gm`; each seat keeps its
    private link unless another seat already uses it; its audit history kept, with a line saying it was restored.
    Skipped only when that same game is already here (`same_game`), whatever the names. The caller holds the
    transaction."""
    from django.contrib.auth import get_user_model

    name = entry.export["game"]["name"]
    if (already := same_game(entry)) is not None:
        return Restored(None, name, [], [], already=already)
    game = import_game(entry.export, gm=gm, restore=True, uid=entry.uid)
    accounts = {u.username: u for u in get_user_model().objects.filter(username__in=entry.gms)}
    game.gms.add(*accounts.values())
    missing = [g for g in entry.gms if g not in accounts]
    new_links = []
    for seat in game.seats.order_by("number"):
        link = entry.links.get(str(seat.number))
        if link is None:
            continue
        if Seat.objects.filter(token=link).exclude(pk=seat.pk).exists():
            new_links.append(f"{seat.number} 号 {seat.player_name}")
            continue
        Seat.objects.filter(pk=seat.pk).update(token=link)
    AuditLog.objects.filter(
        game=game, action=AuditLog.Action.GAME_IMPORT
    ).delete()  # replaced by the history and the line below
    if entry.audit:
        actors = {u.username: u for u in get_user_model().objects.filter(username__in={a.actor for a in entry.audit})}
        rows = AuditLog.objects.bulk_create(
            AuditLog(
                game=game,
                actor=actors.get(a.actor or ""),
                action=a.action,
                detail=a.detail if a.actor in actors or not a.actor else {**a.detail, "restored_actor": a.actor},
            )
            for a in entry.audit
        )
        for row, a in zip(rows, entry.audit, strict=True):  # `at` is auto_now_add: set back as it was
            row.at = a.at
        AuditLog.objects.bulk_update(rows, ["at"], batch_size=500)
    audit.record(
        game,
        gm,
        AuditLog.Action.GAME_RESTORE,
        {"missing_gms": missing, "new_links": new_links, "history": len(entry.audit)},
    )
    written = {
        "seats": Seat.objects.filter(game=game).count(),
        "inputs": Input.objects.filter(game=game).count(),
        "audit": AuditLog.objects.filter(game=game).count(),
    }
    return Restored(game, name, missing, new_links, rows=written)
