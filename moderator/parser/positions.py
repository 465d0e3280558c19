"""What a pattern reads at a place of normalised text: a card's position in a hand (第三张, 倒数第二张, 从后面数第2张,
位置:倒数第二, 最后一张), a count of repeats (两次, x2), a seat (3号), a time that is no position (第一夜) and 底 in
brackets (杀手(底)).

The patterns are a table of rules tried in order at each place; the direction written after a number (第二张,从后面数)
is read between the positions and the rest.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .tokens import Token

# A number never starts inside a run of digits, and is matched possessively (Chinese numerals: at most four): a run
# of n digits is read once, not once per digit (a position pattern tried at each of them would be quadratic).
NUM = r"(?<!\d)(\d++|[零〇一二两三四五六七八九十]{1,4}+)"
# Not a position: 第一夜, 第3天, 第二轮. Spaces only, never a line break, inside a position.
_NOT_CARD = r"(?![\d零〇一二两三四五六七八九十]|[ \t]*[天夜晚日轮次楼名局回人届])"
_UNIT = r"[ \t]*(?:张|位|个|顺位)?[ \t]*(?:牌)?"
_FROM_BACK = (
    r"从[ \t]*(?:最)?(?:后|后面|后边|后头|底下|下面|尾|末尾)[ \t]*(?:往前|向前|开始|起)?[ \t]*数(?:起)?[ \t]*,?[ \t]*"
)
_FROM_FRONT = r"从[ \t]*(?:前|前面|前边|头|上面)[ \t]*(?:往后|向后|开始|起)?[ \t]*数(?:起)?[ \t]*,?[ \t]*"
_POSITION = [
    (re.compile(r"倒数[ \t]*第?[ \t]*" + NUM + _NOT_CARD + _UNIT), -1),
    (re.compile(r"倒[ \t]*" + NUM + _NOT_CARD + _UNIT), -1),  # 倒三, 倒2张
    (re.compile(_FROM_BACK + r"第?[ \t]*" + NUM + _NOT_CARD + _UNIT), -1),  # 从后面数第三张
    (re.compile(_FROM_FRONT + r"第?[ \t]*" + NUM + _NOT_CARD + _UNIT), 1),
    (re.compile(r"第[ \t]*" + NUM + _NOT_CARD + _UNIT), 1),
    (re.compile(r"(?:顺位|位置)[ \t]*" + NUM + _NOT_CARD), 1),
]
# "第二张,从后面数": the direction written after the number counts it from the back.
_BACK_AFTER = re.compile(
    r"[ \t,]*(?:从[ \t]*(?:最)?(?:后|后面|后边|后头|尾|末尾)[ \t]*(?:往前|向前|开始)?[ \t]*数(?:起)?|倒着数|倒过来数)"
)
# A position whose direction is written in words before the number: 从后往前数第三张, 从最后数起第2张,
# 倒过来第二张, 末尾第二张, 正数第2张. The words are classified by `_direction`; words that do not say which end
# (从右数第二张) give a position the parser refuses rather than guesses.
_DIR_CHARS = "从由自最后面边头尾巴末底下上右左往向前开始起数着过来倒正顺的部端一1张"
_DIR_POS = re.compile(
    rf"([{_DIR_CHARS}][{_DIR_CHARS} \t]{{0,11}})[ \t]*第?[ \t]*"
    + NUM
    + _NOT_CARD
    + r"[ \t]*(?:张|位|个|顺位)[ \t]*(?:牌)?"
)
_DIR_AFTER = re.compile(rf"[ \t,(]*((?:从|由|自)?[{_DIR_CHARS}]{{0,8}}数(?:起)?|倒着数|倒过来数)\)?")
# A labelled position: 位置:倒数第二, 第几张:2, 打哪张:第3张.
_LABEL = re.compile(r"(?:位置|顺位|第几张(?:牌)?|打第几张|打哪张|哪张|哪一张)[ \t]*(?:是|为)?[ \t]*:?[ \t]*")
_BARE_NUM = re.compile(NUM + _NOT_CARD + _UNIT)


def _direction(words: str) -> int | None:
    """+1 (from the front), −1 (from the back), 0 (words that do not say which end), None (no direction at all)."""
    w = re.sub(r"[ \t的一1张]", "", words)
    toward_front = bool(re.search(r"(?:往|向)(?:前|上|左)", w))
    toward_back = bool(re.search(r"(?:往|向)(?:后|下|右)", w))
    w = re.sub(r"(?:往|向)(?:前|上|左|后|下|右)", "", w)
    back = bool(re.search(r"[后尾末底倒]", w))
    front = bool(re.search(r"[前头正顺]", w))
    if back and not front:
        return -1
    if front and not back:
        return 1
    if back and front:
        return 0
    if toward_front != toward_back:
        return -1 if toward_front else 1
    if re.search(r"[右左上下]", w) or toward_front:
        return 0
    return None


_TIME = re.compile(r"第[ \t]*" + NUM + r"[ \t]*(?:个)?[ \t]*(?:天|夜|晚|日|轮|回合)")  # 第一夜: when, not where
_LAST = re.compile(r"最后(?:的)?(?:一|1)?(?:张|位)(?:牌)?|最后那张(?:牌)?|最末(?:一)?张|最后面(?:那张|一张|的那张)?")
_FIRST = re.compile(r"最前面(?:那张|一张|的那张)?|头一张|首张")
_IN_BRACKETS = re.compile(r"(?<=[(\[【])底(?=[)\]】])")  # 杀手(底): the bottom card
_SEAT = re.compile(r"(?<!\d)(\d++)\s*号(?:玩家|位)?")
_REPEAT = re.compile(r"[x×*][ \t]*(\d++)|" + NUM + r"[ \t]*(?:次|遍|刀)")  # 两刀: two attacks

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def chinese_number(s: str) -> int | None:
    """'2' / '二' / '十二' / '二十' → int; None when it is not a number."""
    if s.isdecimal():  # int() reads any decimal digits; "²" is a digit but no decimal
        return int(s) if len(s) < 6 else None
    if "十" in s:
        head, _, tail = s.partition("十")
        if "十" in tail or len(head) > 1 or len(tail) > 1:
            return None
        tens = _DIGITS.get(head, 1) if head else 1
        ones = _DIGITS.get(tail, 0) if tail else 0
        if (head and head not in _DIGITS) or (tail and tail not in _DIGITS):
            return None
        return tens * 10 + ones
    if len(s) == 1 and s in _DIGITS:
        return _DIGITS[s]
    return None


def _is_word(c: str) -> bool:
    """A letter or digit of a latin word."""
    return c.isascii() and c.isalnum()


# What a pattern read: where the token ends, its value and its hint.
_Reading = tuple[int, Any, str | None]


def _counted(sign: int) -> Callable[[re.Match[str]], _Reading | None]:
    """A position written with a number and the end it counts from (`sign`): 第三张, 倒数第2张."""

    def read(m: re.Match[str]) -> _Reading | None:
        n = chinese_number(m.group(1))
        return None if n is None else (m.end(), sign * n, None)

    return read


def _fixed(value: Any) -> Callable[[re.Match[str]], _Reading | None]:
    """A token whose value its words always mean: 最后一张 is −1, 第一夜 is no position at all."""
    return lambda m: (m.end(), value, None)


def _dir_words(m: re.Match[str]) -> _Reading | None:
    """A position whose end is said in words before the number; words that do not say which end make it unclear."""
    n, way = chinese_number(m.group(2)), _direction(m.group(1))
    if n is None or way is None:
        return None
    return m.end(), (way or 1) * n, None if way else "unclear"


def _labelled(m: re.Match[str]) -> _Reading | None:
    """位置:倒数第二, 第几张:2: the position after a label, or a bare number there."""
    norm, at = m.string, m.end()
    if at <= m.start() or at >= len(norm):
        return None
    inner = pattern_at(norm, at)
    if inner is not None and inner.kind == "POS":
        return inner.end, inner.value, inner.hint
    bare = _BARE_NUM.match(norm, at)
    n = chinese_number(bare.group(1)) if bare else None
    return None if bare is None or n is None else (bare.end(), n, None)


def _repeats(m: re.Match[str]) -> _Reading | None:
    """诅咒张三两次, 诅咒张三 x2: how many times."""
    n = chinese_number(m.group(1) or m.group(2))
    return None if n is None else (m.end(), n, None)


def _seat(m: re.Match[str]) -> _Reading | None:
    """3号: a seat number (a number too long for any seat is seat 0)."""
    return m.end(), int(m.group(1)) if len(m.group(1)) < 6 else 0, None


def _not_after_word(norm: str, i: int) -> bool:
    """An x or * is a repeat mark only when no letter or digit runs into it (max2 is no 'x2')."""
    return not (norm[i] in "x*" and i > 0 and _is_word(norm[i - 1]))


def _not_after_digit(norm: str, i: int) -> bool:
    """A seat number starts where no digit stands before it."""
    return i == 0 or not norm[i - 1].isdigit()


def _longer(end: int, best: Token | None) -> bool:
    """A later pattern wins only when it reads more."""
    return best is None or end > best.end


def _not_shorter(end: int, best: Token | None) -> bool:
    """A time (第一夜) wins a tie: it is when, not where."""
    return best is None or end >= best.end


def _always(end: int, best: Token | None) -> bool:
    """A label's position and 底 in brackets win over whatever was read at the same place."""
    return True


@dataclass(frozen=True)
class _Rule:
    """A pattern of `pattern_at`: the kind of token it makes, what it reads from a match (None: not such a token),
    what must stand before it (None: anything), whether a match ending where it does beats the best token read
    before it, and the spelling it carries when not the words matched."""

    kind: str
    pattern: re.Pattern[str]
    read: Callable[[re.Match[str]], _Reading | None]
    where: Callable[[str, int], bool] | None = None
    beats: Callable[[int, Token | None], bool] = _longer
    text: str = ""


# Positions written with their number, tried in order (on a tie the first wins); then the direction written
# after the number (`_direction_after`) ...
_WRITTEN = (
    *(_Rule("POS", pattern, _counted(sign)) for pattern, sign in _POSITION),
    _Rule("POS", _DIR_POS, _dir_words),
)
# ... then the rest, in order.
_OTHERS = (
    _Rule("POS", _LABEL, _labelled, beats=_always),
    _Rule("POS", _LAST, _fixed(-1)),
    _Rule("POS", _FIRST, _fixed(1)),
    _Rule("REPEAT", _REPEAT, _repeats, where=_not_after_word),
    _Rule("SEAT", _SEAT, _seat, where=_not_after_digit),
    _Rule("STOP", _TIME, _fixed(None), beats=_not_shorter),
    _Rule("BOTTOM", _IN_BRACKETS, _fixed(None), beats=_always, text="底牌"),  # 杀手(底)
)
# Where any rule can match at all: one test in C at each place instead of a dozen.
_ANY_PATTERN = re.compile("|".join(f"(?:{rule.pattern.pattern})" for rule in (*_WRITTEN, *_OTHERS)))


def _best(norm: str, i: int, rules: tuple[_Rule, ...], best: Token | None) -> Token | None:
    """The token the rules read at norm[i], each in turn replacing the best so far when it beats it."""
    for rule in rules:
        m = rule.pattern.match(norm, i) if rule.where is None or rule.where(norm, i) else None
        reading = rule.read(m) if m and rule.beats(m.end(), best) else None
        if reading is not None:
            end, value, hint = reading
            best = Token(rule.kind, i, end, value, rule.text or norm[i:end], hint=hint)
    return best


def _direction_after(norm: str, best: Token | None) -> Token | None:
    """A position counted from the front is counted from the back (or unclear) when the words after its number say
    so: 第二张,从后面数."""
    if best is None or best.value <= 0 or best.hint is not None:
        return best
    i = best.start
    m = _BACK_AFTER.match(norm, best.end)
    if m:
        return Token("POS", i, m.end(), -best.value, norm[i : m.end()])
    m = _DIR_AFTER.match(norm, best.end)
    way = _direction(m.group(1)) if m else None
    if m is None or way is None or way == 1:
        return best
    return Token(
        "POS", i, m.end(), -best.value if way else best.value, norm[i : m.end()], hint=None if way else "unclear"
    )


def pattern_at(norm: str, i: int) -> Token | None:
    """The token a pattern reads at norm[i] (a position, a repeat count, a seat, a time or 底 in brackets), or None."""
    if not _ANY_PATTERN.match(norm, i):
        return None
    return _best(norm, i, _OTHERS, _direction_after(norm, _best(norm, i, _WRITTEN, None)))
