"""Dealing (docs/rules.md S1, S3) and discard orders (O1, O2). Pure: no Django.

Every random draw takes a seed so that the same seed always gives the same deal or order (DEVELOPERS: determinism).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from cards.catalogue import CAMP_KILLER, CAMP_WEREWOLF, COMMONER, KILLER, WEREWOLF, is_privilege

MIN_COMMONERS, MAX_COMMONERS = 1, 2  # S3: every hand holds 1 or 2 庶民
_MAX_TRIES = 10_000


class DealError(ValueError):
    """The table cannot be dealt (or a hand entered by hand breaks S3). The message says why, in Chinese."""


@dataclass(frozen=True)
class Deal:
    hands: tuple[tuple[str, ...], ...]  # one hand per seat, in seat order, cards in the order dealt
    left_out: tuple[str, ...]  # S1: the cards that stay out (1 with the standard table)
    seed: int


def deal(camps: Sequence[str], deck: Sequence[str], hand_size: int, seed: int) -> Deal:
    """S3: deal `hand_size` cards to each seat. The 杀手 card to the killer, the 狼人 card to the werewolf, nobody else
    either; no two cards of one privilege type in a hand; 1–2 commoners per hand; the rest at random."""
    dealt = len(camps) * hand_size
    if dealt > len(deck):
        raise DealError(f"牌不够:{len(camps)} 人 × {hand_size} 张 = {dealt} 张,牌堆只有 {len(deck)} 张")
    rng = random.Random(seed)
    for _ in range(_MAX_TRIES):
        hands = _try_deal(list(camps), list(deck), hand_size, rng)
        if hands is not None:
            used = Counter(c for h in hands for c in h)
            left = Counter(deck) - used
            return Deal(tuple(tuple(h) for h in hands), tuple(sorted(left.elements(), key=list(deck).index)), seed)
    raise DealError("无法按发牌原则(S3)发出这副牌:请检查人数、每人张数和牌堆")


def _try_deal(camps: list[str], deck: list[str], hand_size: int, rng: random.Random) -> list[list[str]] | None:
    hands: list[list[str]] = [[] for _ in camps]
    pool = list(deck)
    for camp, card in ((CAMP_KILLER, KILLER), (CAMP_WEREWOLF, WEREWOLF)):
        for seat, seat_camp in enumerate(camps):
            if seat_camp == camp and card in pool:
                hands[seat].append(card)
                pool.remove(card)
    # Nobody else may get 杀手 or 狼人: they leave the pool whether dealt or not.
    pool = [c for c in pool if c not in (KILLER, WEREWOLF)]
    rng.shuffle(pool)
    free = [hand_size - len(h) for h in hands]
    kept = pool[: sum(free)]
    commoners = kept.count(COMMONER)
    if not len(camps) * MIN_COMMONERS <= commoners <= len(camps) * MAX_COMMONERS:
        return None
    extra = commoners - len(camps) * MIN_COMMONERS
    doubles = set(rng.sample(range(len(camps)), extra))
    for seat, hand in enumerate(hands):
        hand.extend([COMMONER] * (2 if seat in doubles else 1))
    privileges = sorted((c for c in kept if c != COMMONER), key=lambda c: (-kept.count(c), rng.random()))
    for card in privileges:
        open_seats = [s for s, h in enumerate(hands) if len(h) < hand_size and card not in h]
        if not open_seats:
            return None
        weights = [hand_size - len(hands[s]) for s in open_seats]
        hands[rng.choices(open_seats, weights)[0]].append(card)
    for hand in hands:
        rng.shuffle(hand)
    return hands


def check_hands(
    camps: Sequence[str], hands: Sequence[Sequence[str]], deck: Sequence[str], *, mid_game: bool = False
) -> list[str]:
    """S3 for hands entered by hand: every problem, in Chinese, one line each (empty list: the deal is valid).
    `mid_game`: a table taken over mid-way (hands in discard order, cards already lost): only what no loss can
    undo — no card beyond the deck, 杀手/狼人 only in their camp's hand, no privilege twice in one hand."""
    problems: list[str] = []
    over = Counter(c for h in hands for c in h) - Counter(deck)
    for card, n in over.items():
        problems.append(f"牌堆里没有这么多“{card}”:多了 {n} 张")
    for seat, (camp, hand) in enumerate(zip(camps, hands, strict=True), start=1):
        who = f"{seat} 号座位"
        for card, owner_camp in ((KILLER, CAMP_KILLER), (WEREWOLF, CAMP_WEREWOLF)):
            if card in hand and camp != owner_camp:
                problems.append(f"{who}不是{owner_camp},不能拿“{card}”牌(S3)")
            if card not in hand and camp == owner_camp and card in deck and not mid_game:
                problems.append(f"{who}是{owner_camp},必须拿到“{card}”牌(S3)")
        doubled = [c for c, n in Counter(hand).items() if n > 1 and is_privilege(c)]
        for card in doubled:
            problems.append(f"{who}有两张“{card}”:同一种特权牌不能发给同一人(S3)")
        commoners = list(hand).count(COMMONER)
        if not mid_game and not MIN_COMMONERS <= commoners <= MAX_COMMONERS:
            problems.append(f"{who}有 {commoners} 张庶民牌:每人必须有 1 到 2 张(S3)")
    return problems
