"""Hostile player text for the readers of player text: each case builds a message of a
given size from a repeated piece. Shared by `python -m bench.parser` (which prints the CPU times) and the parser's
complexity test (which compares 10 KB with 100 KB: a linear reader takes about 10× as long, a quadratic one 100×).

Each reader takes the text and `max_chars`, the parser's bound (moderator.parser.MAX_CHARS, 20,000 characters: the
rest of a longer message is refused, never read). `max_chars=None` lifts it: that is how the linearity of the
reader itself is measured; with the bound, 100 KB costs what its first 20,000 characters cost.
"""

from __future__ import annotations

import cProfile
import random
import time
from collections.abc import Callable

from moderator.parser import MAX_CHARS, parse_pm, parse_vote
from moderator.parser.thread import split_posts

PLAYERS = ["王五", "赵六", "钱七", "孙八", "周九", "月下独酌", "狗狗静电"]
HAND = ["庶民", "狙击手", "诅咒/庇佑", "庶民", "杀手"]

Reader = Callable[..., object]  # reader(text, max_chars=MAX_CHARS)


def _pm(phase: str = "night") -> Reader:
    def read(text: str, max_chars: int | None = MAX_CHARS) -> object:
        return parse_pm(text, sender="钱七", players=PLAYERS, hand=HAND, phase=phase, max_chars=max_chars)

    return read


def _vote(text: str, max_chars: int | None = MAX_CHARS) -> object:
    return parse_vote(text, sender="钱七", players=PLAYERS, max_chars=max_chars)


def _thread(text: str, max_chars: int | None = MAX_CHARS) -> object:
    return split_posts(text, authors=PLAYERS)  # a pasted thread has no bound: its posts are parsed one by one


# (name, the repeated piece, the reader)
CASES: list[tuple[str, str, Reader]] = [
    ("vote 投×n", "投 ", _vote),
    ("day post 投×n", "投 ", _pm("day")),
    ("vote 改投 name×n", "改投王五 ", _vote),
    ("curse in one clause", "诅咒王五 ", _pm()),
    ("pronoun clauses", "王五。禁锢他。", _pm()),
    ("order lines", "庶民\n", _pm()),
    ("nested quotes", "[quote]", _pm()),
    ("one long gap", "a", _pm()),
    ("manifesto lines", "杀王五 宣言:你完了\n", _pm()),
    ("position words", "从后往前数", _pm()),
    ("separators", "。", _pm()),
    ("names only", "王五、", _pm()),
    ("aimed shots", "狙击王五倒数第2张,", _pm()),
    ("card names in one clause", "杀手 ", _pm()),  # one refusal per clause, not per card (each the whole clause)
    ("bottom card words", "底牌是杀手,", _pm()),  # 底牌 looked up behind it, not in all the text before it
    ("open quote marks", "“", _pm()),  # a “ with no ” on its line: the quote pattern rescanned the line
    ("counts of stabs", "两刀 ", _pm()),
    ("digits after 第", "\x00瞄准狙击王五第" + "1" * 64, _pm()),  # one run of digits (build() keeps the head once)
    ("digits after 倒数", "\x00瞄准狙击王五倒数" + "7" * 64, _pm()),
    ("numerals after 第", "\x00瞄准狙击王五第" + "一" * 64, _pm()),
    ("digits in a vote post", "\x00投王五第" + "1" * 64, _vote),
    ("repeated names", "王五", _pm()),
    ("repeated names, a day post", "王五赵六", _pm("day")),
    ("nested brackets", "\x00(", _pm()),  # ((((…诅咒王五…))))
    ("nested 【】 around a pronoun", "\x00【", _pm()),
    ("a long line of privileges, no punctuation", "诅咒王五然后我觉得他是杀手所以狙击赵六", _pm()),
    ("the same in a vote post", "投王五然后我觉得他是杀手所以改投赵六", _vote),
    ("token soup", "\x00soup", _pm()),
    ("token soup, a day post", "\x00soup", _pm("day")),
    ("thread headers", "=== 王五 2024-01-01 20:00\n投赵六\n", _thread),
    ("thread furniture", "回复\n", _thread),
    ("thread line of spaces", " ", _thread),  # the floor words' loop inside a \s* loop: cubic
    ("thread line of =", "=", _thread),
    ("correction markers in a row", "不对,", _pm()),  # each marker's words looked for to the end of the text
    ("correction markers, no separators", "哦不对", _pm()),
    ("cancels in a row", "算了", _pm()),  # each cue's sentence found by a walk back over the text
    ("regrets in a row", "早知道", _pm()),
    ("tallies in one sentence", "赵六、李四各一票", _pm()),  # each clause looked at every tally
    ("tallies in a day post", "赵六、李四各一票", _pm("day")),
]


SOUP = (
    "诅咒 王五 赵六 第 倒数 2 张 ( ) 【 】 投 改投 杀 宣言: 他 她 如果 不 狙击 瞄准 , 。 \n 丢牌顺序 庶民 "
    "底牌 更正 对象: 1号 ~ 😀 [b] —— 留 天神 ps 理由: 束魂 改给 刚才 第一张 第二张 ? ok 钱七 七 王 六".split(" ")
)
_OPEN_CLOSE = {"(": ")", "【": "】"}


def build(piece: str, size: int) -> str:
    """A hostile text of `size` characters from `piece`: repeated, or (a piece starting with NUL) its head once and
    then a run (digits after 第), nested brackets around a privilege, or random tokens (a fixed seed)."""
    if piece == "[quote]":
        half = size // 15
        return "[quote]" * half + "投王五" + "[/quote]" * half
    if piece.startswith("\x00"):
        piece = piece[1:]
        if piece in _OPEN_CLOSE:
            half = (size - 4) // 2
            return piece * half + "诅咒王五" + _OPEN_CLOSE[piece] * half
        if piece == "soup":
            rnd = random.Random(size)
            out: list[str] = []
            length = 0
            while length < size:
                out.append(rnd.choice(SOUP))
                length += len(out[-1])
            return "".join(out)[:size]
        head = piece.rstrip(piece[-1])
        return (head + piece[-1] * size)[:size]
    text = piece * (size // len(piece) + 1)
    return text[:size]


def operations(reader: Reader, text: str, max_chars: int | None = MAX_CHARS) -> int:
    """How many function calls (Python functions and built-ins) a parse makes, counted by the C profiler: the same
    text gives the same count however loaded the machine is. A linear reader's count grows as the text does. The
    text is read once before it is counted, so that the caches (names, characters) are as warm whatever ran before."""
    reader(text, max_chars=max_chars)
    profile = cProfile.Profile()
    profile.enable()
    try:
        reader(text, max_chars=max_chars)
    finally:
        profile.disable()
    return sum(entry.callcount for entry in profile.getstats())


def seconds(reader: Reader, text: str, runs: int = 3, max_chars: int | None = MAX_CHARS) -> float:
    """The CPU seconds of the fastest of `runs` parses (CPU time, not wall time: the least disturbed by other
    work on a shared machine)."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        reader(text, max_chars=max_chars)
        best = min(best, time.process_time() - start)
    return best
