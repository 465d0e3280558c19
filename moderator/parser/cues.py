"""Cues of modality as data (cues.yaml): which words say that the acts near them are not the sender's own present
order, and how far each one reaches. A cue's scope is its clause or its sentence, cut short at a termination word
(但, 不过, 所以): no cue outlives it. Pure functions over the normalised text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
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


def _ends(cue: Cue) -> frozenset[str]:
    return CLAUSE_ENDS if cue.scope == "clause" else SENTENCE_ENDS


def forward_end(norm: str, hit: Hit) -> int:
    """Where a forward cue's scope ends: the end of its clause or sentence, or a termination word before it."""
    ends = _ends(hit.cue)
    stop = next((k for k in range(hit.end, len(norm)) if norm[k] in ends), len(norm))
    terminators = cue_table()[1]
    cut = [k for w in terminators if (k := norm.find(w, hit.end, stop)) >= 0]
    return min([stop, *cut])


def tally_spans(norm: str) -> list[tuple[int, int]]:
    """The words of each tally of others' votes ("阿飞、王五各一票": the names before the trigger too), to the end of
    its scope."""
    return [(clause_start(norm, h.start), forward_end(norm, h)) for h in find_cues(norm, TALLY)]


def without_tallies(tokens: list[Token], tallies: list[tuple[int, int]]) -> list[Token]:
    """The tokens outside every tally (its separators kept): others' votes counted are no vote of the sender's and
    no privilege's target."""
    if not tallies:
        return tokens
    return [t for t in tokens if t.kind == "SEP" or not any(a <= t.start < b for a, b in tallies)]


def clause_start(norm: str, at: int) -> int:
    """The start of the clause holding position `at`."""
    k = at
    while k > 0 and norm[k - 1] not in CLAUSE_ENDS:
        k -= 1
    return k


def sentence_start(norm: str, at: int) -> int:
    """The start of the sentence holding position `at`."""
    k = at
    while k > 0 and norm[k - 1] not in SENTENCE_ENDS:
        k -= 1
    return k


def backward_start(norm: str, hit: Hit) -> int:
    """Where a backward cue's window starts: its own sentence, or the sentence before when its own has nothing
    before the cue (束魂阿飞。算了)."""
    own = sentence_start(norm, hit.start)
    if any(c not in _FILLER for c in norm[own : hit.start]):
        return own
    k = own
    while k > 0 and norm[k - 1] in SENTENCE_ENDS | frozenset(" \t.…~"):
        k -= 1
    return sentence_start(norm, k)
