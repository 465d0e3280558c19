"""Every word of a message accounted for (docs/parser.md, "nothing dropped"): each character of the text is part of an
input, of the 杀人宣言 an attack publishes, of a refusal, or of a note that says in words what the parser took it
for (a greeting, a guess, a quote, a signature, talk that names players…) and that it gave no input.

`gap_notes` gives the notes of what no input, 宣言, refusal or note of the reading covers; `account` cuts the text
into parts, each of one kind, for the preview to show in the order they were written.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .lexer import lex
from .names import NameBook
from .text import Text

PART_KINDS = ("input", "manifesto", "refusal", "note")  # the stronger first: a character takes the first that covers it

# The words that make a part worth a reason of its own: an action word, a card, a position or a player.
_MENTIONS = frozenset({"USE", "CARD", "POS", "NAME", "SEAT", "VOTE", "CHANGE", "SELFVOTE", "ORDER", "BOTTOM"})
_SIGNED = re.compile(
    r"\s*(?:p\.?\s?s\.?|pps|备注|附言|补充|@?天神|@?gm(?![a-z])|谢谢|多谢|感谢|辛苦|麻烦|拜托|thanks|thx|——|—|--|~~|by\s)",
    re.I,
)
_WHO = r"(?:天神|gm|大家|各位)\s*(?:大人)?"
# A greeting and nothing else: 天神晚上好~, hi 天神, 大家好, 在吗?
_GREETING = re.compile(
    rf"\s*(?:{_WHO}\s*,?\s*)?(?:你好|您好|好|早上好|下午好|晚上好|晚安|早安|在吗|hi|hello|嗨|哈喽)"
    rf"(?:\s*,?\s*{_WHO})?[\W_]*",
    re.I,
)
_CORRECTED = re.compile(r"\s*(?:哦|噢|喔|啊|呃|额)?[\s,]*(?:不对|说错了|打错了|写错了|搞错了|更正|纠正|订正|修正|改正)")
_TAGS = re.compile(r"(?:\s*\[[^\]\n]{0,40}\]\s*)+")
_QUOTE_MARKS = frozenset('「」『』“”"‘’')
_BRACKETS = {"(": ")", "\uff08": "\uff09", "[": "]", "【": "】"}
MAX_SAID = 60
_QUIET = frozenset({"GAP", "STOP", "PUNCT", "SEP", "SELF", "FILL", "REPEAT"})
_CLAUSE_ENDS = frozenset(",,、;;。\n")
_ENDS = frozenset("\n。!?;\uff01\uff1f\uff1b")  # a note is one sentence or line
_BREAKS = _CLAUSE_ENDS | _ENDS
# Not part of a note's words (brackets and quote marks are).
_TRIM = " \t\r\n\u3000,.;!?~:、。…\uff0c\uff1b\uff01\uff1f\uff5e\uff1a"


def blank(words: str) -> bool:
    """Nothing but spaces, punctuation, symbols (emoji) and control characters: no word to account for."""
    return all(unicodedata.category(c)[0] in "ZPSC" for c in words)


def _said(words: str) -> str:
    words = " ".join(words.split())
    return words if len(words) <= MAX_SAID else words[: MAX_SAID - 1] + "…"


def gap_notes(
    text: Text, book: NameBook, covered: Sequence[Sequence[int]], inputs: Sequence[Sequence[int]] = ()
) -> list[dict]:
    """A note for each run of the text (as written, `text.raw`) that no span in `covered` holds and that has a word
    in it: {"text", "reason", "span"}, one a sentence or line. Runs of blank characters need none (the preview shows
    them with the part before them). A few words of an input's own clause that say nothing more ("今晚给", "一下",
    beside the input's span in `inputs`) and BBCode tags are marked "with_input": the preview shows them with the
    input beside them, if any. Linear: each run is lexed once."""
    n = len(text.raw)
    spans = sorted((max(0, s[0]), min(n, s[1])) for s in covered if s and s[0] < s[1])
    edges = {s[0] for s in inputs if s} | {s[1] for s in inputs if s}
    notes: list[dict] = []
    at = 0
    for a, b in [*spans, (n, n)]:
        if a > at:
            notes.extend(_run_notes(text, book, at, a, edges))
        at = max(at, b)
    return notes


def _run_notes(text: Text, book: NameBook, a: int, b: int, edges: set[int]) -> list[dict]:
    """The notes of raw[a:b], one a sentence or line: quoted or removed text (a [quote] block, a > line) apart
    from the words read. A few quiet words that end an input's clause or start the next one ("把王五禁锢了,用巫医救
    赵六": "了" and "用") are notes of their own, to go with their input."""
    out: list[dict] = []
    start = a
    cuts = _own_clause_cuts(text, book, a, b, edges)
    for k in range(a, b + 1):
        if not _cut(text, start, k, b, cuts):
            continue
        if not blank(text.raw[start:k]):
            out.append(_note(text, book, start, k, edges))
        start = k
    return out


def _cut(text: Text, start: int, k: int, b: int, cuts: set[int]) -> bool:
    """Whether the note begun at `start` ends before k: at the run's end, where read and removed text meet, at a cut
    of an input's own clause, or after the end of a sentence or line."""
    if k == b:
        return True
    if k <= start:
        return False
    kept_before = k - 1 in text.kept
    return (k in text.kept) != kept_before or k in cuts or (kept_before and text.raw[k - 1] in _ENDS)


def _note(text: Text, book: NameBook, start: int, k: int, edges: set[int]) -> dict:
    """The note of raw[start:k] (a run with a word in it): its words, their span without the punctuation around
    them, and the reason, saying what they are (BBCode tags and an input's own quiet words go with the input)."""
    words = text.raw[start:k]
    core = words.strip(_TRIM)
    lead = len(words) - len(words.lstrip(_TRIM))
    note: dict = {"text": _said(core), "span": [start + lead, k - len(words) + len(words.rstrip(_TRIM))]}
    if start not in text.kept and _TAGS.fullmatch(words):
        note.update(reason=f"“{note['text']}”是论坛的排版代码,不影响读法", with_input=True)
    elif start not in text.kept:
        note["reason"] = _removed(words)
    else:
        note["reason"], quiet = _reason(text, book, start, k)
        if quiet and _beside_input(words, start, k, lead, edges) and not _CLAUSE_ENDS.intersection(core):
            note.update(reason=f"“{note['text']}”是这条指令里的其他字,不改变读法", with_input=True)
    return note


def _beside_input(words: str, start: int, k: int, lead: int, edges: set[int]) -> bool:
    """Whether the words raw[start:k] touch an input with no clause end between: 治疗李四|一下, 今晚给|自己治疗."""
    tail = words[len(words.rstrip(_TRIM)) :]
    after = start in edges and not _CLAUSE_ENDS.intersection(words[:lead])
    before = k in edges and not _CLAUSE_ENDS.intersection(tail)
    return after or before


_HEAD = 12  # the most characters of a few words of an input's clause cut from a run
_LEADS_IN = _CLAUSE_ENDS | frozenset(":\uff1a)\uff09]】")  # "更正:今晚|用束魂牌束魂赵六"
_HEAD_ENDS = _CLAUSE_ENDS | frozenset(_BRACKETS)  # a clause end, or a bracket that opens an aside


def _own_clause_cuts(text: Text, book: NameBook, a: int, b: int, edges: set[int]) -> set[int]:
    """Where raw[a:b] is cut after the first clause end (or before a bracket) when the run starts at an input's
    end, and after the last clause end, colon or bracket when it ends at an input's start, if the words so cut off
    are a few quiet ones (an input's own): "把王五禁锢了(她白天一直带节奏)", "更正:今晚用束魂牌束魂赵六"."""
    after = _cut_after_input(text, book, a, b) if a in edges else None
    before = _cut_before_input(text, book, a, b) if b in edges else None
    return {at for at in (after, before) if at is not None}


def _cut_after_input(text: Text, book: NameBook, a: int, b: int) -> int | None:
    """The cut after the first clause end (or before a bracket) near the start of raw[a:b], when the words before
    it are quiet: "把王五禁锢了|(她白天一直带节奏)"."""
    raw = text.raw
    p = next((k for k in range(a, min(b, a + _HEAD)) if raw[k] in _HEAD_ENDS), None)
    if p is None or p <= a or not _quiet(text, book, a, p):
        return None
    return p if raw[p] in _BRACKETS else p + 1


def _cut_before_input(text: Text, book: NameBook, a: int, b: int) -> int | None:
    """The cut after the last clause end, colon or bracket near the end of raw[a:b], when the words after it are
    quiet: "更正:|今晚用束魂牌束魂赵六"."""
    raw = text.raw
    q = next((k for k in range(b - 1, max(a, b - _HEAD) - 1, -1) if raw[k] in _LEADS_IN), None)
    if q is None or q + 1 >= b or not _quiet(text, book, q + 1, b):
        return None
    return q + 1


def _quiet(text: Text, book: NameBook, a: int, b: int) -> bool:
    words = text.raw[a:b]
    return all(k in text.kept for k in range(a, b)) and not blank(words) and _reason(text, book, a, b)[1]


def _removed(words: str) -> str:
    """Text the parser never reads: a [quote] block, a line starting with > or 引用, an image."""
    return f"“{_said(words.strip(_TRIM))}”是引用的文字(别人的话或前面的帖子)或附件,不读,没有当作指令"


def _reason(text: Text, book: NameBook, a: int, b: int) -> tuple[str, bool]:
    """What raw[a:b] is, in a sentence, and whether it is quiet: a few words with no action word, card, position,
    name or anything else the parser reads as meaning."""
    na, nb = bisect.bisect_left(text.origin, a), bisect.bisect_left(text.origin, b)
    norm = text.norm[na:nb]
    said = _said(text.raw[a:b].strip(_TRIM))
    if not norm.strip() or (blank(norm) and any(c in _QUOTE_MARKS for c in text.raw[a:b])):
        return f"“{said}”是引号里引用的话,没有当作指令", False
    tokens = lex(text.norm, na, nb, book)
    kinds = {t.kind for t in tokens}
    mentioned = list(
        dict.fromkeys(
            text.raw[text.origin[t.start] : text.origin[t.end - 1] + 1] for t in tokens if t.kind in _MENTIONS
        )
    )
    what = _what(norm.strip(_TRIM), kinds)
    reason = f"“{said}”{what},没有当作指令"
    if mentioned:
        words = "、".join(f"“{w}”" for w in mentioned[:5]) + ("等" if len(mentioned) > 5 else "")
        reason += f";这里提到了{words},但没有读出要做的事:如果这是要做的事,请写清楚"
    quiet = kinds <= _QUIET and len(norm.strip(_TRIM)) <= 8 and what == _CHATTER
    return reason, quiet


@dataclass(frozen=True)
class _Talk:
    """What a run that gave no input is, in words (`said`): when its words fit `pattern` (from the start; all of them
    when `whole`), end with `ending`, or hold a token of one of `kinds`, and are at most `longest` characters."""

    said: str
    pattern: re.Pattern[str] | None = None
    whole: bool = False
    kinds: frozenset[str] = frozenset()
    ending: str | None = None
    longest: int | None = None

    def fits(self, norm: str, kinds: set[str]) -> bool:
        """Whether a run of these normalised words and token kinds is this."""
        if self.longest is not None and len(norm) > self.longest:
            return False
        if self.pattern is not None and (self.pattern.fullmatch(norm) if self.whole else self.pattern.match(norm)):
            return True
        return bool(self.kinds & kinds) or (self.ending is not None and norm.endswith(self.ending))


_CHATTER = "是闲聊或说明"
# An opening bracket and its closing one around the whole run.
_ASIDE = re.compile("|".join(f"{re.escape(a)}.*{re.escape(b)}" for a, b in _BRACKETS.items()), re.S)
# What a run that gave no input reads as: the first that fits, else chatter.
_TALK = (
    _Talk("是括号里的旁白", _ASIDE, whole=True),
    _Talk("是问候", _GREETING, whole=True),
    _Talk("是附言、签名或写给天神的话", _SIGNED),
    _Talk("是更正的话", _CORRECTED),
    _Talk("是理由", kinds=frozenset({"REASON"})),
    _Talk("是转述或说别人的事", kinds=frozenset({"REPORT", "OTHER"})),
    _Talk("是假设", kinds=frozenset({"COND"})),
    _Talk("是问句", kinds=frozenset({"QUESTION"}), ending="?"),
    _Talk("是猜测或闲聊", kinds=frozenset({"OPINION", "HEDGE"})),
    _Talk("是杀人宣言的标记", kinds=frozenset({"MANIFESTO"}), longest=8),
)


def _what(norm: str, kinds: set[str]) -> str:
    """What a run that gave no input reads as, in words."""
    return next((talk.said for talk in _TALK if talk.fits(norm, kinds)), _CHATTER)


@dataclass(frozen=True)
class Part:
    """Characters [start, end) of the text, all of one kind: "input" (the words an input was read from),
    "manifesto" (a 杀人宣言 to publish; `index` is its attack's), "refusal", "note" — `index` says which of them
    and `entry` is it (or what the caller passed for it, `items`) — or "unread" (words nothing accounts for: the
    parser never leaves any) and "blank" (a text of no word)."""

    start: int
    end: int
    kind: str
    index: int
    text: str
    entry: Any = field(default=None, compare=False)


def account(
    text: str,
    *,
    inputs: Sequence[dict],
    refusals: Sequence[dict],
    notes: Sequence[dict],
    items: Sequence[Any] | None = None,
) -> list[Part]:
    """The text cut into parts in the order written, each character in exactly one. Where spans overlap the
    stronger kind wins (PART_KINDS), then the earlier entry; blank characters go with the part before them (the first
    part's with the one after), and a note marked "with_input" with the input beside it: the one before it when no
    clause end stands between them and one stands before the next ("把王五禁锢了。治疗孙八"), else the next. `items`:
    what each part of an input carries as its `entry` (the preview's item of each input, in the same order), else the
    input."""
    n = len(text)
    if n == 0:
        return []
    runs = _runs(n, _spans(n, inputs, refusals, notes))
    parts = _parts(text, runs, notes)
    carried: tuple[Sequence[Any], ...] = (items if items is not None else inputs,) * 2 + (refusals, notes)
    return [_part(text, run, carried) for run in parts]


# A span of the text and what holds it: (start, end, kind, index), kind 0–3 the place in PART_KINDS, index the entry's.
_Span = tuple[int, int, int, int]
_UNREAD = 4  # the kind of characters no span holds
_HELD = -1  # the kind of blank characters before the first part, held for it


def _spans(n: int, inputs: Sequence[dict], refusals: Sequence[dict], notes: Sequence[dict]) -> list[_Span]:
    """The spans of every input (its words and its 宣言's), refusal and note, within the text's n characters."""
    spans: list[_Span] = []
    for k, item in enumerate(inputs):
        spans.extend((s[0], s[1], 0, k) for s in [item.get("span")] if s)
        spans.extend((s[0], s[1], 1, k) for s in item.get("manifesto_spans") or ())
    for kind, entries in ((2, refusals), (3, notes)):
        spans.extend((e["span"][0], e["span"][1], kind, k) for k, e in enumerate(entries) if e.get("span"))
    return [(max(0, a), min(n, b), kind, k) for a, b, kind, k in spans if max(0, a) < min(n, b)]


def _runs(n: int, spans: list[_Span]) -> list[list]:
    """The text as runs [start, end, kind, index] of the span that holds each character: the strongest kind, then
    the earliest entry; characters no span holds are of kind `_UNREAD`."""
    bounds = sorted({0, n, *(a for a, *_ in spans), *(b for _, b, *_ in spans)})
    opens: dict[int, list[tuple[int, int]]] = {}
    closes: dict[int, list[tuple[int, int]]] = {}
    for a, b, kind, k in spans:
        opens.setdefault(a, []).append((kind, k))
        closes.setdefault(b, []).append((kind, k))
    live: dict[tuple[int, int], int] = {}
    runs: list[list] = []
    for a, b in itertools.pairwise(bounds):
        for key in closes.get(a, ()):
            live[key] -= 1
            if not live[key]:
                del live[key]
        for key in opens.get(a, ()):
            live[key] = live.get(key, 0) + 1
        kind, k = min(live) if live else (_UNREAD, -1)
        if runs and runs[-1][2:] == [kind, k] and runs[-1][1] == a:
            runs[-1][1] = b
        else:
            runs.append([a, b, kind, k])
    return runs


def _soft(text: str, run: list) -> bool:
    """Blank characters nothing holds."""
    return run[2] == _UNREAD and blank(text[run[0] : run[1]])


def _parts(text: str, runs: list[list], notes: Sequence[dict]) -> list[list]:
    """The runs joined into the parts shown: blank characters with the part before them (or the first part), and a
    note marked "with_input" with its input."""
    parts: list[list] = []
    said_end = 0  # where the words of the last part end (blank characters after them aside)
    for i, run in enumerate(runs):
        kind = run[2]
        if kind == 3 and notes[run[3]].get("with_input"):  # a few words of an input's clause: with the input
            placed = _with_input(text, runs, i, parts, said_end)
            if placed is None:
                parts[-1][1] = said_end = run[1]
                continue
            kind = placed
        elif _soft(text, run):
            if parts:
                parts[-1][1] = run[1]
                continue
            kind = _HELD  # blank words before the first part: it takes them below
        said_end = run[1]
        _add(parts, [run[0], run[1], kind, run[3] if kind >= 0 else -1])
    return parts


def _with_input(text: str, runs: list[list], i: int, parts: list[list], said_end: int) -> int | None:
    """Where the note of runs[i], marked "with_input", goes: None when into the input before it (they touch, no
    clause end between: "把王五禁锢了。治疗孙八": 了 is the first's), `_HELD` when before the next input (it takes
    them), else 3 (a note of its own)."""
    run = runs[i]
    after = next((r for r in runs[i + 1 :] if not _soft(text, r)), None)
    next_input = after is not None and after[2] == 0
    input_before = bool(parts) and parts[-1][2] == 0
    joined = input_before and not _BREAKS.intersection(text[said_end : run[0]])
    if next_input and joined and after is not None:
        joined = bool(_BREAKS.intersection(text[run[1] : after[0]]))
    if joined or (not next_input and input_before):
        return None
    return _HELD if next_input else 3


def _add(parts: list[list], run: list) -> None:
    """A run after the parts: it takes the blank characters held before it, and is one part with the last when of
    the same kind and entry."""
    if parts and parts[-1][2] == _HELD and run[2] != _HELD:
        run[0] = parts.pop()[0]
    if parts and parts[-1][2:] == run[2:]:
        parts[-1][1] = run[1]
    else:
        parts.append(run)


def _part(text: str, run: list, carried: tuple[Sequence[Any], ...]) -> Part:
    """A part as shown: its kind's name and the entry it carries; "blank" for a text of no word."""
    a, b, kind, k = run
    if kind < 0:
        return Part(a, b, "blank", -1, text[a:b])
    return Part(a, b, (*PART_KINDS, "unread")[kind], k, text[a:b], carried[kind][k] if kind < _UNREAD else None)
