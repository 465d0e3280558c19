"""狄仁杰 card game: what a clue is, which requests are banned, which cards answer a request."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .base import require

CATEGORY = {"T": "目标", "W": "凶器", "L": "地点", "M": "丐帮", "A": "杀手"}


def number(card: str) -> int:
    return int(card[1:]) if card[1:] else 0


def public_clues(s: Any) -> list[str]:
    return [clue["cards"][0] for row in s.clues for clue in row if clue["public"]]


def banned(s: Any) -> tuple[set[str], set[int]]:
    """Categories with 5 public clues and numbers with 3 public clues may not be requested."""
    tops = public_clues(s)
    cats = Counter(t[0] for t in tops)
    nums = Counter(number(t) for t in tops)
    return {c for c in "TWL" if cats[c] >= 5}, {k for k in range(1, 7) if nums[k] >= 3}


def request_categories(s: Any) -> list[str]:
    """The categories step 2 may request now (not banned)."""
    cats, _ = banned(s)
    return [c for c in "TWL" if c not in cats]


def request_numbers(s: Any) -> list[int]:
    """The numbers step 2 may request now: 1–5 (6 is only a wild T), not banned."""
    _, nums = banned(s)
    return [k for k in range(1, 6) if k not in nums]


def arrange_clue(cards: list[str], is_killer: bool) -> list[str]:
    """The three cards as [top, middle, bottom], or RuleError explaining which clues exist (``check_clue`` also
    wants them in that order)."""
    require(len(cards) == 3, "一组线索正好是 3 张牌。")
    special = [c for c in cards if c[0] in "MA"]
    pair = [c for c in cards if c[0] not in "MA"]
    if not special:
        require(len(set(cards)) == 1, "基本线索是三张同类别、同号码的牌,例如 W5 W5 W5。")
        return list(cards)
    require(len(special) == 1 and pair[0] == pair[1], "特殊线索是两张相同的牌加一张丐帮牌或杀手牌垫底。")
    bottom = special[0]
    if bottom == "A":
        require(is_killer, "只有本局的杀手才可以把杀手牌放在线索底。")
    else:
        require(
            pair[0] == "T6" or number(pair[0]) == number(bottom),
            f"丐帮牌必须与号码相同(例如 T4 T4 M4),或垫在两张 T6 之下;{pair[0]} 配不上 {bottom}。",
        )
    return [pair[0], pair[1], bottom]


def check_clue(cards: list[str], is_killer: bool) -> list[str]:
    """A clue as submitted, top to bottom: a clue of the hand's cards, its special card at the bottom."""
    arranged = arrange_clue(cards, is_killer)
    require(cards == arranged, f"线索由上到下摆放,垫底的牌放在最后:{' '.join(arranged)}。")
    return arranged


def clue_options(hand: list[str], is_killer: bool) -> list[list[str]]:
    """Every distinct clue the hand can form, as [top, middle, bottom]."""
    counts = Counter(hand)
    out = []
    for card in sorted(c for c, k in counts.items() if c[0] in "TWL" and k >= 2):
        if counts[card] >= 3:
            out.append([card] * 3)
        for bottom in sorted(c for c in counts if c[0] == "M" or (c == "A" and is_killer)):
            if bottom == "A" or card == "T6" or number(card) == number(bottom):
                out.append([card, card, bottom])
    return out


def possible_clue(hand: list[str], is_killer: bool) -> bool:
    return bool(clue_options(hand, is_killer))


def matches(request: dict[str, Any], card: str) -> bool:
    if card[0] in "MA":
        return False
    if card == "T6":
        return True
    if "category" in request:
        return card[0] == request["category"]
    return number(card) == request["number"]


def describe_request(request: dict[str, Any]) -> str:
    return CATEGORY[request["category"]] if "category" in request else f"{request['number']} 号"


def givable(hand: list[str], request: dict[str, Any]) -> list[str]:
    """The cards of ``hand`` that answer ``request`` (a T6 answers any; 丐帮 and 杀手 are never given), each once."""
    return sorted({c for c in hand if matches(request, c)})
