"""Discard orders (O1–O3): the checks of an order, the seeded default order, and an order message's verdict."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Sequence

from cards.catalogue import is_privilege
from cards.dealing import DealError
from moderator.game.state import Card, GameState, Order, Verdict, evolve
from moderator.game.validate import InputRefused, check_time, living_seat


def check_order(hand: Sequence[str], order: Sequence[str]) -> list[str]:
    """O1, O2: a discard order must list every card of the hand exactly as often as held and end on a privilege card.
    Returns every problem in Chinese (empty list: the order is accepted)."""
    problems: list[str] = []
    held, named = Counter(hand), Counter(order)
    for card in named - held:
        if card not in held:
            problems.append(f"你手里没有“{card}”")
        else:
            problems.append(f"“{card}”你只有 {held[card]} 张,顺序里写了 {named[card]} 次")
    for card, n in (held - named).items():
        problems.append(f"顺序里漏了“{card}”" + (f"({n} 张)" if n > 1 else ""))
    if order and not is_privilege(order[-1]):
        problems.append(f"底牌(最后一张)必须是特权牌,不能是“{order[-1]}”(O2)")
    return problems


def seat_seed(game_seed: int | str, seat_number: int) -> str:
    """O1: one seat's order seed, derived from the game's recorded order seed. A hash of "seed:seat": no two seats
    or games share one, and a seat's seed (stored with its drawn order) does not give the game's seed away."""
    return hashlib.sha256(f"{game_seed}:{seat_number}".encode()).hexdigest()


def random_order(hand: Sequence[str], seed: int | str) -> tuple[str, ...]:
    """O1: the order drawn for a player who sent none: a seeded shuffle whose 底牌 is a privilege card."""
    rng = random.Random(seed)
    cards = list(hand)
    rng.shuffle(cards)
    privileged = [i for i, c in enumerate(cards) if is_privilege(c)]
    if not privileged:
        raise DealError("这手牌没有特权牌,无法定底牌(O2)")
    last = rng.choice(privileged)
    cards.append(cards.pop(last))
    return tuple(cards)


def submit_order(state: GameState, order: Order) -> tuple[GameState, Verdict]:
    try:
        check_time(state, order.at)
        seat = living_seat(state, order.by, "发送者")
        if not state.orders_open:
            raise InputRefused("现在不能改丢牌顺序:只能在《游戏者名单》发布后 24 小时内,或天神宣布的改顺序期内(O1, O3)")
        problems = check_order(seat.names, order.order)
        if problems:
            raise InputRefused(";".join(problems))
        if state.bottoms_fixed and seat.hand and order.order[-1] != seat.hand[-1].name:
            raise InputRefused(f"底牌一经确定整局不能更换:你的底牌是“{seat.hand[-1].name}”(O2, O3)")
        pool = list(seat.hand)
        hand: list[Card] = []
        for name in order.order:
            card = next(c for c in pool if c.name == name)
            pool.remove(card)
            hand.append(card)
        if state.bottoms_fixed and seat.hand:  # keep the very 底牌 card, not just one of its name
            hand = [c for c in hand if c.uid != seat.hand[-1].uid] + [seat.hand[-1]]
        state = state.with_seat(evolve(seat, hand=tuple(hand)))
        return evolve(state, ordered=state.ordered | {seat.name}), Verdict(True)
    except InputRefused as exc:
        return state, Verdict.refuse(str(exc))
