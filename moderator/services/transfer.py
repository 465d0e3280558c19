"""Export and import of a whole game as JSON: the table, its seeds and every input of the log — enough to replay to
the same state (the derived verdicts, snapshots, results and announcement drafts are rebuilt on import).

Format 2 stores each input as the codec's payload; format 1 (before the one input log) is still read."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from moderator.models import AuditLog, Game, Input, InputVoid, Message, Phase, Seat, SeatHolder
from moderator.services import play
from moderator.services.announce import write_announcements

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
)
ACTION_FIELDS = ("card", "use", "position", "into", "side", "mode", "manifesto", "change", "cost")


def _t(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _dt(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def export_game(game: Game) -> dict[str, Any]:
    seats = list(game.seats.order_by("number"))
    number = {s.pk: s.number for s in seats}
    phases = list(game.phases.order_by("starts_at", "id"))
    index = {p.pk: i for i, p in enumerate(phases)}
    msgs = list(game.messages.order_by("forum_at", "id"))
    msg_index = {m.pk: i for i, m in enumerate(msgs)}
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
    }


@transaction.atomic
def import_game(data: dict[str, Any], *, gm=None, name: str | None = None) -> Game:
    if not isinstance(data, dict) or data.get("format") not in FORMATS:
        raise play.PlayError(f"这不是本系统导出的游戏文件(需要 format = {FORMAT})")
    fields = {f: data["game"][f] for f in GAME_FIELDS if f in data["game"]}
    if name:
        fields["name"] = name
    game = Game.objects.create(**fields, started_at=_dt(data["game"].get("started_at")))
    if gm is not None:
        game.gms.add(gm)
    seats = {}
    for s in data["seats"]:
        seat = Seat.objects.create(
            game=game,
            number=s["number"],
            player_name=s["player_name"],
            camp=s["camp"],
            dealt_hand=s["dealt_hand"],
            signed_in_at=_dt(s.get("signed_in_at")),
        )
        for h in s.get("holders", []):
            SeatHolder.objects.create(
                seat=seat, player_name=h["player_name"], since=_dt(h["since"]), reason=h["reason"]
            )
        seats[s["number"]] = seat
    phases = [
        Phase.objects.create(
            game=game,
            kind=p["kind"],
            number=p["number"],
            starts_at=_dt(p["starts_at"]),
            ends_at=_dt(p["ends_at"]),
            status=p["status"],
            closed_at=_dt(p.get("closed_at")),
            announced_end=_dt(p.get("announced_end")),
        )
        for p in data["phases"]
    ]
    messages = {
        m["id"]: Message.objects.create(
            game=game,
            seat=seats.get(m["seat"]),
            sender_name=m["sender_name"],
            text=m["text"],
            parsed=m.get("parsed") or {},
            forum_at=_dt(m["forum_at"]),
        )
        for m in data.get("messages", [])
    }
    for i in data["inputs"]:
        kind, payload = _input(i) if data["format"] == FORMAT else _input_v1(i)
        rec = Input.objects.create(
            game=game,
            phase=phases[i["phase"]],
            seat=seats[i["seat"]],
            kind=kind,
            payload=payload,
            forum_at=_dt(i["forum_at"]),
            seq=i["seq"],
            message=messages.get(i.get("message")),
        )
        void = i.get("void") if data["format"] == FORMAT else (i["reason"] if i.get("status") == "voided" else None)
        if void is not None:
            InputVoid.objects.create(input=rec, by=gm, reason=void)
    replay = play.snapshots_rebuild(game)
    for phase in phases:
        if phase.pk in replay.closed:
            state, result = replay.closed[phase.pk]
            nxt = next((p for p in phases if p.starts_at == phase.ends_at), None)
            write_announcements(game=game, phase=phase, state=state, result=result, next_phase=nxt)
    AuditLog.objects.create(game=game, actor=gm, action="导入游戏", detail={"inputs": len(data["inputs"])})
    return game


def _input(i: dict) -> tuple[str, dict]:
    return i["kind"], i["payload"]


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
