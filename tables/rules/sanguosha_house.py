"""三国杀 as seed 002 plays it: its 详细规则 and 转世规则/暗魂, shared by the physical tracker and the electronic mode.

Pure rules, no Django.  Options a table ticks at creation (``options``):

* ``seat_lot`` — 详细规则 1 「座位即出牌顺序抽签决定」: the service draws the seats with ``draw_seats`` from a seed it
  records as ``seat_seed`` (public: the seats are public anyway) and keeps the order typed as ``typed``.
* ``ghosts`` — 详细规则 2 and 暗魂: a player who goes out becomes a ghost by identity (忠臣 罗汉, 反贼 玄武, 内奸 祝由),
  usable once.
* ``last_blood`` — 详细规则 2 without ghost cards: the player who went out first in the series' previous game
  (``protected``, a seat) keeps their last point of 体力 until somebody else is out, or unless the one hurting them is
  a player they attacked.
* ``countdown`` — 详细规则 3: with three players left, after three rounds every player loses 1 体力 at the start of
  each round, all at once; if that would put them all out together, the countdown carries on to the next round.
* ``rebirth`` — 转世规则 (it needs the generals' kingdoms and the unused generals: in the electronic mode, only with
  ``generals``).

Rulings (also in docs/tables.md): a round starts with the lord's turn (the lord is alive while the game goes on); the
countdown's three free rounds are the first three rounds that start with three players (or fewer) left; players who
were reborn count as players at the table for the countdown and as out for victory.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .base import emit, later_rng
from .sanguosha_generals import GENERALS, LOYAL, REBEL, RENEGADE

GHOSTS = {LOYAL: "罗汉", REBEL: "玄武", RENEGADE: "祝由"}
GHOST_TEXT = {
    "罗汉": "为附体玩家抵挡一点伤害(体力 +1),该玩家不能拒绝,且需弃掉一张手牌",
    "玄武": "从牌堆摸一张牌,与被附体玩家手上由暗魂指定的一张牌交换(手牌数不变)",
    "祝由": "在被附体玩家的出牌阶段命令他弃掉所有手牌,再从牌堆摸同样多的牌(手牌数不变)",
}
COUNTDOWN_FREE_ROUNDS = 3
# The ruling where both rules are on, said where the host ticks them and on the table's countdown line.
COUNTDOWN_WITH_REBIRTH = "转世和三人倒计时都开时:转世回来的玩家也算在场的人数,场上常常多于三人,倒计时很少开始。"
RULE_NAMES = {
    "seat_lot": "座位抽签",
    "ghosts": "暗魂",
    "last_blood": "最后一滴血受规则保护",
    "countdown": "三人倒计时",
    "rebirth": "转世",
}


def draw_seats(names: list[str], seed: int) -> list[str]:
    """详细规则 1: the seats (= the turn order) drawn by lot from ``seed``."""
    seats = list(names)
    random.Random(f"seats:{seed}").shuffle(seats)
    return seats


def rebirth_threshold(n: int) -> int:
    """转世规则: reborn at 4 sacrificed cards, 3 in a 4–5 player game."""
    return 3 if n <= 5 else 4


def rebirth(s: Any, p: int, offerings: int, kept: str) -> bool:
    """转世规则, in both modes: ``p`` (out, with ``offerings`` sacrificed cards) is reborn as the first general of their
    own kingdom turned from the unused ones (``s.pool``; a 群 general as the first turned), with 1 体力; their old
    general goes back to the unused.  With none of their kingdom left they cannot be reborn: ``no_rebirth`` is set
    and the public line says they keep ``kept`` (what they received).  True when reborn."""
    old = s.generals[p]
    kingdom = GENERALS[old][0] if old in GENERALS else "群"
    later_rng(s).shuffle(s.pool)
    turned = [g for g in s.pool if kingdom == "群" or GENERALS[g][0] == kingdom][:1]
    name = s.players[p]
    if not turned:
        s.no_rebirth[p] = True
        emit(s, f"{name} 无法转世:未使用的武将中没有{kingdom}国武将。保留{kept},不再接受献祭。")
        return False
    new = turned[0]
    s.pool.remove(new)
    if old is not None:
        s.pool.append(old)
    s.generals[p] = new
    s.alive[p], s.reborn[p] = True, True
    s.max_hp[p], s.hp[p] = GENERALS[new][2], 1
    emit(
        s,
        f"转世:{name} 转世为 {new}({GENERALS[new][0]}),体力 1/{s.max_hp[p]},手牌 {offerings} 张;"
        "下次轮到他时正常行动。判定胜负时仍视为已出局。",
    )
    return True


def misplaced_generals(s: Any) -> list[str]:
    """The invariant of 挑选武将 and 转世: each of the 25 generals is in exactly one place — in front of a player (out
    or not: a player's general goes back to the unused ones only when they are reborn), in the unused pile
    (``s.pool``), or among the candidates of a player who has not chosen (the others' unchosen candidates wait for
    everyone to have chosen).  Returns what is wrong, as sentences (empty: nothing)."""
    if not s.generals:
        return []
    places: Counter[str] = Counter(g for g in s.generals if g is not None)
    places.update(s.pool)
    for p, offered in enumerate(s.candidates):
        waiting = s.phase == "generals" and p != s.lord
        if s.generals[p] is None or waiting:
            places.update(g for g in offered if g != s.generals[p])
    wrong = [f"{g} 出现 {k} 次" for g, k in places.items() if k != 1]
    wrong += [f"{g} 不见了" for g in GENERALS if g not in places]
    wrong += [f"{g} 不是武将" for g in places if g not in GENERALS]
    return wrong


def intro(options: dict[str, Any], players: list[str], digital: bool) -> list[str]:
    """The public lines that open a game: which house rules this table plays, and the seats drawn by lot."""
    lines = []
    if options.get("seat_seed") is not None:
        seats = "、".join(f"{p} {name}" for p, name in enumerate(players))
        lines.append(f"座位抽签(抽签种子 {options['seat_seed']}):座位即出牌顺序 —— {seats}。")
    on = [name for key, name in RULE_NAMES.items() if key != "seat_lot" and options.get(key)]
    on = [name for name in on if not (digital and name == "转世" and not options.get("generals"))]
    if on:
        lines.append("本桌规则:" + "、".join(on) + "。")
    protected = protected_seat(options, digital)
    if protected is not None and 0 <= protected < len(players):
        lines.append(
            f"最后一滴血:{players[protected]} 上一局第一个出局,本局不能第一个出局 —— 直到有人先出局,"
            f"或者攻击他的人是他攻击过的人。"
        )
    return lines


def protected_seat(options: dict[str, Any], digital: bool) -> int | None:
    """The seat whose last point of 体力 the rules protect this game, if the table plays 最后一滴血."""
    playing = options.get("last_blood")
    seat = options.get("protected")
    return seat if playing and isinstance(seat, int) and not isinstance(seat, bool) else None


def someone_out(s: Any) -> bool:
    """详细规则 2 「只要有人先出局了」: a fact of the game's history (``kills`` keeps every first death), so it stays
    true when the player who went out is reborn."""
    return bool(s.kills)


def still_protected(protected: int | None, target: int, source: int | None, anyone_out: bool, hit: list[int]) -> bool:
    """详细规则 2: the protected player's last point holds until someone else is out, unless the attacker is a
    player they attacked."""
    return protected == target and not anyone_out and (source is None or source not in hit)


def countdown_step(s: Any, standing: list[int]) -> str | None:
    """At the start of a round (the lord's turn): start or advance the three-player countdown.

    Returns ``"lose"`` when every player at the table loses 1 体力 now, ``"carry"`` when that would put them all out
    together (the countdown carries on), else None.  ``s`` has ``round_no`` and ``three_from``."""
    s.round_no += 1
    if len(standing) > 3:
        return None
    if s.three_from is None:
        s.three_from = s.round_no
    if s.round_no - s.three_from < COUNTDOWN_FREE_ROUNDS:
        return None
    return "carry" if all(s.hp[p] <= 1 for p in standing) else "lose"


def countdown_text(s: Any, standing: list[int]) -> str:
    """The countdown as the public page shows it."""
    if s.options.get("rebirth") and s.three_from is None:
        return f"三人倒计时:还有 {len(standing)} 名玩家,剩三名时开始倒数。{COUNTDOWN_WITH_REBIRTH}"
    if s.three_from is None:
        return f"三人倒计时:还有 {len(standing)} 名玩家,剩三名时开始倒数。"
    left = s.three_from + COUNTDOWN_FREE_ROUNDS - s.round_no
    if left > 0:
        return f"三人倒计时:再过 {left} 轮,之后每轮开始时所有人各失去 1 点体力。"
    return "三人倒计时:每轮开始时所有人同时各失去 1 点体力(如会一起出局,则延续到下一轮)。"
