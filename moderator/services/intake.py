"""The 天神's intake: a pasted PM or vote post → the parser's reading → the engine's verdict (a dry run on the
current state, nothing stored) → on confirmation the raw message and its inputs are stored and replayed."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction

from cards.models import DiscardOrder
from moderator import rules
from moderator.models import AuditLog, Game, Message, Phase, Seat
from moderator.parser import parse_pm, parse_vote
from moderator.services import play
from nights.models import Action
from votes.models import Vote

ACTION_KEYS = ("card", "use", "target", "position", "into", "side", "mode", "manifesto", "change")


@dataclass
class Item:
    """One input the parser read, and what the rules say of it now."""

    data: dict
    accepted: bool
    reason: str = ""
    cost: int = 0

    @property
    def kind(self) -> str:
        if "order" in self.data:
            return "order"
        if "for" in self.data or ("change" in self.data and "use" not in self.data):
            return "vote"
        return "action"


@dataclass
class Preview:
    seat: Seat
    phase: Phase
    forum_at: datetime
    text: str
    items: list[Item] = field(default_factory=list)
    refusals: list[dict] = field(default_factory=list)

    @property
    def cost(self) -> int:
        return sum(i.cost for i in self.items if i.accepted)


def parse_message(
    *, game: Game, seat: Seat, text: str, vote_post: bool = False
) -> tuple[list[dict], list[dict], Phase, rules.GameState]:
    phase = play.open_phase(game)
    state = play.game_replay(game).state
    names = list(game.seats.order_by("number").values_list("player_name", flat=True))
    if vote_post:
        result = parse_vote(text, sender=seat.player_name, players=names)
    else:
        hand = list(state.seat(seat.player_name).names)
        result = parse_pm(text, sender=seat.player_name, players=names, hand=hand, phase=phase.kind)
    data = result.to_json()
    return data["inputs"], data["refusals"], phase, state


def _engine_input(seat: Seat, item: dict, at: float) -> rules.Action | rules.Vote | rules.Order:
    by = seat.player_name
    if "order" in item:
        return rules.Order(by, tuple(item["order"]), at)
    if "for" in item:
        return rules.Vote(by, item["for"], None, at)
    if "change" in item and "use" not in item:
        return rules.Vote(by, None, item["change"], at)
    return rules.Action(by=by, at=at, **{k: item[k] for k in ACTION_KEYS if k in item})


def pm_preview(*, game: Game, seat: Seat, text: str, forum_at: datetime, vote_post: bool = False) -> Preview:
    """What the parser understood and what each input would cost or why it would be refused — stores nothing."""
    inputs, refusals, phase, state = parse_message(game=game, seat=seat, text=text, vote_post=vote_post)
    play.check_forum_time(phase, forum_at)
    preview = Preview(seat, phase, forum_at, text, refusals=refusals)
    at = play._minutes(phase, forum_at)
    for item in inputs:
        state, verdict = rules.submit(state, _engine_input(seat, item, at))
        preview.items.append(Item(item, verdict.accepted, verdict.reason, verdict.cost))
    return preview


@transaction.atomic
def pm_confirm(
    *, game: Game, seat: Seat, text: str, forum_at: datetime, user=None, vote_post: bool = False
) -> tuple[Message, list[Item], list[dict]]:
    """Store the raw message forever, then every input it produced, each linked to it (refusals included)."""
    inputs, refusals, _, _ = parse_message(game=game, seat=seat, text=text, vote_post=vote_post)
    message = Message.objects.create(
        game=game,
        seat=seat,
        sender_name=seat.player_name,
        text=text,
        parsed={"inputs": inputs, "refusals": refusals},
        forum_at=forum_at,
        entered_by=user,
    )
    items = []
    for item in inputs:
        _, verdict = input_store(game=game, seat=seat, item=item, forum_at=forum_at, message=message, user=user)
        items.append(Item(item, verdict.accepted, verdict.reason, verdict.cost))
    AuditLog.objects.create(
        game=game,
        actor=user,
        action="录入消息",
        detail={"message": message.pk, "sender": seat.player_name, "inputs": inputs, "refusals": refusals},
    )
    return message, items, refusals


def input_store(*, game: Game, seat: Seat, item: dict, forum_at: datetime, message=None, user=None):
    """One input in the scenario vocabulary, stored through the play services."""
    if "order" in item:
        return play.order_submit(game=game, seat=seat, order=item["order"], forum_at=forum_at, message=message)
    if "for" in item or ("change" in item and "use" not in item):
        name = item.get("for") or item["change"]
        target = game.seats.get(player_name=name)
        return play.vote_submit(
            game=game,
            seat=seat,
            target=target,
            change="for" not in item,
            forum_at=forum_at,
            edited=bool(item.get("edited")),
            message=message,
            entered_by=user,
        )
    payload = {k: item[k] for k in ACTION_KEYS if k in item}
    return play.action_submit(
        game=game, seat=seat, payload=payload, forum_at=forum_at, message=message, entered_by=user
    )


MODELS = {"action": Action, "vote": Vote, "order": DiscardOrder}


@transaction.atomic
def input_void(*, game: Game, kind: str, pk: int, user=None, reason: str = "") -> None:
    """Void an input of the open phase (logged); the phase is replayed without it."""
    model = MODELS[kind]
    rec = model.objects.select_for_update().get(pk=pk, game=game)
    if rec.phase.status != Phase.Status.OPEN:
        raise play.PlayError("这条输入属于已经结束的时段:请用更正功能")
    rec.status, rec.reason = model.Status.VOIDED, f"天神作废:{reason}" if reason else "天神作废"
    rec.save(update_fields=["status", "reason"])
    replay = play.game_replay(game)
    play.verdicts_store(play.phase_inputs(rec.phase), replay)
    AuditLog.objects.create(game=game, actor=user, action="作废输入", detail={"kind": kind, "id": pk, "reason": reason})
