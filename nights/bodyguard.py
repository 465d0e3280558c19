"""B1–B5: how the night's hits on one player take cards, and the order the 天神 would pick.

Every hit takes the first card of the order, except an aimed shot (B3), which takes the card it names. A standing
保镖 stops the hits that reach it, and so every card after it, until it has been hit by two different kinds in the
same night (B1, B2); 绝杀 ignores it (B4). B5: among all orders of application, the one that takes the most cards,
and among those the one whose lost cards sit earliest.

`cards_taken` is exact without trying orders. Aimed shots go first (a later one can only miss a card another hit took).
What is left is taken from the front, so the lost cards are the aimed ones plus a prefix of the rest; the longest
prefix is found by counting: a plain card costs any one hit, a 保镖 already hit by an aimed shot costs one more hit of
any other kind (or a 绝杀), a fresh 保镖 costs a 绝杀 or two hits of different kinds. `brute_force` tries every order
and is the oracle of the property test.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from moderator.game.state import Card

AIMED = "瞄准狙击"
DOOM = "绝杀"
# B1: the eight kinds of attack a 保镖 tells apart (绝杀, execution and 圣人 ignore it: B4).
STRIKE_KINDS = (
    "杀手普通攻击",
    "杀手一击必杀",
    "狼人普通攻击",
    "狼人一击必杀",
    "普通狙击",
    AIMED,
    "束魂失败",
    "巫医失败",
)


@dataclass(frozen=True)
class Strike:
    kind: str  # one of STRIKE_KINDS, or DOOM
    aimed: int | None = None  # card uid, for AIMED only
    tag: int = 0  # the caller's reference (which action), for attribution

    def __post_init__(self) -> None:
        # B1 counts kinds: a misspelt kind would be a ninth one, and a 保镖 would wrongly fall to two hits of one kind
        if self.kind not in STRIKE_KINDS and self.kind != DOOM:
            raise ValueError(f"not a kind of attack a 保镖 tells apart (B1): {self.kind!r}")


def simulate(
    hand: Sequence[Card], hits: Sequence[Strike], is_guard: Callable[[Card], bool]
) -> list[tuple[Card, Strike]]:
    """Apply hits one after another in the given order; return the cards lost with the hit that took each."""
    cards = list(hand)
    marks: dict[int, set[str]] = {}
    lost: list[tuple[Card, Strike]] = []

    def strike(card: Card, hit: Strike) -> None:
        if hit.kind != DOOM and is_guard(card):
            kinds = marks.setdefault(card.uid, set())
            kinds.add(hit.kind)
            if len(kinds) < 2:
                return
        cards.remove(card)
        lost.append((card, hit))

    for hit in hits:
        if hit.kind == AIMED:
            target = next((c for c in cards if c.uid == hit.aimed), None)
            if target is not None:
                strike(target, hit)
        elif cards:
            strike(cards[0], hit)
    return lost


def _rank(hand: Sequence[Card], lost: list[tuple[Card, Strike]]) -> tuple[int, tuple[int, ...]]:
    where = {c.uid: i for i, c in enumerate(hand)}
    return (-len(lost), tuple(sorted(where[c.uid] for c, _ in lost)))


def brute_force(hand: Sequence[Card], hits: Sequence[Strike], is_guard: Callable[[Card], bool]) -> frozenset[int]:
    """The oracle: every order of application; the best one's lost card uids (B5)."""
    best: tuple[tuple[int, tuple[int, ...]], frozenset[int]] | None = None
    seen: set[tuple[tuple[str, int | None], ...]] = set()
    for order in itertools.permutations(hits):
        key = tuple((h.kind, h.aimed) for h in order)
        if key in seen:
            continue
        seen.add(key)
        lost = simulate(hand, order, is_guard)
        rank = _rank(hand, lost)
        if best is None or rank < best[0]:
            best = (rank, frozenset(c.uid for c, _ in lost))
    return best[1] if best else frozenset()


def _max_pairs(counts: Counter[str]) -> int:
    total = sum(counts.values())
    return min(total // 2, total - max(counts.values(), default=0))


def _plan(plain: int, primed: int, fresh: int, counts: Counter[str], dooms: int) -> int | None:
    """How many 绝杀 to spend on fresh 保镖 so that a prefix with these cards can be taken; None if it cannot."""
    normals = sum(counts.values())
    for spent in range(min(dooms, fresh) + 1):
        pairs = fresh - spent
        if pairs <= _max_pairs(counts) and plain + primed <= dooms - spent + normals - 2 * pairs:
            return spent
    return None


def cards_taken(
    hand: Sequence[Card], hits: Sequence[Strike], is_guard: Callable[[Card], bool]
) -> list[tuple[Card, Strike]]:
    """B5 without search: the cards the best order takes, each with the hit that takes it, in application order."""
    order: list[Strike] = [h for h in hits if h.kind == AIMED]
    rest = [c for c in hand if not any(h.aimed == c.uid and not is_guard(c) for h in order)]
    primed = {h.aimed for h in order if h.aimed is not None}
    takers = [h for h in hits if h.kind != AIMED]
    counts = Counter(h.kind for h in takers if h.kind != DOOM)
    dooms = sum(1 for h in takers if h.kind == DOOM)
    depth, spent = 0, 0
    for d in range(len(rest), 0, -1):
        guards = [c for c in rest[:d] if is_guard(c)]
        n_primed = sum(1 for c in guards if c.uid in primed)
        plan = _plan(d - len(guards), n_primed, len(guards) - n_primed, counts, dooms)
        if plan is not None:
            depth, spent = d, plan
            break
    order += _sequence(rest[:depth], takers, primed, spent, is_guard)
    return simulate(hand, order, is_guard)


def _sequence(prefix: list[Card], takers: list[Strike], primed: set[int], spent: int, is_guard) -> list[Strike]:
    """An application order that takes `prefix` whole: pairs of different kinds (largest kinds first) for the fresh
    保镖 that get no 绝杀, one hit for every other card; then whatever is left over."""
    pool: dict[str, list[Strike]] = {}
    for h in takers:
        pool.setdefault(h.kind, []).append(h)
    dooms = pool.pop(DOOM, [])

    def take_pair() -> list[Strike]:
        a, b = sorted((k for k in pool if pool[k]), key=lambda k: -len(pool[k]))[:2]
        return [pool[a].pop(), pool[b].pop()]

    def take_one() -> list[Strike]:
        if dooms:
            return [dooms.pop()]
        kind = max((k for k in pool if pool[k]), key=lambda k: len(pool[k]))
        return [pool[kind].pop()]

    fresh = [c for c in prefix if is_guard(c) and c.uid not in primed]
    doomed = {c.uid: dooms.pop() for c in fresh[:spent]}
    paired = {c.uid: take_pair() for c in fresh[spent:]}
    out: list[Strike] = []
    for card in prefix:
        if card.uid in doomed:
            out.append(doomed[card.uid])
        elif card.uid in paired:
            out += paired[card.uid]
        else:
            out += take_one()
    return out + dooms + [h for hs in pool.values() for h in hs]
