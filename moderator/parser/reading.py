"""The message being read, shared by every stage: its text, names, hand and what each stage has read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from cards import catalogue as cat

from . import aliases as al
from .actions import Group
from .lexer import Token, lex
from .names import NameBook
from .stance import Stance
from .text import Text, normalise_word


def canonical_hand(hand: Sequence[str]) -> tuple[str, ...]:
    out = []
    for card in hand:
        key = normalise_word(str(card))
        if key not in al.CARD_TABLE:
            raise ValueError(f"unknown card in hand: {card!r} (cards: {', '.join(cat.CARD_NAMES)})")
        out.append(al.CARD_TABLE[key])
    return tuple(out)


@dataclass
class MessageReading:
    """A message being read: its text, the name book and hand it is read against, and what has been read so far
    (inputs, refusals, notes, the 杀人宣言), position by position."""

    text: Text
    book: NameBook
    hand: tuple[str, ...]
    phase: str
    hand_size: int
    line_spans: list[tuple[int, int]] = field(default_factory=list)
    live: list[tuple[int, int] | None] = field(default_factory=list)  # the part of each line still to read
    inputs: list[tuple[int, dict]] = field(default_factory=list)
    refusals: list[tuple[int, dict]] = field(default_factory=list)
    # 杀人宣言: (position of its marker, text, weak marker, end, start of its text) in the normalised text
    manifestos: list[tuple[int, str, bool, int, int]] = field(default_factory=list)
    notes: list[tuple[int, int, str]] = field(default_factory=list)  # clauses read as not an order
    unsure_attacks: list[tuple[int, dict]] = field(default_factory=list)  # attacks refused for an unclear target
    cut_lines: list[tuple[int, int]] = field(default_factory=list)  # lines a 杀人宣言 stopped before (action words)
    _lexed: dict[tuple[int, int], list[Token]] = field(default_factory=dict)
    # a correction's words from a place on (corrections._correction_words): each clause read once, however many
    # markers walk over it
    said_after: dict[int, tuple[list[Token], int]] = field(default_factory=dict)
    clause_ends: list[int] = field(default_factory=list)  # where clauses end, once a message has a correction marker
    marker_spans: list[tuple[int, int]] = field(default_factory=list)  # its correction markers

    def refuse(self, start: int, end: int, reason: str | tuple) -> None:
        """A refusal of norm[start:end]: the player's words, the reason, their span, any candidates and the input a
        chosen candidate would give (its player None; an attack's 杀人宣言 attaches to it, N-kill)."""
        reason, candidates, partial = (*reason, None)[:3] if isinstance(reason, tuple) else (reason, [], None)
        frag = self.text.fragment(start, end) or self.text.norm[start:end].strip()
        item: dict = {"text": frag, "reason": reason}
        span = self.text.raw_span(start, end)
        if span:
            item["span"] = span
        if candidates:
            item["candidates"] = list(candidates)
        if partial:
            item["input"] = partial
            if partial.get("use") in al.ATTACK_USES:
                self.unsure_attacks.append((start, partial))
        self.refusals.append((start, item))

    def add(self, start: int, end: int, item: dict) -> None:
        """An input read from norm[start:end]."""
        item.setdefault("_span", (start, end))
        self.inputs.append((start, item))

    def tokens(self, i: int) -> list[Token]:
        span = self.live[i]
        if not span:
            return []
        return list(self.lexed(span))

    def lexed(self, span: tuple[int, int]) -> list[Token]:
        """The tokens of norm[a:b]: each line is lexed once, however many readers look at it."""
        if span not in self._lexed:
            self._lexed[span] = lex(self.text.norm, span[0], span[1], self.book)
        return self._lexed[span]


# Each refusal quotes at most QUOTE_MAX characters of the player's words (its span marks all of them)
QUOTE_MAX = 120


def short(words: str, limit: int = QUOTE_MAX) -> str:
    """The player's words as a reason quotes them: at most `limit` characters, a cut marked with …"""
    return words if len(words) <= limit else words[: limit - 1] + "…"


@dataclass
class ReadingState:
    """What reading the privileges carries from clause to clause: the open attack and its 杀人宣言, the stance (S4),
    whose words the sentence is, and the privilege written last."""

    attack: dict | None = None  # the last attack, while free text after it is its 杀人宣言
    mf_start: int | None = None
    mf_end: int | None = None
    stance: Stance = field(default_factory=Stance)  # S4
    day_vote: tuple[int, int, str] | None = None
    reported: bool = False  # "王五说:…" — the rest of the sentence is someone else's words
    condition: bool = False  # "如果…," — the rest of the sentence hangs on it
    reasons: bool = False  # a vote post's 理由: the rest is not read (D1)
    passes: list[tuple[int, int]] = field(default_factory=list)  # 今晚空过
    read_places: list[int] = field(default_factory=list)  # where the clauses read for privileges have tokens
    last_group: Group | None = None  # the privilege written last, whatever became of it (改给B refers to it)
    inferred: Group | None = None  # a change of target whose privilege was taken from the hand
    # a clause that only names a player ("王五,束魂他"), refused unless the next clause's pronoun is read as him:
    # (its refusal, the player)
    named: tuple[tuple[int, dict], str] | None = None
