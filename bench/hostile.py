"""Hostile player text for the readers of player text (issue 22 item 5, issue 23): each case builds a message of a
given size from a repeated piece. Shared by `python -m bench.parser` (which prints the times) and the parser's
complexity test (which compares 10 KB with 100 KB: a linear reader takes about 10× as long, a quadratic one 100×)."""

from __future__ import annotations

import time
from collections.abc import Callable

from moderator.parser import parse_pm, parse_vote
from moderator.parser.thread import split_posts

PLAYERS = ["王五", "赵六", "钱七", "孙八", "周九", "月下独酌", "狗狗静电"]
HAND = ["庶民", "狙击手", "诅咒/庇佑", "庶民", "杀手"]


def _pm(phase: str = "night") -> Callable[[str], object]:
    return lambda text: parse_pm(text, sender="钱七", players=PLAYERS, hand=HAND, phase=phase)


def _vote(text: str) -> object:
    return parse_vote(text, sender="钱七", players=PLAYERS)


def _thread(text: str) -> object:
    return split_posts(text, authors=PLAYERS)


# (name, the repeated piece, the reader)
CASES: list[tuple[str, str, Callable[[str], object]]] = [
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
    ("thread headers", "=== 王五 2024-01-01 20:00\n投赵六\n", _thread),
    ("thread furniture", "回复\n", _thread),
]


def build(piece: str, size: int) -> str:
    text = piece * (size // len(piece) + 1)
    if piece == "[quote]":
        half = size // 15
        return "[quote]" * half + "投王五" + "[/quote]" * half
    return text[:size]


def seconds(reader: Callable[[str], object], text: str, runs: int = 3) -> float:
    """The fastest of `runs` parses (the least disturbed by other work on the machine)."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        reader(text)
        best = min(best, time.perf_counter() - start)
    return best
