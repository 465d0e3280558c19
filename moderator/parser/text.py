"""Normalising what a player wrote, keeping the way back to the original characters.

`prepare(raw)` gives a `Text`: `norm` is 简体 (OpenCC t2s), NFKC (full-width digits, letters and ：，；！？ become
ASCII), casefolded, with quoted text ([quote]…[/quote], lines starting with > / 引用 / Quote:) and BBCode tags
removed; `origin[i]` is the index in `raw` that `norm[i]` came from, so a fragment or a 杀人宣言 can be shown as the
player wrote it.
"""

from __future__ import annotations

import bisect
import os
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

import opencc


class _T2S:
    """OpenCC's t2s (opencc-python-reimplemented), the same output in one pass over the text.

    The library converts each run between its separators by taking, again and again, the longest phrase found
    anywhere in the run (the leftmost of equal length) and recursing on the text left and right of it: quadratic
    in a long run, ~2 µs a character even without a match. The same choice is made here from the list of phrase
    occurrences, longest first, then leftmost, each taken when it overlaps none taken before; the characters no
    phrase covers go through the character table (`str.translate`). Neither table has a key holding a separator,
    so no phrase crosses one and the whole text can be read at once; the separators themselves are never
    converted. tests/parser/test_opencc.py compares both on the corpus and on random text."""

    SEPARATORS = re.compile(
        r"\s|-|,|\.|\?|!|\*|　|，|。|、|；|：|？|！|…|“|”|‘|’|『|』|「|」|﹁|﹂|—|－|（|）|《|》|〈|〉|～|．|／|＼|︒|︑|︔|︓"
        r"|︿|﹀|︹|︺|︙|︐|［|﹇|］|﹈|︕|︖|︰|︳|︴|︽|︾|︵|︶|｛|︷|｝|︸|﹃|﹄|【|︻|】|︼"
    )

    def __init__(self) -> None:
        folder = os.path.join(os.path.dirname(opencc.__file__), "dictionary")
        self.phrases = self._load(os.path.join(folder, "TSPhrases.txt"))
        chars = self._load(os.path.join(folder, "TSCharacters.txt"))
        if any(len(k) != 1 for k in chars) or any(self.SEPARATORS.search(k) for k in (*self.phrases, *chars)):
            raise RuntimeError("OpenCC t2s tables changed: check moderator/parser/text.py _T2S")
        self.longest = max(map(len, self.phrases))
        self.chars = str.maketrans(chars)
        self.same_length = str.maketrans({k: v for k, v in chars.items() if len(v) == 1})
        firsts = "".join(sorted({k[0] for k in self.phrases}))
        self.phrase_start = re.compile("[" + re.escape(firsts) + "]")

    @staticmethod
    def _load(path: str) -> dict[str, str]:
        table: dict[str, str] = {}
        with open(path, encoding="utf-8") as f:
            for line in f:
                key, value = line.strip().split("\t")
                table[key] = value.split(" ")[0]  # several: the first, as the library does
        return table

    def convert(self, s: str) -> str:
        found = []  # (−length, start) of every phrase occurrence
        for m in self.phrase_start.finditer(s):
            i = m.start()
            for n in range(2, min(self.longest, len(s) - i) + 1):
                if s[i : i + n] in self.phrases:
                    found.append((-n, i))
        if not found:
            return s.translate(self.chars)
        taken: list[tuple[int, int]] = []
        covered = bytearray(len(s))
        for minus_n, i in sorted(found):
            end = i - minus_n
            if not any(covered[i:end]):
                covered[i:end] = b"\x01" * (end - i)
                taken.append((i, end))
        out, at = [], 0
        for i, end in sorted(taken):
            out.append(s[at:i].translate(self.chars))
            out.append(self.phrases[s[i:end]])
            at = end
        out.append(s[at:].translate(self.chars))
        return "".join(out)


_T2S_TABLES = _T2S()


def to_simplified(s: str) -> str:
    """OpenCC t2s, falling back to character by character when a phrase conversion changes the length."""
    out = _T2S_TABLES.convert(s)
    if len(out) == len(s):
        return out
    return s.translate(_T2S_TABLES.same_length)  # each character alone: kept when its conversion is not one character


@lru_cache(maxsize=8192)
def _norm_char(c: str) -> str:
    if unicodedata.category(c) == "Cf":  # zero-width spaces, joiners, BOM
        return ""
    n = unicodedata.normalize("NFKC", c).casefold()
    if n == "\u2044":  # NFKC of ½ etc. uses the fraction slash
        n = "/"
    return n


@lru_cache(maxsize=4096)
def normalise_word(s: str) -> str:
    """The normal form of a name or a vocabulary word: 简体, NFKC, casefold, without surrounding spaces."""
    simplified = to_simplified(s)
    return "".join(_norm_char(c) for c in simplified).strip()


@dataclass(frozen=True)
class Text:
    raw: str
    norm: str
    origin: tuple[int, ...]  # raw index of each norm character
    kept: frozenset[int]  # raw indices not removed as quote or markup
    _fragments: dict[tuple[int, int], str] = field(default_factory=dict, compare=False, repr=False)
    _dropped: list[list[int]] = field(default_factory=list, compare=False, repr=False)

    def fragment(self, start: int, end: int) -> str:
        """The original text behind norm[start:end], quotes and markup left out, trimmed. Each span is cut once (a
        clause of many refusals shows the same words each time) and by slices, not character by character."""
        if start >= end or start >= len(self.norm):
            return ""
        a, b = self.origin[start], self.origin[min(end, len(self.norm)) - 1] + 1
        found = self._fragments.get((a, b))
        if found is None:
            if not self._dropped:
                self._dropped.append([k for k in range(len(self.raw)) if k not in self.kept])
            dropped = self._dropped[0]
            pieces, at = [], a
            for k in dropped[bisect.bisect_left(dropped, a) : bisect.bisect_left(dropped, b)]:
                pieces.append(self.raw[at:k])
                at = k + 1
            pieces.append(self.raw[at:b])
            found = self._fragments[(a, b)] = "".join(pieces).strip()
        return found

    def raw_span(self, start: int, end: int) -> list[int] | None:
        """[start, end] in `raw` (the text as the player wrote it) of norm[start:end], trimmed of spaces."""
        end = min(end, len(self.norm))
        if start >= end or start < 0:
            return None
        a, b = self.origin[start], self.origin[end - 1] + 1
        while a < b and self.raw[a].isspace():
            a += 1
        while b > a and self.raw[b - 1].isspace():
            b -= 1
        return [a, b] if a < b else None

    def masked(self, spans: list[tuple[int, int]]) -> Text:
        """The same text with norm[start:end] blanked for each span (quoted words: still shown, never read)."""
        chars = list(self.norm)
        for a, b in spans:
            for i in range(a, b):
                if chars[i] != "\n":
                    chars[i] = " "
        return Text(self.raw, "".join(chars), self.origin, self.kept)


_QUOTE_BLOCK = re.compile(r"\[quote(?:=[^\]]*)?\](?:(?!\[quote).)*?\[/quote\]", re.S)
_QUOTE_OPEN = re.compile(r"\[quote(?:=[^\]]*)?\].*", re.S)
_QUOTE_LINE = re.compile(r"^[ \t]*(?:>|引用|quote:).*$", re.M)
# "引用 张三丰 的发言:" on a line of its own: the lines under it, to the first blank line, are the quoted post
_QUOTE_HEADER = re.compile(r"^[ \t]*引用[^\n]{0,60}:[ \t]*\n(?:[^\n]+(?:\n|$))*", re.M)
_QUOTE_CLOSE = re.compile(r"\[/quote\]")
_MEDIA = re.compile(r"\[(img|flash|mp3|wmv|rm|attachment)(?:=[^\]]*)?\].*?\[/\1\]", re.S)
_TAG = re.compile(
    r"\[/?(?:b|i|u|s|strike|color|size|font|align|url|email|code|center|left|right|sup|sub|fly|move|glow|shadow|"
    r"list|\*|hr|table|tr|td|th|backcolor|p|sell|hide|post|em|strong)(?:=[^\]]*)?\]"
)


_QUOTE_TAG = re.compile(r"\[quote(?:=[^\]]*)?\]|\[/quote\]")


def _quote_blocks(norm: str) -> list[tuple[int, int]]:
    """The outermost [quote]…[/quote] blocks, however deeply nested; an unclosed one runs to the end of the text."""
    out: list[tuple[int, int]] = []
    depth, start = 0, 0
    for found in _QUOTE_TAG.finditer(norm):
        if found.group(0).startswith("[/"):
            if depth == 1:
                out.append((start, found.end()))
            depth = max(0, depth - 1)
        else:
            if depth == 0:
                start = found.start()
            depth += 1
    if depth:
        out.append((start, len(norm)))
    return out


# Text never read, removed in this order: quoted posts, quoted lines, media and BBCode tags.
_NEVER_READ = (_QUOTE_BLOCK, _QUOTE_OPEN, _QUOTE_HEADER, _QUOTE_LINE, _QUOTE_CLOSE, _MEDIA, _TAG)


def prepare(raw: str) -> Text:
    """The text as the parser reads it: normalised (`_norm_char`), without what is never read (quoted posts and
    lines, media, BBCode tags), with the raw index of each character."""
    norm, origin = _normalised(raw)
    norm, origin = _drop(norm, origin, _quote_blocks(norm))  # nested [quote]s in one pass
    for pattern in _NEVER_READ:
        norm, origin = _drop_matches(norm, origin, pattern)
    return Text(raw=raw, norm=norm, origin=tuple(origin), kept=frozenset(origin))


def _normalised(raw: str) -> tuple[str, list[int]]:
    """The normal form of each character (简体, NFKC, casefold) and the raw index each comes from."""
    chars: list[str] = []
    origin: list[int] = []
    for i, c in enumerate(to_simplified(raw)):
        for n in _norm_char(c):
            chars.append(n)
            origin.append(i)
    return "".join(chars), origin


def _drop(norm: str, origin: list[int], spans: list[tuple[int, int]]) -> tuple[str, list[int]]:
    """norm and its origins without the characters of `spans`."""
    if not spans:
        return norm, origin
    drop = {i for a, b in spans for i in range(a, b)}
    return "".join(c for i, c in enumerate(norm) if i not in drop), [o for i, o in enumerate(origin) if i not in drop]


def _drop_matches(norm: str, origin: list[int], pattern: re.Pattern[str]) -> tuple[str, list[int]]:
    """norm and its origins without the matches of `pattern`; a [quote] block again until none is left."""
    while True:
        spans = [m.span() for m in pattern.finditer(norm) if m.end() > m.start()]
        norm, origin = _drop(norm, origin, spans)
        if not spans or pattern is not _QUOTE_BLOCK:
            return norm, origin


# Quoted words: 「…」 『…』 “…” "…" ‘…’ within one line.
_CLOSING = {"「": "」", "『": "』", "“": "”", '"': '"', "‘": "’"}
_OPENING = re.compile("[" + "".join(_CLOSING) + "]")


def quoted(norm: str) -> list[tuple[int, int]]:
    """The quoted words' spans, as the pattern 「[^」\n]*」|『[^』\n]*』|… finds them, in linear time: the pattern looks for the closing mark to
    the end of the line from every opening one, so a line of 10,000 “ takes 50 million steps. Here an opening mark
    with no closing one before the end of its line rules out every later one of its kind on that line."""
    out: list[tuple[int, int]] = []
    at = 0  # where the next match may start
    line_end = -1
    dead: dict[str, int] = {}  # opening mark -> the end of the line where it has no closing mark
    for found in _OPENING.finditer(norm):
        p = found.start()
        if p < at:
            continue
        if p >= line_end:
            line_end = norm.find("\n", p)
            line_end = len(norm) if line_end < 0 else line_end
        mark = found.group(0)
        if dead.get(mark) == line_end:
            continue
        close = norm.find(_CLOSING[mark], p + 1, line_end)
        if close < 0:
            dead[mark] = line_end
            continue
        out.append((p, close + 1))
        at = close + 1
    return out


def lines(text: Text) -> list[tuple[int, int]]:
    """(start, end) of each line of text.norm."""
    out, start = [], 0
    for m in re.finditer(r"\n", text.norm):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text.norm)))
    return out
