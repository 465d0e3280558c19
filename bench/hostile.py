"""Hostile player text for the readers of player text (issue 22 item 5, issue 23): each case builds a message of a
given size from a repeated piece. Shared by `python -m bench.parser` (which prints the CPU times) and the parser's
complexity test (which compares 10 KB with 100 KB: a linear reader takes about 10× as long, a quadratic one 100×).

Each reader takes the text and `max_chars`, the parser's bound (moderator.parser.MAX_CHARS, 20,000 characters: the
rest of a longer message is refused, never read). `max_chars=None` lifts it: that is how the linearity of the
reader itself is measured; with the bound, 100 KB costs what its first 20,000 characters cost.
"""

from __future__ import annotations

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
    ("thread headers", "=== 王五 2024-01-01 20:00\n投赵六\n", _thread),
    ("thread furniture", "回复\n", _thread),
    ("thread line of spaces", " ", _thread),  # the floor words' loop inside a \s* loop: cubic
    ("thread line of =", "=", _thread),
]


def build(piece: str, size: int) -> str:
    text = piece * (size // len(piece) + 1)
    if piece == "[quote]":
        half = size // 15
        return "[quote]" * half + "投王五" + "[/quote]" * half
    return text[:size]


def seconds(reader: Reader, text: str, runs: int = 3, max_chars: int | None = MAX_CHARS) -> float:
    """The CPU seconds of the fastest of `runs` parses (CPU time, not wall time: the least disturbed by other
    work on a shared machine)."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        reader(text, max_chars=max_chars)
        best = min(best, time.process_time() - start)
    return best
