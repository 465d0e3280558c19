"""Frozen state and inputs of the rules engine. Identifiers in English; card/privilege names in Chinese (catalogue)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any, TypeVar, cast

NIGHT, DAY = "night", "day"
PHASE_MINUTES = 24 * 60  # T1: a phase lasts 24 hours unless the game says otherwise


@dataclass(frozen=True)
class Card:
    """One physical card: `uid` tells apart two cards of one name (two 庶民), so an aimed shot keeps its card (B3)."""

    uid: int
    name: str


@dataclass(frozen=True)
class Amoeba:
    """M1–M4: what an 阿米巴 card has become and what is left of it."""

    form: str | None = None  # the type it works as now (None: not transformed yet)
    spent: int = 0  # AP spent through the current form (M2: at most 4; 保镖 upkeep counts)
    pending: str | None = None  # the form ordered and not done yet
    done_at: tuple[str, int] | None = None  # (kind, number) of the phase at whose end it completes (M1)
    forms_used: tuple[str, ...] = ()  # every form it has been or is becoming (M1)
    guarding: bool = False  # as a 保镖: its upkeep was paid tonight, so it stands tonight (M2, B6)


AMOEBA_CAP = 4  # M2


@dataclass(frozen=True)
class SeatSpec:
    """A seat as dealt: `hand` in discard order (the last card is the 底牌)."""

    name: str
    camp: str
    hand: tuple[str, ...]
    dealt: tuple[str, ...] | None = None  # the cards as dealt, for M1 (default: `hand`)


@dataclass(frozen=True)
class SeatState:
    name: str
    camp: str
    hand: tuple[Card, ...]
    dealt_types: frozenset[str]
    ap: int = 0
    alive: bool = True
    side: str | None = None  # S4: 杀手 | 狼人 (self-chosen only)
    mode: str | None = None  # S4: 共赢 | 独赢; None after night 1 = independent
    amoebas: dict[int, Amoeba] = field(default_factory=dict)  # by card uid
    doom_used: frozenset[str] = frozenset()  # N11: card names (绝杀/特赦 or 阿米巴) whose 绝杀 is spent
    pardons_given: frozenset[tuple[str, str]] = frozenset()  # N12: (card name, target) pairs already used
    pardoned_once: bool = False  # N12: pardoned successfully once
    saint_done: bool = False  # N14: 圣人 has taken effect
    actions: tuple[Action, ...] = ()  # accepted this phase (kept per seat so that submitting stays linear)
    ledger: tuple[LedgerRow, ...] = ()  # AP6

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.hand)

    @property
    def co_win(self) -> bool:
        return self.camp == "自选" and self.mode == "共赢"


@dataclass(frozen=True)
class Action:
    """A privilege use (or the S4 stance) as sent; `at` is minutes since the phase began (forum time, T3)."""

    by: str
    use: str
    card: str | None = None
    target: str | None = None
    position: int | None = None
    into: str | None = None
    side: str | None = None
    mode: str | None = None
    manifesto: str | None = None
    at: float = 60
    change: bool = False
    # Filled in when accepted:
    form: str | None = None  # the card type it acted as (an 阿米巴's form, or the card itself)
    cost: int = 0
    aimed_uid: int | None = None  # B3: the card aimed at, fixed when the shot is entered
    seq: int = 0  # order of acceptance in the phase


@dataclass(frozen=True)
class Vote:
    """A vote post (D1–D3): `target` for an original vote, `change` for a change post."""

    by: str
    target: str | None = None
    change: str | None = None
    at: float = 60
    edited: bool = False


@dataclass(frozen=True)
class Order:
    """A discard-order message (O1–O3)."""

    by: str
    order: tuple[str, ...]
    at: float = 60


@dataclass(frozen=True)
class Pass:
    """T5: the player says they do nothing this phase ("今晚空过"), so the 天神 waits for them no longer."""

    by: str
    at: float = 60


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    reason: str = ""
    cost: int = 0

    @classmethod
    def refuse(cls, reason: str) -> Verdict:
        return cls(False, reason)


@dataclass(frozen=True)
class LedgerRow:
    """AP6: every AP change with its reason; a balance is always the sum of its ledger."""

    seat: str
    phase: str
    delta: int
    balance: int
    reason: str


@dataclass(frozen=True)
class VoteState:
    target: str
    at: float
    changed: bool = False
    edited: bool = False


@dataclass(frozen=True)
class PendingExecution:
    """D6: an executed card, taken out of the hand until the end of the next night (N12: it may be pardoned)."""

    card: Card
    index: int


@dataclass(frozen=True)
class Arson:
    """N14: an arson sent and not yet in effect."""

    by: str
    target: str
    sent: tuple[str, int]
    blocked: bool = False  # imprisoned on the night it was sent (amendment example 1)
    card: str = "纵火/圣人"


@dataclass(frozen=True)
class CloseResult:
    """What a close produced, for expectations and announcements."""

    phase: tuple[str, int]
    lost: dict[str, dict[str, int]] = field(default_factory=dict)  # name -> {特权: n, 庶民: m}
    saved: tuple[str, ...] = ()
    executed: tuple[str, ...] = ()
    tally: dict[str, int] = field(default_factory=dict)
    died: tuple[str, ...] = ()
    window: bool = False
    silence: bool = False
    winner: str | None = None
    events: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class GameState:
    seats: tuple[SeatState, ...]
    phase_kind: str = NIGHT
    phase_no: int = 1
    phase_open: bool = True
    phase_minutes: float = PHASE_MINUTES  # as announced: a moved deadline (T4) need not fall on a whole minute
    action_seq: int = 0  # order of acceptance of this phase's actions
    votes: dict[str, VoteState] = field(default_factory=dict)
    vote_changed: frozenset[str] = frozenset()  # D3: players whose change right is used or forfeited
    passed: frozenset[str] = frozenset()  # T5: said they pass this phase
    # N-kill ruling: the 杀人宣言 of a seat's messages tonight that were not refused (a row accepted) but whose attacks
    # all were: it counts whole, riding with the seat's next accepted attack that night (and is published with it)
    manifesto_bank: dict[str, str] = field(default_factory=dict)
    pending_executions: dict[str, PendingExecution] = field(default_factory=dict)
    unpardonable: frozenset[str] = frozenset()  # N14: 圣人 took effect today: no pardon tonight
    arsons: tuple[Arson, ...] = ()
    next_day_modifiers: tuple[tuple[str, ...], ...] = ()  # N13: (use, target, by) sent at night, for the next count
    streaks: dict[tuple[str, str, str], int] = field(default_factory=dict)  # N7/N8: (binder, use, target) -> nights
    saints_armed: frozenset[str] = frozenset()  # N14: used 圣人 last night: effective in today's vote
    saved: frozenset[str] = frozenset()  # N7/N8: saved last night: no vote today
    dealt_total: int = 0
    lost_total: int = 0  # O3: losses announced so far
    windows: int = 0  # O3: windows opened so far (0, 1 or 2)
    orders_open: bool = True  # O1 (night 1) or an O3 window: orders are accepted this phase
    bottoms_fixed: bool = False  # O2: the 底牌 is fixed once the first 24 hours are over
    ordered: frozenset[str] = frozenset()  # O1: seats whose discard order exists (sent and accepted, or drawn)
    silence: bool = False  # T7 announced
    winner: str | None = None
    last: CloseResult | None = None

    # --- lookups -------------------------------------------------------------------------------------------------
    index: dict[str, int] = field(default_factory=dict)  # name -> seat position; seats never move, so it is shared

    def __post_init__(self) -> None:
        if len(self.index) != len(self.seats):
            object.__setattr__(self, "index", {s.name: i for i, s in enumerate(self.seats)})

    def seat(self, name: str) -> SeatState:
        return self.seats[self.index[name]]

    def has(self, name: str) -> bool:
        return name in self.index

    @cached_property
    def actions(self) -> tuple[Action, ...]:
        """Every action accepted this phase, in the order accepted."""
        return tuple(sorted((a for s in self.seats for a in s.actions), key=lambda a: a.seq))

    @property
    def ledger(self) -> tuple[LedgerRow, ...]:
        return tuple(row for s in self.seats for row in s.ledger)

    @property
    def alive(self) -> tuple[SeatState, ...]:
        return tuple(s for s in self.seats if s.alive)

    @property
    def phase(self) -> tuple[str, int]:
        return (self.phase_kind, self.phase_no)

    @property
    def phase_label(self) -> str:
        return f"第{self.phase_no}{'夜' if self.phase_kind == NIGHT else '天'}"

    def with_seat(self, seat: SeatState) -> GameState:
        seats = list(self.seats)
        seats[self.index[seat.name]] = seat
        return evolve(self, seats=tuple(seats))

    def with_action(self, seat: SeatState, act: Action) -> GameState:
        """Record an accepted action on its seat, numbered in acceptance order."""
        act = evolve(act, seq=self.action_seq)
        seats = list(self.seats)
        seats[self.index[seat.name]] = evolve(seat, actions=(*seat.actions, act))
        return evolve(self, seats=tuple(seats), action_seq=self.action_seq + 1)  # with_seat and the count at once


def next_phase(kind: str, number: int) -> tuple[str, int]:
    """T1: night 1, day 1, night 2, day 2 …"""
    return (DAY, number) if kind == NIGHT else (NIGHT, number + 1)


_FIELD_NAMES: dict[type, tuple[frozenset[str], int, bool]] = {}  # fields, how many, whether __post_init__
_D = TypeVar("_D")


def evolve(obj: _D, **changes: Any) -> _D:
    """`dataclasses.replace` for the engine's frozen dataclasses, at a fraction of its cost (a close makes thousands:
    every AP change replaces a seat and the state). The fields are copied as they are and `changes` set, then
    `__post_init__` runs as after `__init__`; a cached property is not copied (it is computed again): when the
    instance holds nothing but its fields (no cached property computed), its dict is copied whole."""
    cls = type(obj)
    info = _FIELD_NAMES.get(cls)
    if info is None:
        names = frozenset(f.name for f in fields(cast(Any, obj)))
        info = _FIELD_NAMES[cls] = (names, len(names), hasattr(cls, "__post_init__"))
    names, count, post = info
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field {sorted(set(changes) - names)}")
    new: Any = object.__new__(cls)
    src, dst = obj.__dict__, new.__dict__
    if len(src) == count:  # every field is in it (set by __init__), so nothing else
        dst.update(src)
    else:
        for name in names:
            dst[name] = src[name]
    dst.update(changes)
    if post:
        new.__post_init__()
    return new
