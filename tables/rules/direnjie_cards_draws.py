"""狄仁杰 card game: where a player may take cards from — the consolation draw of step 2 and the refill of step 4.

The rules (``direnjie_cards``) and the list of legal moves (``direnjie_cards_moves``) both ask these functions."""

from __future__ import annotations

import itertools
from typing import Any

from .base import RuleError, require, seat_param

FROM_DECK = "deck"
NONE = "none"


def steal_targets(s: Any, seat: int) -> list[int]:
    """The other players a card may be drawn from at random: those holding three cards or more."""
    return [p for p in range(s.n) if p != seat and len(s.hands[p]) >= 3]


def consolation_sources(s: Any, seat: int) -> list[Any]:
    """Step 2 brought nothing: one card from the deck, from another player with three cards or more, or none."""
    return [*([FROM_DECK] if s.deck else []), *steal_targets(s, seat), NONE]


def check_consolation(s: Any, seat: int, source: Any) -> int | None:
    """The seat the consolation card is drawn from (None: the deck or none), or RuleError."""
    if source == FROM_DECK:
        require(bool(s.deck), "牌库已经没有牌了。")
        return None
    if source == NONE:
        return None
    target = seat_param(s, {"source": source}, "source", "抽牌对象")
    require(target in steal_targets(s, seat), "只能从有三张或以上手牌的其他玩家手中随机抽取。")
    return target


def check_refill(s: Any, seat: int, sources: Any) -> None:
    """Step 4: at most two cards, from the deck or from two different players with three cards or more who did not
    give a card this turn."""
    require(isinstance(sources, list) and len(sources) <= 2, "补手牌最多两张:sources 是最多两项的列表。")
    seats = [seat_param(s, {"t": x}, "t", "抽牌对象") for x in sources if x != FROM_DECK]
    require(len(set(seats)) == len(seats), "从其他玩家手中抽牌时,两张必须来自两位不同的玩家。")
    require(sources.count(FROM_DECK) <= len(s.deck), "牌库已经没有足够的牌。")
    for target in seats:
        require(target != seat, "不能从自己手中抽牌。")
        require(target not in s.given, f"{s.players[target]} 本回合已经传过牌给你,不能从其手中抽牌。")
        require(len(s.hands[target]) >= 3, f"{s.players[target]} 手牌少于三张,不能从其手中抽牌。")


def refill_choices(s: Any, seat: int) -> list[list[Any]]:
    """Every refill step 4 allows now (none, one or two sources, in order), as ``check_refill`` judges them."""
    singles: list[Any] = [FROM_DECK, *range(s.n)]
    candidates = [[], *([x] for x in singles), *(list(pair) for pair in itertools.product(singles, repeat=2))]
    return [c for c in candidates if _passes(check_refill, s, seat, c)]


def _passes(check: Any, s: Any, seat: int, value: Any) -> bool:
    try:
        check(s, seat, value)
    except RuleError:
        return False
    return True
