"""The declared shape of an exported game: every field typed and bounded to its column, card, camp,
kind and phase names known, phases in order, references inside the file. An import is checked against this before
a row is written, and refused with the first problem named.

Format 2 stores an input as {kind, payload, phase, seat, forum_at, seq, message, void}; format 1 (before the one
input log) as {kind: action|vote|order, per-kind fields, status, reason}. Announcement drafts (with their posted
and corrected marks) are optional: a file without them predates them."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails

from cards.catalogue import CAMPS, CARD_NAMES, SEATS_MAX, USES
from moderator.rules.codec import INPUT_KINDS

# Limits no real game reaches (500 seats and 50,000 inputs in 8.3 MB would run past the worker's 60 s). A
# played 7-seat game of 30 phases has a few hundred inputs and PMs and is well under 1 MB; 3,000 inputs (480 KB)
# import in 3.8 s and their dashboard renders in 4.0 s on a 2-core machine at load 10.
MAX_BYTES = 2 * 1024 * 1024
MAX_PHASES = 200  # 100 days and nights
MAX_INPUTS = 3000
MAX_MESSAGES = 3000
MAX_DRAFTS = 3000
LIMITS = (  # the file's key, its limit, what one item is
    ("seats", SEATS_MAX, "名玩家"),
    ("phases", MAX_PHASES, "个时段"),
    ("inputs", MAX_INPUTS, "条输入"),
    ("messages", MAX_MESSAGES, "条私信"),
    ("announcements", MAX_DRAFTS, "篇公告草稿"),
)
MAX_DEPTH = 12  # nesting of any value (a parsed PM is 4 deep)
MAX_INT = 2**31 - 1
MAX_POST = 400_000  # a dawn quotes every 杀人宣言 of the night (each up to 20,000 characters)
EARLIEST, LATEST = datetime(2000, 1, 1, tzinfo=UTC), datetime(2200, 1, 1, tzinfo=UTC)


def _in_range(value: datetime) -> datetime:
    if value.tzinfo is None:
        raise ValueError("时间必须带时区")
    if not EARLIEST <= value < LATEST:
        raise ValueError("时间必须在 2000 年到 2200 年之间")
    return value


Time = Annotated[datetime, AfterValidator(_in_range)]
Int = Annotated[int, Field(ge=0, le=MAX_INT, strict=True)]
SeatNo = Annotated[int, Field(ge=1, le=SEATS_MAX, strict=True)]
Name = Annotated[str, Field(min_length=1, max_length=60)]
CardName = Literal[CARD_NAMES]  # type: ignore[valid-type]
Seed = Annotated[str, Field(pattern=r"^[0-9]{1,40}$")] | Annotated[int, Field(ge=0, lt=10**40, strict=True)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=False, str_max_length=20000)


class GameIn(Strict):
    name: Annotated[str, Field(min_length=1, max_length=100)]
    seats_count: SeatNo
    hand_size: Annotated[int, Field(ge=1, le=50, strict=True)]
    deck: Annotated[list[CardName], Field(max_length=1000)]
    left_out: Annotated[list[CardName], Field(max_length=1000)] = []
    camp_seed: Seed | None = None
    deal_seed: Seed | None = None
    order_seed: Seed
    phase_seconds: Annotated[int, Field(ge=60, le=30 * 24 * 3600, strict=True)]
    status: Literal["setup", "running", "paused", "finished"]
    winner: Annotated[str, Field(max_length=10)] = ""
    start_kind: Literal["night", "day"] = "night"
    start_number: Annotated[int, Field(ge=1, le=1000, strict=True)] = 1
    initial_ap: dict[Name, Annotated[int, Field(ge=0, le=10000, strict=True)]] = {}
    hands_are_orders: bool = False
    input_seq: Int = 0
    self_entry: bool = False  # players enter on their private pages
    started_at: Time | None = None


class HolderIn(Strict):
    player_name: Name
    since: Time
    reason: Annotated[str, Field(max_length=20)]


class SeatIn(Strict):
    number: SeatNo
    player_name: Name
    camp: Literal[CAMPS]  # type: ignore[valid-type]
    dealt_hand: Annotated[list[CardName], Field(max_length=50)]
    signed_in_at: Time | None = None
    holders: Annotated[list[HolderIn], Field(max_length=100)] = []


class PhaseIn(Strict):
    kind: Literal["night", "day"]
    number: Annotated[int, Field(ge=1, le=1000, strict=True)]
    starts_at: Time
    ends_at: Time
    status: Literal["open", "closed"]
    closed_at: Time | None = None
    announced_end: Time | None = None

    @model_validator(mode="after")
    def _ends_after_start(self) -> PhaseIn:
        if self.ends_at <= self.starts_at:
            raise ValueError("时段的结束时间必须晚于开始时间")
        if self.ends_at - self.starts_at > timedelta(days=60):
            raise ValueError("时段不能长于 60 天")
        return self


class MessageIn(Strict):
    id: Int
    seat: SeatNo | None = None
    sender_name: Annotated[str, Field(max_length=60)]
    text: Annotated[str, Field(max_length=20000)]
    forum_at: Time
    parsed: dict[str, Any] | None = None


class ActionPayload(Strict):
    model_config = ConfigDict(extra="forbid")
    card: CardName | None = None
    use: Literal[USES]  # type: ignore[valid-type]
    target: SeatNo | None = None
    position: Annotated[int, Field(ge=-50, le=50, strict=True)] | None = None
    into: CardName | None = None
    side: Literal["杀手", "狼人"] | None = None
    mode: Annotated[str, Field(max_length=10)] | None = None
    manifesto: Annotated[str, Field(max_length=20000)] | None = None
    change: bool | None = None


class VotePayload(Strict):
    model_config = ConfigDict(extra="forbid")
    for_: SeatNo | None = Field(None, alias="for")
    change: SeatNo | None = None
    edited: bool | None = None


class OrderPayload(Strict):
    model_config = ConfigDict(extra="forbid")
    order: Annotated[list[CardName], Field(max_length=50)]
    source: Annotated[str, Field(max_length=20)] | None = None
    seed: Seed | Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None


class PassPayload(Strict):
    model_config = ConfigDict(extra="forbid")
    pass_: Literal[True] = Field(alias="pass")


PAYLOADS: dict[str, type[Strict]] = {
    "action": ActionPayload,
    "vote": VotePayload,
    "order": OrderPayload,
    "pass": PassPayload,
}
assert set(PAYLOADS) == set(INPUT_KINDS)


class InputCommon(Strict):
    phase: Int
    seat: SeatNo
    forum_at: Time
    seq: Int
    message: Int | None = None


class InputV2(InputCommon):
    kind: Literal[INPUT_KINDS]  # type: ignore[valid-type]
    payload: dict[str, Any]
    void: Annotated[str, Field(max_length=2000)] | None = None

    @model_validator(mode="after")
    def _payload_of_its_kind(self) -> InputV2:
        PAYLOADS[self.kind].model_validate(self.payload)
        return self


class InputV1(InputCommon):
    kind: Literal["action", "vote", "order"]
    order: Annotated[list[CardName], Field(max_length=50)] | None = None
    source: Annotated[str, Field(max_length=20)] | None = None
    seed: Seed | None = None
    target: SeatNo | None = None
    change: bool | None = None
    edited: bool | None = None
    card: CardName | None = None
    use: Literal[USES] | None = None  # type: ignore[valid-type]
    position: Annotated[int, Field(ge=-50, le=50, strict=True)] | None = None
    into: CardName | None = None
    side: Literal["杀手", "狼人", ""] | None = None
    mode: Annotated[str, Field(max_length=10)] | None = None
    manifesto: Annotated[str, Field(max_length=20000)] | None = None
    cost: Annotated[int, Field(ge=0, le=1000)] | None = None
    status: Annotated[str, Field(max_length=20)] | None = None
    reason: Annotated[str, Field(max_length=2000)] | None = None

    @field_validator("card", "into", "side", "mode", "manifesto", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        """Format 1 wrote the action's unused text fields as "" (the old columns were blank, not null)."""
        return None if value == "" else value

    @model_validator(mode="after")
    def _fields_of_its_kind(self) -> InputV1:
        if self.kind == "order" and self.order is None:
            raise ValueError("丢牌顺序缺少 order")
        if self.kind == "vote" and (self.target is None or self.change is None or self.edited is None):
            raise ValueError("投票需要 target、change 和 edited")
        if self.kind == "action" and not self.use:
            raise ValueError("特权行动缺少 use")
        return self


DRAFT_KINDS = ("dawn", "dusk", "vote", "notice", "private")  # Announcement.Kind (checked in transfer_drafts)


class DraftIn(Strict):
    """An announcement draft: its identity, its marks and (unless a PM) its text (moderator.services.transfer_drafts)."""

    phase: Int
    kind: Literal[DRAFT_KINDS]  # type: ignore[valid-type]
    recipient: Annotated[str, Field(max_length=60)] = ""
    title: Annotated[str, Field(min_length=1, max_length=200)]
    digest: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    created_at: Time | None = None
    posted_at: Time | None = None
    corrected_at: Time | None = None
    bbcode: Annotated[str, Field(max_length=MAX_POST)] | None = None
    text: Annotated[str, Field(max_length=MAX_POST)] | None = None

    @model_validator(mode="after")
    def _no_text_of_a_pm(self) -> DraftIn:
        if self.kind == "private" and (self.text is not None or self.bbcode is not None):
            raise ValueError("私信草稿不导出正文")
        return self


class GameFile(Strict):
    format: Literal["direnjie-game/1", "direnjie-game/2"]
    game: GameIn
    seats: Annotated[list[SeatIn], Field(min_length=1, max_length=SEATS_MAX)]
    phases: Annotated[list[PhaseIn], Field(max_length=MAX_PHASES)]
    messages: Annotated[list[MessageIn], Field(max_length=MAX_MESSAGES)] = []
    inputs: Annotated[list[dict[str, Any]], Field(max_length=MAX_INPUTS)]
    # None: a file from before drafts carried their posted mark (transfer_drafts says what that means)
    announcements: Annotated[list[DraftIn], Field(max_length=MAX_DRAFTS)] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> GameFile:
        numbers = [s.number for s in self.seats]
        if sorted(numbers) != list(range(1, len(numbers) + 1)):
            raise ValueError("座位号必须是 1 到人数,各一次")
        if len(self.seats) != self.game.seats_count:
            raise ValueError("座位数和 seats_count 不一致")
        names = [s.player_name for s in self.seats]
        if len(set(names)) != len(names):
            raise ValueError("玩家论坛ID重复")
        _phases_in_order(self.phases)
        model = InputV2 if self.format == "direnjie-game/2" else InputV1
        message_ids = {m.id for m in self.messages}
        if len(message_ids) != len(self.messages):
            raise ValueError("消息编号重复")
        seqs = set()
        for n, raw in enumerate(self.inputs, start=1):
            try:
                item = model.model_validate(raw)
            except ValidationError as exc:
                raise ValueError(f"第 {n} 条输入:{first_problem(exc)}") from None
            if item.phase >= len(self.phases) or item.seat > len(numbers):
                raise ValueError(f"第 {n} 条输入:时段或座位不存在")
            if item.message is not None and item.message not in message_ids:
                raise ValueError(f"第 {n} 条输入:引用的消息不存在")
            if item.seq in seqs:
                raise ValueError(f"第 {n} 条输入:录入序号 {item.seq} 重复")
            seqs.add(item.seq)
        for n, draft in enumerate(self.announcements or [], start=1):
            if draft.phase >= len(self.phases):
                raise ValueError(f"第 {n} 篇公告草稿:时段不存在")
        return self


def _phases_in_order(phases: list[PhaseIn]) -> None:
    seen = set()
    for i, p in enumerate(phases):
        if (p.kind, p.number) in seen:
            raise ValueError(f"时段重复:{p.kind} {p.number}")
        seen.add((p.kind, p.number))
        if i and p.starts_at < phases[i - 1].starts_at:
            raise ValueError("时段必须按开始时间排列")
        if p.status == "open" and i != len(phases) - 1:
            raise ValueError("只有最后一个时段可以是进行中")


def depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deep a JSON value nests (stops counting past `limit`)."""
    if limit < 0 or not isinstance(value, dict | list):
        return 0
    items = value.values() if isinstance(value, dict) else value
    return 1 + max((depth(v, limit - 1) for v in items), default=0)


def first_problem(exc: ValidationError) -> str:
    """The first error of a validation, in one Chinese sentence: where in the file (its own keys, items counted
    from 1), and what was wrong."""
    err = exc.errors()[0]
    where = _where(err["loc"])
    what = _what(err)
    return f"{where}:{what}" if where else what


def _where(loc: tuple) -> str:
    parts = []
    for p in loc:
        if isinstance(p, int):
            parts.append(f"第 {p + 1} 项")
        elif not (p in _TYPE_TAGS or "[" in p or p.startswith("constrained-")):  # a union's member, not a key
            parts.append(p)
    return " · ".join(parts)


_TYPE_TAGS = {"str", "int", "bool", "float", "list", "dict", "datetime", "none"}
_SAID = {
    "missing": "缺少这一项",
    "extra_forbidden": "多了不认识的一项",
    "string_pattern_mismatch": "格式不对",
    "string_type": "需要文字",
    "int_type": "需要整数",
    "int_parsing": "需要整数",
    "int_from_float": "需要整数",
    "bool_type": "需要 true 或 false",
    "bool_parsing": "需要 true 或 false",
    "dict_type": "需要一个 JSON 对象",
    "model_type": "需要一个 JSON 对象",
    "list_type": "需要一个 JSON 列表",
    "datetime_type": "需要带时区的时间,如 2024-01-01T20:00:00+08:00",
}
_SAID_WITH = {
    "string_too_long": "太长:最多 {max_length} 个字符",
    "string_too_short": "太短:至少 {min_length} 个字符",
    "too_long": "太多:最多 {max_length} 项",
    "too_short": "太少:至少 {min_length} 项",
    "greater_than_equal": "不能小于 {ge}",
    "greater_than": "必须大于 {gt}",
    "less_than_equal": "不能大于 {le}",
    "less_than": "必须小于 {lt}",
}


def _what(err: ErrorDetails) -> str:
    kind, ctx = err["type"], err.get("ctx") or {}
    if kind == "value_error":
        return str(err["msg"]).removeprefix("Value error, ")  # our own validators speak Chinese
    if kind == "literal_error":
        allowed = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        return f"只能是 {'、'.join(allowed)} 之一" if allowed else "不是允许的值"
    if kind.startswith("datetime"):
        return _SAID["datetime_type"]
    if kind in _SAID_WITH:
        try:
            return _SAID_WITH[kind].format(**ctx)
        except KeyError:
            pass
    return _SAID.get(kind, "内容不对")


# --- the backup file (manage.py backup / restore): every game's export, its 天神, its links and its audit ---

# Format 2 knows each game by its identity (`uid`, the model's UUID); format 1 (games by name alone) is still read.
BACKUP_FORMAT = "direnjie-backup/2"
BACKUP_FORMATS = ("direnjie-backup/1", BACKUP_FORMAT)
MAX_BACKUP_GAMES = 10_000
MAX_AUDIT = 20_000  # a long game's log: every input, close, edit of its 天神
Link = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{22,64}$")]


class AuditIn(Strict):
    action: Annotated[str, Field(min_length=1, max_length=40)]
    at: Time
    actor: Annotated[str, Field(max_length=150)] | None = None
    detail: dict[str, Any] = {}


class BackupGame(Strict):
    uid: UUID | None = None  # required in format 2 (BackupFile)
    gms: Annotated[list[Annotated[str, Field(min_length=1, max_length=150)]], Field(max_length=100)] = []
    export: dict[str, Any]  # checked as an export (GameFile) game by game
    links: dict[Annotated[str, Field(pattern=r"^[0-9]{1,3}$")], Link] = {}  # seat number → private link
    audit: Annotated[list[AuditIn], Field(max_length=MAX_AUDIT)] = []


class BackupFile(Strict):
    format: Literal["direnjie-backup/1", "direnjie-backup/2"]
    written_at: str | None = None
    games: Annotated[list[BackupGame], Field(max_length=MAX_BACKUP_GAMES)]

    @model_validator(mode="after")
    def _each_game_once(self) -> BackupFile:
        if self.format == BACKUP_FORMAT:
            seen: set[UUID] = set()
            for n, game in enumerate(self.games, 1):
                if game.uid is None:
                    raise ValueError(f"第 {n} 局没有编号(uid)")
                if game.uid in seen:
                    raise ValueError(f"第 {n} 局的编号(uid)与前面的一局相同:一局游戏只能出现一次")
                seen.add(game.uid)
        return self


def nul_at(value: Any, where: tuple = ()) -> tuple | None:
    """Where the first NUL character is in a JSON value (a key or a text), or None: PostgreSQL stores no NUL."""
    if isinstance(value, str):
        return where if "\x00" in value else None
    if isinstance(value, dict):
        for k, v in value.items():
            if "\x00" in k:
                return (*where, k)
            found = nul_at(v, (*where, k))
            if found is not None:
                return found
    elif isinstance(value, list):
        for n, v in enumerate(value):
            found = nul_at(v, (*where, n))
            if found is not None:
                return found
    return None


def where_said(loc: tuple) -> str:
    """A place in the file in the words of first_problem (its keys, items counted from 1)."""
    return _where(loc)
