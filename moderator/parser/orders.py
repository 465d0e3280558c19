"""Discard orders (丢牌顺序, docs/rules.md O1–O3): from the player's list to the full order of the hand.

The seed's own example — 「我按下列先后顺序丢牌(排在前面的先丢):诅咒/庇佑、禁锢/反狙击手、束魂、杀手」 — names the
privilege cards only; commoners then go first (docs/parser.md). A 庶民 named fewer times than held brings the others
next to it. "底牌是X" / "X做底牌" puts X last. "其余随意" puts the unnamed cards there, in their current order.
Whether the 底牌 is a privilege card (O2) is the engine's verdict, not the parser's.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cards import catalogue as cat

from . import aliases as al
from .positions import chinese_number

_CARDS = sorted(al.CARD_TABLE, key=len, reverse=True)
_COUNT_BEFORE = re.compile(r"(\d+|[一二两三四五六])\s*张\s*")
_COUNT_AFTER = re.compile(r"\s*(?:[x*×]\s*(\d+)|(\d+|[一二两三四五六])\s*张)")
_FILL = re.compile(
    r"(?:其余|其他|其它|剩下|剩余|别的)(?:的)?(?:牌)?(?:都)?(?:随意|随便|不变|照旧|按原(?:来的)?顺序|无所谓|任意)?"
)
_BOTTOM_AFTER = re.compile(r"\s*(?:做|当|作为|作|为|放|是|当做|当作)\s*$")
_NUMBERING = re.compile(r"(?:\d+|[一二三四五六七八九十]+|[①-⑩])\s*[.、):]|\(\s*\d+\s*\)|[①-⑩]")
_SKIP = sorted(
    """
    丢牌顺序 丢牌次序 顺序 次序 如下 先丢 再丢 后丢 最后丢 丢 然后 接着 之后 再 先 首先 其次 最后
    是 为 的 牌 张 我 按 照 改为 改成 新的 新 和 及 谢谢 天神 依次 排在 前面 后面 第一 都 吧
    了 请
    """.split(),
    key=len,
    reverse=True,
)
# The first of _CARDS / _SKIP written at a place, in one call rather than a loop over them
_CARD_AT = re.compile("|".join(map(re.escape, _CARDS)))
_SKIP_AT = re.compile("|".join(map(re.escape, _SKIP)))
_BOTTOM_WORDS = ("做", "当", "作为", "作", "为", "放", "是", "当做", "当作")  # _BOTTOM_AFTER's words
_QUIET = frozenset(" \t\r\n,、;:。.!?~/|-—>→⇒<()[]【】\"'“”‘’「」*#=+…")


@dataclass
class OrderParse:
    items: list[str] = field(default_factory=list)  # cards in the order written (庶民 repeated as counted)
    bottom: str | None = None
    fill_at: int | None = None  # index in items where 其余 goes
    unknown: list[str] = field(default_factory=list)


COMMENT = re.compile(r"[(\[【]([^()\[\]【】\n]{3,})[)\]】]")


def _comment(found: re.Match) -> str:
    """A comment in brackets after a card ("杀手(最后一张杀手当底牌)") names no card of the order: it only says, at
    most, that the card before it is the 底牌."""
    return "(底)" if "底" in found.group(1) else " "


def _bottom_before(norm: str, i: int) -> bool:
    """_BOTTOM_AFTER.search(norm[:i]) ("杀手做底牌"), looking back over the spaces before i only, not the whole text
    before it."""
    k = i
    while k > 0 and norm[k - 1].isspace():
        k -= 1
    return any(norm.endswith(w, 0, k) for w in _BOTTOM_WORDS)


@dataclass
class _Scan:
    """A list being read: its text, what was read so far, whether the next card named is the 底牌 ("底牌是杀手"),
    and where the words read as no card began."""

    norm: str
    out: OrderParse = field(default_factory=OrderParse)
    want_bottom: bool = False
    unknown_start: int | None = None

    def flush(self, j: int) -> None:
        """The words read as no card end before j: one fragment of `unknown`."""
        if self.unknown_start is not None:
            frag = self.norm[self.unknown_start : j].strip()
            if frag:
                self.out.unknown.append(frag)
            self.unknown_start = None


def _quiet_char(s: _Scan, i: int) -> int | None:
    """Spaces and punctuation between the cards."""
    return i + 1 if s.norm[i] in _QUIET else None


def _list_number(s: _Scan, i: int) -> int | None:
    """A list's number, "1." "(2)" "③", not inside a word."""
    m = _NUMBERING.match(s.norm, i)
    return m.end() if m and (i == 0 or not s.norm[i - 1].isalnum()) else None


def _card(s: _Scan, i: int) -> int | None:
    """A card, with its count before it ("两张庶民") or after it ("庶民x2", "庶民两张"); the 底牌 when one was
    announced before it."""
    before = _COUNT_BEFORE.match(s.norm, i)
    j = before.end() if before else i
    found = _CARD_AT.match(s.norm, j)
    if found is None:
        return None
    count = (chinese_number(before.group(1)) or 1) if before else 1
    i = j + len(found.group(0))
    after = _COUNT_AFTER.match(s.norm, i)
    if after and not before:
        count = chinese_number(after.group(1) or after.group(2)) or 1
        i = after.end()
    value = al.CARD_TABLE[found.group(0)]
    s.out.items.extend([value] * min(count, 50))
    if s.want_bottom:
        s.out.bottom, s.want_bottom = value, False
    return i


def _bottom_word(s: _Scan, i: int) -> int | None:
    """底牌: the card before it when it says so ("杀手做底牌"), else the next card named ("底牌是杀手")."""
    if not s.norm.startswith("底牌", i):
        return None
    if s.out.items and _bottom_before(s.norm, i):
        s.out.bottom = s.out.items[-1]
    else:
        s.want_bottom = True
    return i + 2


def _bottom_mark(s: _Scan, i: int) -> int | None:
    """杀手(底), 杀手垫底: the card before it is the 底牌 (the next card, when none is before it)."""
    if s.norm[i] != "底" and not s.norm.startswith(("垫底", "做底", "当底"), i):
        return None
    if s.out.items:
        s.out.bottom = s.out.items[-1]
    else:
        s.want_bottom = True
    return i + (1 if s.norm[i] == "底" else 2)


def _fill(s: _Scan, i: int) -> int | None:
    """其余随意: the cards not named go here."""
    m = _FILL.match(s.norm, i)
    if m is None:
        return None
    s.out.fill_at = len(s.out.items)
    return m.end()


def _skipped(s: _Scan, i: int) -> int | None:
    """The words of a list that say nothing about the order (丢牌顺序, 然后, 最后…)."""
    skip = _SKIP_AT.match(s.norm, i)
    return i + len(skip.group(0)) if skip else None


# What a list is read as at each place, tried in order: each reads its words and says where they end, or None.
_READERS: tuple[Callable[[_Scan, int], int | None], ...] = (
    _quiet_char,
    _list_number,
    _card,
    _bottom_word,
    _bottom_mark,
    _fill,
    _skipped,
)


def scan(norm: str) -> OrderParse:
    """The cards of a discard order in the order written, its 底牌, where 其余 goes, and the words read as no card."""
    s = _Scan(COMMENT.sub(_comment, norm))
    i, n = 0, len(s.norm)
    while i < n:
        for read in _READERS:
            at = read(s, i)
            if at is not None:
                s.flush(i)
                i = at
                break
        else:  # no reader reads it: a character of no card
            if s.unknown_start is None:
                s.unknown_start = i
            i += 1
    s.flush(n)
    return s.out


def full_order(parsed: OrderParse, hand: Sequence[str]) -> tuple[list[str] | None, list[str]]:
    """(the full order, reasons it is refused)."""
    held = Counter(hand)
    if not hand:
        return None, ["不知道你手里有哪些牌,无法排丢牌顺序"]
    if not parsed.items:
        return None, ["丢牌顺序里没有找到牌名;请按先丢到后丢列出你的牌,如“庶民、束魂、保镖、杀手”"]
    written = Counter(parsed.items)
    problems = _not_held(written, held)
    if problems:
        return None, problems
    items, fill_at = _with_commoners(parsed, held, written)
    missing = _missing(items, held, hand)
    if missing and fill_at is None:
        return None, [f"丢牌顺序少了:{'、'.join(missing)};请把手里每张牌都排进去(或写“其余随意”)"]
    if missing:
        items[fill_at:fill_at] = missing
    if parsed.bottom is not None:
        idx = len(items) - 1 - items[::-1].index(parsed.bottom)
        items.append(items.pop(idx))
    return items, []


def _not_held(written: Counter[str], held: Counter[str]) -> list[str]:
    """Why the cards written cannot be the hand's: a card not held, or written more times than held."""
    problems: list[str] = []
    for card, m in written.items():
        if card not in held:
            problems.append(f"你手里没有{card}牌")
        elif m > held[card] and card != cat.COMMONER:
            problems.append(f"你只有{held[card]}张{card},顺序里写了{m}次")
        elif m > held[card]:
            problems.append(f"你只有{held[card]}张庶民,顺序里写了{m}张")
    return problems


def _with_commoners(parsed: OrderParse, held: Counter[str], written: Counter[str]) -> tuple[list[str], int | None]:
    """The cards written, with the 庶民 held but not written next to the last one written (first, when none is), and
    where 其余 then goes."""
    items = list(parsed.items)
    fill_at = parsed.fill_at
    extra = held[cat.COMMONER] - written[cat.COMMONER]
    if extra <= 0:
        return items, fill_at
    if written[cat.COMMONER]:
        last = max(i for i, c in enumerate(items) if c == cat.COMMONER)
        items[last + 1 : last + 1] = [cat.COMMONER] * extra
        if fill_at is not None and fill_at > last:
            fill_at += extra
    else:
        items[0:0] = [cat.COMMONER] * extra
        if fill_at is not None:
            fill_at += extra
    return items, fill_at


def _missing(items: list[str], held: Counter[str], hand: Sequence[str]) -> list[str]:
    """The cards held that the order leaves out, in the hand's order."""
    missing: list[str] = []
    left = held - Counter(items)
    for card in hand:
        if left[card] > 0:
            missing.append(card)
            left[card] -= 1
    return missing
