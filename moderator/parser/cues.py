"""Cues of modality as data (cues.yaml): which words say that the acts near them are not the sender's own present
order, and how far each one reaches. A cue's scope is its clause or its sentence, cut short at a termination word
(但, 不过, 所以): no cue outlives it. Pure functions over the normalised text."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import accumulate
from pathlib import Path

import yaml

from . import aliases as al
from .text import normalise_word
from .tokens import Token

DATA = Path(__file__).with_name("cues.yaml")
CLAUSE_ENDS = frozenset(",,;。.!?\n")
SENTENCE_ENDS = frozenset(";。.!?\n")
TALLY = frozenset({"tally"})
TALLY_NOTE = "“{}”是在数别人的票,不是投票,也不是指令"
_FILLER = frozenset(" \t,.。…~")


@dataclass(frozen=True)
class Cue:
    name: str
    kind: str
    direction: str
    scope: str
    pattern: re.Pattern | None
    not_after: tuple[str, ...]
    examples: tuple[dict, ...]
    counter: tuple[dict, ...]


@dataclass(frozen=True)
class Hit:
    cue: Cue
    start: int
    end: int


def _use_words() -> str:
    words = {normalise_word(w) for spellings in al.USE_SPELLINGS.values() for w in spellings}
    return "(?:" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True) if len(w) >= 2) + ")"


def _pattern(entry: dict) -> re.Pattern | None:
    words = sorted((normalise_word(w) for w in entry.get("words", ())), key=len, reverse=True)
    parts = [re.escape(w) for w in words if w]
    parts += [p.replace("{use}", _use_words()) for p in entry.get("patterns", ())]
    return re.compile("|".join(parts)) if parts else None


@cache
def cue_table() -> tuple[tuple[Cue, ...], tuple[str, ...]]:
    spec = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    cues = tuple(
        Cue(
            e["name"],
            e["kind"],
            e.get("direction", "forward"),
            e.get("scope", "sentence"),
            _pattern(e),
            tuple(normalise_word(w) for w in e.get("not_after", ())),
            tuple(e.get("examples", ())),
            tuple(e.get("counter", ())),
        )
        for e in spec["cues"]
    )
    return cues, tuple(normalise_word(w) for w in spec.get("terminators", ()))


def words(kind: str) -> tuple[str, ...]:
    """The literal words of every cue of `kind` (the lexer reads them as one word each)."""
    spec = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    return tuple(w for e in spec["cues"] if e["kind"] == kind for w in e.get("words", ()))


def find_cues(norm: str, kinds: frozenset[str]) -> list[Hit]:
    """Every cue of these kinds in the text, in order."""
    hits = []
    for cue in cue_table()[0]:
        if cue.kind not in kinds or cue.pattern is None:
            continue
        for m in cue.pattern.finditer(norm):
            before = norm[max(0, m.start() - 4) : m.start()]
            if any(before.endswith(w) for w in cue.not_after):
                continue
            hits.append(Hit(cue, m.start(), m.end()))
    return sorted(hits, key=lambda h: h.start)


@dataclass(frozen=True)
class _Marks:
    """Where a text's clauses and sentences end, where each termination word stands, and how many characters that
    are not filler come before each place: each cue's scope then costs a lookup, not a walk over the text."""

    clause_ends: list[int]
    sentence_ends: list[int]
    terminators: tuple[list[int], ...]  # each termination word's starts, in cue_table()[1]'s order
    solid: list[int]  # solid[k]: the characters of norm[:k] that are not filler


@lru_cache(maxsize=8)
def _marks(norm: str) -> _Marks:
    def starts(word: str) -> list[int]:
        found, k = [], norm.find(word)
        while k >= 0:
            found.append(k)
            k = norm.find(word, k + 1)
        return found

    return _Marks(
        [k for k, c in enumerate(norm) if c in CLAUSE_ENDS],
        [k for k, c in enumerate(norm) if c in SENTENCE_ENDS],
        tuple(starts(w) for w in cue_table()[1]),
        list(accumulate((c not in _FILLER for c in norm), initial=0)),
    )


def _next_at(positions: list[int], at: int, default: int) -> int:
    """The first of the sorted positions at or after `at`."""
    k = bisect.bisect_left(positions, at)
    return positions[k] if k < len(positions) else default


def _start_after_last(positions: list[int], at: int) -> int:
    """The place after the last of the sorted positions before `at` (0 when there is none)."""
    k = bisect.bisect_left(positions, at)
    return positions[k - 1] + 1 if k > 0 else 0


def forward_end(norm: str, hit: Hit) -> int:
    """Where a forward cue's scope ends: the end of its clause or sentence, or a termination word before it."""
    marks = _marks(norm)
    stop = _next_at(marks.clause_ends if hit.cue.scope == "clause" else marks.sentence_ends, hit.end, len(norm))
    cut = [
        k
        for w, starts in zip(cue_table()[1], marks.terminators, strict=True)
        if (k := _next_at(starts, hit.end, len(norm))) + len(w) <= stop
    ]
    return min([stop, *cut])


def tally_spans(norm: str) -> list[tuple[int, int]]:
    """The words of each tally of others' votes ("阿飞、王五各一票": the names before the trigger too), to the end of
    its scope."""
    return [(clause_start(norm, h.start), forward_end(norm, h)) for h in find_cues(norm, TALLY)]


class Tallies:
    """The tallies of others' votes in a text (`tally_spans`): whether a place is inside one, and which hold one of
    some places, each at a lookup's cost (however many tallies and clauses a text has)."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = sorted(spans)
        self._starts = [a for a, _ in self.spans]
        self._reach = list(accumulate((b for _, b in self.spans), max))  # the furthest end of the spans so far

    def holds(self, at: int) -> bool:
        k = bisect.bisect_right(self._starts, at)
        return k > 0 and self._reach[k - 1] > at

    def touched(self, places: list[int]) -> list[tuple[int, int]]:
        """The tallies that hold one of these places (sorted)."""
        return [(a, b) for a, b in self.spans if (k := bisect.bisect_left(places, a)) < len(places) and places[k] < b]


def without_tallies(tokens: list[Token], tallies: Tallies) -> list[Token]:
    """The tokens outside every tally (its separators kept): others' votes counted are no vote of the sender's and
    no privilege's target."""
    if not tallies.spans:
        return tokens
    return [t for t in tokens if t.kind == "SEP" or not tallies.holds(t.start)]


def clause_start(norm: str, at: int) -> int:
    """The start of the clause holding position `at`."""
    return _start_after_last(_marks(norm).clause_ends, at)


def sentence_start(norm: str, at: int) -> int:
    """The start of the sentence holding position `at`."""
    return _start_after_last(_marks(norm).sentence_ends, at)


def backward_start(norm: str, hit: Hit) -> int:
    """Where a backward cue's window starts: its own sentence, or the sentence before when its own has nothing
    before the cue (束魂阿飞。算了)."""
    own = sentence_start(norm, hit.start)
    solid = _marks(norm).solid
    if solid[hit.start] > solid[own]:  # something not filler before the cue in its sentence
        return own
    k = own
    while k > 0 and norm[k - 1] in SENTENCE_ENDS | frozenset(" \t.…~"):
        k -= 1
    return sentence_start(norm, k)
