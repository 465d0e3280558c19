"""Cutting normalised text into tokens: player names, privilege and card words, positions (read by
`positions.pattern_at`), separators, gaps.

At each place the longest match wins (a vocabulary word beats a player name of the same length); what nothing
matches becomes a GAP (a run of unknown characters, which may be a misspelt name or chatter).
"""

from __future__ import annotations

import re
from typing import Any

from . import aliases as al
from . import cues
from .names import NameBook
from .positions import pattern_at
from .text import normalise_word
from .tokens import Token  # the unit of every reader of tokens, imported from here

SEPARATORS = frozenset("\n。.;!?,、~…")
PUNCTUATION = frozenset(" \t\r:()[]【】《》〈〉\"'“”‘’「」『』-—_*#/|<>=+→⇒·•")
_NUMBERING = re.compile(r"\s*(?:\(\s*\d+\s*\)|[①-⑩]|(?:\d+|[一二三四五六七八九十]+)\s*[.、):](?!\d))")
_MID_NUMBERING = re.compile(r"(?:\d+|[①-⑩])[ \t]*[.、)](?!\d)")  # "1.保镖 2.庶民 …" on one line
_LIST_BREAKS = frozenset("\n \t:,;、")  # what a list's number may follow (`_numbering_at` says which pattern)


def _build_vocab() -> dict[str, list[tuple[str, str, Any]]]:
    table: dict[str, tuple[str, Any]] = {}

    def put(words, kind, value=None):
        for w in words:
            key = normalise_word(w)
            if key:
                table[key] = (kind, value if value is not None else key)

    put(al.STOP_WORDS, "STOP")
    put(al.NOT_VOTE_WORDS, "STOP")
    put(("规则", "选手", "投入"), "STOP")
    put((*cues.words("address"), *cues.words("plain")), "STOP")  # cues.yaml: words that are talk as a whole
    put(cues.cue_table()[1], "STOP")  # cues.yaml's termination words: connectives (所以, 但, 因此), quiet words
    for spelling, card in al.HINT_CARDS.items():
        table[spelling] = ("CARD", card)
    for use, words in al.USE_SPELLINGS.items():
        put(words, "USE", use)
    put(al.SELF_WORDS, "SELF")
    put(al.STANCE_WORDS, "STANCE")
    for mode, words in al.MODE_SPELLINGS.items():
        put(words, "MODE", mode)
    for word, side in al.SIDE_WORDS.items():
        put((word,), "SIDE", side)
    put(al.CONDITIONAL_WORDS, "COND")
    put(al.REASON_WORDS, "REASON")
    put(al.VOTE_WORDS, "VOTE")
    put(al.TARGET_CHANGE_WORDS, "CHANGE")
    put(al.CHANGE_VOTE_WORDS, "CHANGE")
    put(al.SELF_VOTE_WORDS, "SELFVOTE")
    put(al.CANCEL_WORDS, "CANCEL")
    put(al.MANIFESTO_MARKERS, "MANIFESTO")
    put(al.ORDER_WORDS, "ORDER")
    put(al.BOTTOM_WORDS, "BOTTOM")
    put(al.FILL_WORDS, "FILL")
    put(al.NEGATION_WORDS, "NEG")
    put(al.AFTER_NEGATION_WORDS, "AFTERNEG")
    put(al.NOT_NEGATION_WORDS, "STOP")
    put(al.NOT_REPORT_WORDS, "STOP")
    put(al.PRONOUNS, "PRON")
    put(al.OTHER_PEOPLE, "OTHER")
    put(al.REPORT_WORDS, "REPORT")
    put(al.OPINION_WORDS, "OPINION")
    put(al.HEDGE_WORDS, "HEDGE")
    put(al.PAST_WORDS, "PAST")
    put(al.PASSIVE_WORDS, "PASSIVE")
    put(al.QUESTION_WORDS, "QUESTION")
    put(al.ALTERNATIVE_WORDS, "ALT")
    put(al.PASS_WORDS, "PASS")
    by_first: dict[str, list[tuple[str, str, Any]]] = {}
    for key in sorted(table, key=len, reverse=True):
        by_first.setdefault(key[0], []).append((key, *table[key]))
    return by_first


VOCAB = _build_vocab()
# The words starting with each character, longest first, as one pattern: the first that matches is the word the
# loop over VOCAB[c] would take, found in one call.
VOCAB_AT = {c: re.compile("|".join(re.escape(key) for key, _, _ in words)) for c, words in VOCAB.items()}
VOCAB_ENTRY = {key: (kind, value) for words in VOCAB.values() for key, kind, value in words}


def lex(norm: str, start: int, end: int, book: NameBook) -> list[Token]:
    """Tokens of norm[start:end]."""
    out: list[Token] = []
    i = start
    while i < end:
        tok = _numbering_at(norm, i, start, end) if i == start or norm[i - 1] in _LIST_BREAKS else None
        if tok is None:
            tok = _token_at(norm, i, end, book)
        if tok is not None:
            out.append(tok)
            i = tok.end
            continue
        if out and out[-1].kind == "GAP" and out[-1].end == i:
            out[-1].end = i + 1  # its text is set below: one copy, not one per character
        else:
            out.append(Token("GAP", i, i + 1, None, norm[i]))
        i += 1
    for tok in out:
        if tok.kind == "GAP":
            tok.text = norm[tok.start : tok.end]
    return _merge_spaced_gaps(out)


def _token_at(norm: str, i: int, end: int, book: NameBook) -> Token | None:
    """The token at norm[i] (within norm[:end]), or None when nothing is read there (a character of a gap): a
    separator or punctuation unless a name starts there ("_0", "..."), else the longest of the player name, the
    vocabulary word and the pattern there; on a tie the vocabulary or pattern beats a player name."""
    hit = book.match_at(norm, i)
    if hit and i + hit[0] > end:
        hit = None
    c = norm[i]
    if not hit and c in SEPARATORS:
        return Token("SEP", i, i + 1, c, c)
    if not hit and (c in PUNCTUATION or c.isspace()):
        return Token("PUNCT", i, i + 1, c, c)
    cands: list[Token] = []
    if hit:
        cands.append(Token("NAME", i, i + hit[0], book.canonical(hit[1]), hit[1]))
    word = _word_at(norm, i, end)
    if word is not None:
        cands.append(word)
    rx = pattern_at(norm, i)
    if rx and rx.end <= end:
        cands.append(rx)
    if not cands:
        return None
    return cands[0] if len(cands) == 1 else max(cands, key=lambda t: (t.end, t.kind != "NAME"))


def _numbering_at(norm: str, i: int, start: int, end: int) -> Token | None:
    """A list's number: "1. 狙击 张三", "(2) 束魂 李四" at the start of a line, "1.保镖 2.庶民" after a space or comma."""
    if i == start or norm[i - 1] == "\n":
        m = _NUMBERING.match(norm, i, end)
    elif norm[i - 1] in " \t:,;、":
        m = _MID_NUMBERING.match(norm, i, end)
    else:
        return None
    return Token("PUNCT", i, m.end(), None, m.group(0)) if m else None


def _merge_spaced_gaps(tokens: list[Token]) -> list[Token]:
    """'jon smith': two gaps separated only by spaces are one gap."""
    out: list[Token] = []
    for tok in tokens:
        if (
            tok.kind == "GAP"
            and len(out) >= 2
            and out[-1].kind == "PUNCT"
            and out[-1].text.isspace()
            and out[-2].kind == "GAP"
            and out[-2].text.isascii()
            and tok.text.isascii()
        ):
            space = out.pop()
            prev = out[-1]
            prev.text += space.text + tok.text
            prev.end = tok.end
            continue
        out.append(tok)
    return out


def meaningful(tokens: list[Token]) -> list[Token]:
    return [t for t in tokens if t.kind not in ("STOP", "PUNCT", "SEP")]


def _word_at(norm: str, i: int, end: int) -> Token | None:
    """The longest vocabulary word at norm[i], with whether a privilege's spelling is weak and the card it implies."""
    words = VOCAB_AT.get(norm[i])
    word = words.match(norm, i, end) if words is not None else None
    if word is None:
        return None
    key = word.group(0)
    kind, value = VOCAB_ENTRY[key]
    tok = Token(kind, i, i + len(key), value, key)
    if kind == "USE":
        tok.weak = key in al.WEAK_SPELLINGS
        tok.hint = al.SPELLING_CARD_HINT.get(key)
    return tok
