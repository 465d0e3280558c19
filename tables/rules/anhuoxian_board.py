"""暗火线's table: the state, the circle of seats and what every card effect may do to it (draw, damage).

Pure rules; see ``anhuoxian.py`` for the flow and the rulings, ``anhuoxian_effects.py`` for the cards' effects."""

from __future__ import annotations

import dataclasses
from typing import Any

from . import anhuoxian_cards as cards
from .base import TableState, emit, later_rng

SWAT, CITIZEN, TERRORIST = "特警", "市民", "绑匪"
BASE_HP = 4


@dataclasses.dataclass
class State(TableState):
    players: list[str]
    seed: int
    options: dict[str, Any]
    roles: list[str] = dataclasses.field(default_factory=list)
    hp: list[int] = dataclasses.field(default_factory=list)
    max_hp: list[int] = dataclasses.field(default_factory=list)
    alive: list[bool] = dataclasses.field(default_factory=list)
    hands: list[list[str]] = dataclasses.field(default_factory=list)
    vest: list[bool] = dataclasses.field(default_factory=list)
    env: list[str | None] = dataclasses.field(default_factory=list)
    env_turn: list[int] = dataclasses.field(default_factory=list)
    effects: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # {"kind","by","targets"}
    deck: list[str] = dataclasses.field(default_factory=list)
    discard_pile: list[str] = dataclasses.field(default_factory=list)
    current: int = 0
    turn_no: int = 0
    phase: str = "play"  # play | dying | discard | over
    used: list[str] = dataclasses.field(default_factory=list)  # equip / shoot / skill / grenade / double
    dying: dict[str, Any] | None = None
    peeks: list[list[list[Any]]] = dataclasses.field(default_factory=list)  # per seat: [target, role]
    winning_side: str | None = None
    rng_count: int = 0
    log: list[dict[str, Any]] = dataclasses.field(default_factory=list)


# --- circle -------------------------------------------------------------------------------------------------------


def living(s: State, without_storage: bool = False) -> list[int]:
    """Living seats in clockwise order; optionally without the players who have a 储藏室."""
    return [p for p in range(len(s.players)) if s.alive[p] and not (without_storage and s.env[p] == cards.STORAGE)]


def clockwise(ring: list[int], seat: int, step: int = 1) -> int:
    return ring[(ring.index(seat) + step) % len(ring)]


def seats_adjacent(s: State, a: int, b: int) -> bool:
    ring = living(s)
    return a != b and a in ring and b in ring and b in (clockwise(ring, a, 1), clockwise(ring, a, -1))


def hand_limit(s: State, seat: int) -> int:
    return 4 if s.env[seat] == cards.SUPERMARKET else 3


def smoked(s: State, seat: int) -> bool:
    return any(e["kind"] == cards.SMOKE and seat in e["targets"] for e in s.effects)


def flashed(s: State, seat: int) -> bool:
    return any(e["kind"] == cards.FLASH and seat in e["targets"] for e in s.effects)


def full_hp(s: State, seat: int) -> bool:
    return s.hp[seat] == s.max_hp[seat]


def draw(s: State, seat: int, count: int) -> list[str]:
    got = []
    for _ in range(count):
        if not s.deck:
            if not s.discard_pile:
                break
            s.deck, s.discard_pile = s.discard_pile, []
            later_rng(s).shuffle(s.deck)
            emit(s, "牌库摸完:弃牌洗混形成新的牌库。")
        got.append(s.deck.pop())
    s.hands[seat].extend(got)
    if got:
        emit(s, f"你摸到:{'、'.join(got)}。", to=[seat])
    return got


def damage(s: State, target: int, amount: int, source: int | None, attack: str) -> None:
    """Deal damage (HP never below 0); a hit ends flashes on the target, a grenade ends smoke."""
    end_flash(s, target)
    if attack == cards.GRENADE:
        for effect in [e for e in s.effects if e["kind"] == cards.SMOKE and target in e["targets"]]:
            s.effects.remove(effect)
            emit(s, f"{s.players[target]} 的烟雾弹因手雷提前失效。")
    if amount <= 0:
        emit(s, f"{s.players[target]} 未受到伤害({attack})。")
        return
    s.hp[target] = max(0, s.hp[target] - amount)
    emit(s, f"{s.players[target]} 受到 {amount} 点伤害({attack}),血量 {s.hp[target]}/{s.max_hp[target]}。")
    if s.hp[target] == 0:
        if s.dying is None:
            s.dying = {"queue": [], "source": source, "askers": [], "idx": 0}
        if target not in s.dying["queue"]:
            s.dying["queue"].append(target)


def end_flash(s: State, target: int) -> None:
    for effect in [e for e in s.effects if e["kind"] == cards.FLASH and target in e["targets"]]:
        s.effects.remove(effect)
        who = "、".join(s.players[t] for t in effect["targets"])
        emit(s, f"{who} 的闪光弹因受到攻击提前失效。")
