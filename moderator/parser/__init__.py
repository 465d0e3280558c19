"""The PM parser: what a player wrote to the GM (or posted as a vote) → the inputs of docs/scenarios.md
(docs/parser.md).

Pure Python, no Django. Public API:

    parse_pm(text, *, sender, players, hand, phase="night", hand_size=5, max_chars=MAX_CHARS) -> ParseResult
    parse_vote(text, *, sender, players, max_chars=MAX_CHARS) -> ParseResult
    ParseResult(inputs, refusals, notes).to_json() -> {"inputs": [...], "refusals": [...], "notes": [...]}
    account(text, inputs=..., refusals=..., notes=...) -> [Part]: every character of the text in one part

The parser says what a message *means*; whether it is allowed now (AP, timing, limits, B3's 底牌, O2) is the rules
engine's verdict. It never raises on any text: what it cannot read is a refusal with a reason in Chinese. It reads
at most MAX_CHARS characters of a message (20,000, the console's limit for a PM) and refuses the rest, saying so;
`max_chars=None` reads any length (in linear time: the benchmark's check). Every word is accounted for: what gives
no input and no refusal is a note that says what the parser took it for (docs/parser.md, "nothing dropped").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cards import catalogue

from . import pm
from .account import Part, account
from .lexer import lex
from .names import NameBook
from .pm import MAX_CHARS
from .text import Text, prepare

__all__ = ["MAX_CHARS", "ParseResult", "Part", "account", "parse_pm", "parse_vote", "sender_words"]

PHASES = ("night", "day")
REFUSAL_KEYS = ("text", "reason", "span", "candidates", "input")
NOTE_KEYS = ("text", "reason", "span", "with_input")


@dataclass(frozen=True)
class ParseResult:
    inputs: tuple[dict, ...]
    refusals: tuple[dict, ...]
    notes: tuple[dict, ...] = ()

    def to_json(self) -> dict:
        """The parser's output object (docs/parser.md), with its additions: each input and refusal may carry "span":
        [start, end], the characters of the text as passed to parse_pm that it was read from; a refusal may carry
        "candidates", the players it could mean (a pronoun, an ambiguous or misspelt name, "A或B"), and then "input",
        the input choosing one of them gives, its player left null ({"card": …, "use": …, "target": null}), so the
        天神 can choose with one click (a vote post's: {"for": null} or {"change": null}); {"pass": true} is a pass.
        "notes": every other part of the text with a word in it, {"text", "reason", "span"}, the reason saying what
        it was taken for (a greeting, a guess, a quote, a signature…) and that it is no instruction ("with_input": a
        few words of an input's own clause, shown with it): with the inputs' spans and 宣言 ("manifesto_spans") and
        the refusals' they hold every word (`account`).
        An input may carry "pronoun" (the 他 read as the one player the message names) or "inferred_use" (a change of
        target with no privilege written, read as the hand's only privilege that names a player): the preview says
        so, for the 天神 to check."""
        return {
            "inputs": [dict(item) for item in self.inputs],
            "refusals": [{k: _copy(v) for k, v in r.items() if k in REFUSAL_KEYS} for r in self.refusals],
            "notes": [{k: _copy(v) for k, v in n.items() if k in NOTE_KEYS} for n in self.notes],
        }


def _copy(value):
    return list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value


def parse_pm(
    text: str,
    *,
    sender: str,
    players: Sequence[str],
    hand: Sequence[str],
    phase: str = "night",
    hand_size: int = catalogue.DEFAULT_HAND_SIZE,
    max_chars: int | None = MAX_CHARS,
) -> ParseResult:
    """Read one message from `sender`.

    `players`: the table's names in seat order; `hand`: the sender's cards in discard order (canonical names or
    the aliases of the order table); `phase`: "night" or "day" (a day message may be a vote post);
    `hand_size`: the most cards a player can hold (an aimed shot beyond it is refused, B3);
    `max_chars`: the most characters read (the rest is refused with its span; None: no limit).
    Raises ValueError only for a bad `hand` or `phase`, never for the text.
    """
    if phase not in PHASES:
        raise ValueError(f"phase must be one of {PHASES}, not {phase!r}")
    inputs, refusals, notes = pm.read_message(
        text, sender=sender, players=players, hand=hand, phase=phase, hand_size=hand_size, max_chars=max_chars
    )
    return ParseResult(inputs, refusals, notes)


def parse_vote(text: str, *, sender: str, players: Sequence[str], max_chars: int | None = MAX_CHARS) -> ParseResult:
    """Read a vote post (D1, D3): {"for": X}, {"change": X}, or a refusal (conditional, ambiguous, unknown name)."""
    inputs, refusals, notes = pm.read_message(
        text,
        sender=sender,
        players=players,
        hand=(),
        phase="day",
        hand_size=catalogue.DEFAULT_HAND_SIZE,
        votes_only=True,
        max_chars=max_chars,
    )
    return ParseResult(inputs, refusals, notes)


def sender_words(text: str, *, sender: str, players: Sequence[str], max_chars: int | None = MAX_CHARS) -> list[str]:
    """The words of `text` (a 杀人宣言 to publish) that name the sender: their name, or a part of it the name book
    resolves to them alone ("三丰" for 张三丰). The preview warns before confirm: published, they say who attacked."""
    if not isinstance(text, str) or not text.strip():
        return []
    book = NameBook(players, sender)
    prepared = prepare(text[:max_chars] if max_chars is not None else text)
    norm, own = prepared.norm, book.sender
    key = next((k for k, names in book.norm.items() if own in names), "")
    found: dict[str, None] = {}
    for t in lex(norm, 0, len(norm), book):
        if t.kind == "NAME" and t.value.name == own:
            found[prepared.fragment(t.start, t.end) or t.text] = None
        elif t.kind == "GAP" and key and len(key) > 2:
            found.update(dict.fromkeys(_parts_naming(prepared, book, key, t.start, t.end)))
    return list(found)


def _parts_naming(prepared: Text, book: NameBook, key: str, start: int, end: int) -> list[str]:
    """The parts of two or more characters of a gap, norm[start:end], that are in the sender's normal name `key`
    and that the name book resolves to the sender alone, as written."""
    norm, own = prepared.norm, book.sender
    out: list[str] = []
    for a in range(start, end - 1):  # each part of two or more characters written here
        for b in range(a + 2, min(end, a + len(key) - 1) + 1):
            part = norm[a:b]
            if part in key and book.resolve(part).name == own:
                out.append(prepared.fragment(a, b) or part)
    return out
