"""The whole message: manifestos, discard orders, votes, stance and privileges, in the order they were written."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cards import catalogue as cat

from . import aliases as al
from . import cues, orders, scoped, votes
from .account import gap_notes
from .actions import Clause, Group, GroupReading, Resolver, build
from .lexer import Token, lex, meaningful
from .names import NameBook
from .stance import CARD_ONLY, Stance
from .text import Text, lines, normalise_word, prepare, quoted

COMMAND_KINDS = ("USE", "CARD", "ORDER", "MANIFESTO", "MODE", "STANCE", "SIDE")
_AFTER_MARKER = re.compile(r"\s*(?:如下|见下|是|为)?\s*[:]?\s*")
HELP = (
    "可以这样写:“狙击 张三”“瞄准狙击 张三 倒数第2张”“束魂 李四”“用杀手牌攻击 王五,杀人宣言:……”"
    "“阿米巴变形成狙击手”“丢牌顺序:庶民、束魂、保镖、杀手”;白天的投票帖:“投 张三”“改投 李四”"
)


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


# The most characters of one message the parser reads: the console takes a PM of at most 20,000
# characters, a real one is under 2,000. Beyond it the first MAX_CHARS (up to the last line break in them) are read
# and the rest is refused, shown to the 天神, never read: a reader of any text stays well under a second.
MAX_CHARS = 20_000


def clip(raw: str, max_chars: int | None) -> int:
    """Where the parser stops reading `raw`: len(raw), or the last line break in the first max_chars characters
    (when it is in their second half), else max_chars."""
    if max_chars is None or len(raw) <= max_chars:
        return len(raw)
    cut = raw.rfind("\n", 0, max_chars)
    return cut + 1 if cut >= max_chars // 2 else max_chars


def _too_long(raw: str, cut: int) -> dict:
    rest = raw[cut:].strip()
    return {
        "text": rest[:40] + ("…" if len(rest) > 40 else ""),
        "reason": f"这条消息太长(共{len(raw):,}字):只读了前{cut:,}字,后面{len(raw) - cut:,}字没有读;"
        f"一条消息最多读{MAX_CHARS:,}字,后面的部分请天神自己看,需要的话用表单录入",
        "span": [cut, len(raw)],
    }


def parse(
    raw: str,
    *,
    sender: str,
    players: Sequence[str],
    hand: Sequence[str],
    phase: str,
    hand_size: int,
    votes_only: bool = False,
    max_chars: int | None = MAX_CHARS,
):
    full = raw if isinstance(raw, str) else ""
    cut = clip(full, max_chars)
    raw = full[:cut]
    inputs, refusals, notes = _parse(
        raw, sender=sender, players=players, hand=hand, phase=phase, hand_size=hand_size, votes_only=votes_only
    )
    inputs, refusals, notes = _bounded(full, inputs, refusals, notes)
    if cut < len(full):
        refusals = (*refusals, _too_long(full, cut))
    return inputs, refusals, notes


# The most inputs and refusals one message gives (a real one has a handful): beyond them the rest of the message is
# one refusal with its span. Each refusal quotes at most QUOTE_MAX characters (its span marks all its words): 20,000
# characters of one clause refused 400 times would otherwise be 8 MB of reasons for the preview to render (a bound
# for the page as well as the parser).
MAX_ITEMS = 60
QUOTE_MAX = 120


def short(words: str, limit: int = QUOTE_MAX) -> str:
    """The player's words as a reason quotes them: at most `limit` characters, a cut marked with …"""
    return words if len(words) <= limit else words[: limit - 1] + "…"


def _bounded(raw: str, inputs: tuple, refusals: tuple, notes: tuple) -> tuple[tuple, tuple, tuple]:
    for r in (*refusals, *notes):
        r["text"] = short(r["text"])
        if len(r["reason"]) > 4 * QUOTE_MAX:
            r["reason"] = r["reason"][: 2 * QUOTE_MAX] + "…" + r["reason"][-2 * QUOTE_MAX :]
    if len(inputs) + len(refusals) <= MAX_ITEMS:
        return inputs, refusals, _fewer_notes(notes)
    items = sorted(
        [(i.get("span", [len(raw)])[0], 0, k, i) for k, i in enumerate(inputs)]
        + [(r.get("span", [len(raw)])[0], 1, k, r) for k, r in enumerate(refusals)],
        key=lambda x: x[:3],
    )
    kept, rest = items[: MAX_ITEMS - 1], items[MAX_ITEMS - 1 :]
    at = min(x[0] for x in rest)
    if kept:  # never split the words an item kept was read from
        at = max(at, max(x[3].get("span", [0, 0])[1] for x in kept))
    at = min(at, len(raw))
    more = {
        "text": short(raw[at:].strip(), 40),
        "reason": f"这条消息里能读出的东西太多(超过{MAX_ITEMS}项):只读了前{len(kept)}项,从第{at + 1:,}字起没有读;"
        "一条短消息写不了这么多特权,请天神自己看,需要的话用表单录入",
        "span": [at, len(raw)],
    }
    return (
        tuple(x[3] for x in kept if x[1] == 0),
        (*(x[3] for x in kept if x[1] == 1), more),
        _fewer_notes(tuple(n for n in notes if n["span"][0] < at)),  # the rest is the refusal's
    )


def _fewer_notes(notes: tuple) -> tuple:
    """At most MAX_ITEMS notes: the words of the others are one last note, saying how many it stands for."""
    if len(notes) <= MAX_ITEMS:
        return notes
    rest = notes[MAX_ITEMS - 1 :]
    span = [rest[0]["span"][0], max(n["span"][1] for n in rest)]
    last = {
        "text": rest[0]["text"],
        "reason": f"从这里起还有{len(rest)}处没有当作指令的文字(闲聊、猜测、引用等),不再逐一说明:请天神自己看",
        "span": span,
    }
    return (*notes[: MAX_ITEMS - 1], last)


def _parse(
    raw: str,
    *,
    sender: str,
    players: Sequence[str],
    hand: Sequence[str],
    phase: str,
    hand_size: int,
    votes_only: bool,
):
    book = NameBook(players, sender)
    text = _mask_quotes(prepare(raw if isinstance(raw, str) else ""), book)
    m = MessageReading(text, book, canonical_hand(hand), phase, hand_size)
    m.line_spans = lines(text)
    m.live = list(m.line_spans)
    _read(m, votes_only)
    _say_why_nothing(m, raw)
    inputs = tuple(_with_span(text, d) for _, d in sorted(m.inputs, key=lambda x: x[0]))
    refusals = tuple(d for _, d in sorted(m.refusals, key=lambda x: x[0]))
    for d in refusals:
        if isinstance(d.get("input"), dict):
            d["input"].pop("_mf_spans", None)
    return inputs, refusals, _notes(m, inputs, refusals)


def _read(m: MessageReading, votes_only: bool) -> None:
    """The message read in stages: a vote post, a day vote post with a privilege beside its vote, or the whole
    message (杀人宣言, discard orders, votes, privileges and stance)."""
    if votes_only:
        if not _votes(m):
            _bare_vote(m)
        scoped.apply(m)
    elif m.phase == "day" and _votes(m):
        _actions(m, after_vote=True)  # a day vote post: its vote, and a privilege in a clause of its own
        _corrections(m)
        scoped.apply(m)
    else:
        _manifestos(m)
        _ordinals(m)
        _orders(m)
        if not (m.phase != "day" and _votes(m)):
            _actions(m)
            _corrections(m)
        scoped.apply(m)
        _attach_manifestos(m)
        _unread(m)


def _say_why_nothing(m: MessageReading, raw: str) -> None:
    """A message that gave no input and no refusal is refused, saying why: the notes on what it seemed to ask, else
    what would be accepted."""
    if not m.inputs and not m.refusals and m.notes:
        for start, end, reason in m.notes:  # say why the one thing the message seemed to ask was not taken
            m.refuse(start, end, reason)
        m.notes.clear()
    if not m.inputs and not m.refusals:
        m.refusals.append((0, _nothing_read(raw, m.text)))


def _nothing_read(raw: str, text: Text) -> dict:
    """The refusal of a message in which nothing was found."""
    shown = raw.strip() if isinstance(raw, str) else ""
    shown = shown if len(shown) <= 80 else shown[:80] + "…"
    if text.norm.strip():
        reason = "没看懂这条消息:没有找到特权、丢牌顺序或投票。" + HELP
    else:
        reason = "这条消息没有可用的内容(引用的文字不算)。" + HELP
    item: dict = {"text": shown, "reason": reason}
    if isinstance(raw, str) and raw.strip():
        item["span"] = [len(raw) - len(raw.lstrip()), len(raw.rstrip())]
    return item


def _notes(m: MessageReading, inputs: tuple, refusals: tuple) -> tuple:
    """Each clause read as not an instruction, with its reason, and a note for every other part of the text that
    no input, 杀人宣言 or refusal holds (docs/parser.md: nothing dropped), in the order written."""
    notes = []
    for start, end, reason in sorted(set(m.notes)):
        span = m.text.raw_span(start, end)
        if span:
            notes.append({"text": m.text.fragment(start, end), "reason": reason, "span": span})
    covered = [
        *(i["span"] for i in inputs if i.get("span")),
        *(s for i in inputs for s in i.get("manifesto_spans", ())),
        *(r["span"] for r in refusals if r.get("span")),
        *(n["span"] for n in notes),
    ]
    notes.extend(gap_notes(m.text, m.book, covered, [i["span"] for i in inputs if i.get("span")]))
    return tuple(sorted(notes, key=lambda n: n["span"][0]))


def _with_span(text: Text, item: dict) -> dict:
    """The input with its evidence as [start, end] in the text the player wrote."""
    norm_span = item.pop("_span", None)
    span = text.raw_span(*norm_span) if norm_span else None
    if span:
        item["span"] = span
    mf_spans = [s for s in (text.raw_span(a, b) for a, b in item.pop("_mf_spans", ())) if s]
    if mf_spans and "manifesto" in item:
        item["manifesto_spans"] = mf_spans  # the words published as the 杀人宣言, to mark in the preview
    return item


def _mask_quotes(text: Text, book: NameBook) -> Text:
    """Blank the words a player quotes — 「投王五」, “狙击赵六” — when they hold an order: never the sender's own.
    A quoted single word ("用“束魂”") is emphasis and stays."""
    spans = []
    for a, b in quoted(text.norm):
        inner = meaningful(lex(text.norm, a + 1, b - 1, book))
        if len(inner) >= 2 and any(t.kind in ("USE", "VOTE", "CHANGE", "SELFVOTE", "CARD") for t in inner):
            spans.append((a, b))
    return text.masked(spans) if spans else text


# ------------------------------------------------------------------------------------------------ 杀人宣言 (N-kill)
def _starts_command(tokens: list[Token]) -> bool:
    first = next((t for t in meaningful(tokens) if t.kind != "GAP" or not t.text.strip(".、)0123456789")), None)
    if first is not None and first.kind == "MANIFESTO" and first.text == "宣言":
        return False  # a bare 宣言 without a colon is prose
    if first is None or first.kind not in COMMAND_KINDS:
        return False
    if first.kind in ("ORDER", "MANIFESTO", "MODE", "STANCE", "SIDE"):
        return True
    kinds = {t.kind for t in meaningful(tokens)}
    return bool(kinds & {"NAME", "SEAT", "SELF"}) or kinds <= {"USE", "CARD", "POS"}


# Where a 杀人宣言 ends: at a sentence or line that starts with a word to the 天神 (PS, 天神:, 谢谢, 辛苦),
# a reason (理由:), a position (正数第2张) or a discard order. What follows is never published.
MANIFESTO_END = re.compile(
    r"(?:p\.?\s?s\.?|pps|备注|附言|附\s*:|补充|另外|顺便|对了|@?天神\s*(?:大人)?\s*[,:~!]|@天神|@?gm\b|"
    r"天神\s*(?:大人)?\s*(?:辛苦|谢谢|多谢|麻烦|拜托|您|你)|"
    r"(?:理由|原因)\s*(?:是|为|:)|谢谢|多谢|感谢|辛苦|麻烦天神|拜托天神|thanks|thx|"
    r"(?:正数|倒数|顺数|从前往后数|从后往前数)\s*第|第\s*[\d一二三四五]\s*张|位置\s*[:是]|"
    r"丢牌顺序|弃牌顺序|顺序\s*:|底牌\s*[是:]|"
    # a signature (—— 某某 留, by 某某), another instruction (同时开…, 瞄他倒数第三张): never published
    r"(?:——|—|--|－－|~~)|by\s|同时|(?:瞄准?|狙击?|打)\s*(?:他|她|它|ta)?\s*的?\s*(?:倒数|正数|顺数|从后往前数|从前往后数)?\s*第)",
    re.I,
)
# Inside a 杀人宣言, a bracket addressed to the 天神 ("(天神帮我看看字数够不够)") or a signature at the end of a
# sentence ("…,钱七 留") ends it: the words published are the declaration only.
_MANIFESTO_CUT = re.compile(
    r"[(\[【]\s*(?:@?天神|@?gm\b|法官|主持)|(?:——|—|--|－－)\s*\S|(?:^|(?<=[\s,。.!~]))by\s+\S", re.I
)


def manifesto_cut(norm: str, start: int, end: int) -> int:
    """Where the words to publish in norm[start:end] stop: before a bracket to the 天神 or a signature, else end."""
    found = _MANIFESTO_CUT.search(norm, start, end)
    at = found.start() if found else end
    while at > start and norm[at - 1] in ",、;: \t\n":
        at -= 1
    return at


_SENTENCE_START = re.compile(r"(?:^|(?<=[。.!?;~…\n,]))[ \t]*")


# An inner sentence of the declaration starting with one of these stays in it unless it carries an instruction
_SOFT_START = re.compile(r"顺便|另外|对了|同时")
_INSTRUCTION = re.compile(
    "|".join(
        re.escape(w)
        for w in sorted(
            {normalise_word(w) for ws in al.USE_SPELLINGS.values() for w in ws if len(w) >= 2}
            | {normalise_word(w) for ws in al.CARD_SPELLINGS.values() for w in ws if len(w) >= 2},
            key=len,
            reverse=True,
        )
    )
    + r"|倒数|第\s*[\d一二三四五]\s*张|投|开"
)


def manifesto_end(norm: str, start: int, end: int) -> int:
    """Where the 杀人宣言 written in norm[start:end] ends: the first sentence that is no longer part of it."""
    for found in _SENTENCE_START.finditer(norm, start, end):
        at = found.end()
        if at < end and MANIFESTO_END.match(norm, at, end) and not _inner_sentence(norm, at, end):
            return found.start() if found.start() > start else at
    return end


def _inner_sentence(norm: str, at: int, end: int) -> bool:
    """ "顺便说一句,你的发言太假了": a sentence of the declaration that carries no instruction of the sender's."""
    if not _SOFT_START.match(norm, at, end):
        return False
    stop = next((k for k in range(at, end) if norm[k] in "。.!?;\n"), end)
    return not _INSTRUCTION.search(norm, at, stop)


def _ends_manifesto(m: MessageReading, i: int) -> bool:
    span = m.live[i]
    if span is None:
        return True  # a line already read as something else
    a, b = span
    first = _SENTENCE_START.match(m.text.norm, a, b)
    at = first.end() if first else a
    return bool(MANIFESTO_END.match(m.text.norm, at, b)) or any(t.kind == "MANIFESTO" for t in m.tokens(i))


def _repeats_attack(m: MessageReading, i: int, attacked: set[str]) -> bool:
    """A line of the 杀人宣言 that names an attack on a player the message already attacks ("杀了赵六大家就安全了"):
    quoted text, not an input."""
    groups = build(meaningful(m.tokens(i))).groups
    names = _attacked(m.tokens(i))
    return bool(groups) and all(g.use in al.ATTACK_USES for g in groups) and bool(names) and names <= attacked


def _attacked(tokens: list[Token]) -> set[str]:
    """The players an attack written in these tokens is aimed at."""
    return {
        t.value.name
        for g in build(meaningful(tokens)).groups
        if g.use in al.ATTACK_USES
        for t in g.targets
        if t.kind == "NAME" and t.value.name
    }


def _action_word(t: Token) -> bool:
    """A privilege other than an attack, a card other than a commoner (平民 is prose), or a position."""
    return (
        (t.kind == "USE" and t.value not in al.ATTACK_USES)
        or (t.kind == "CARD" and t.value != cat.COMMONER)
        or t.kind == "POS"
    )


def _cut_by_action(m: MessageReading, j: int, attacked: set[str]) -> bool:
    """A line after a 杀人宣言's first that holds a privilege other than an attack, a card or a position ("我猜孙八今晚
    会禁锢我") is not published (docs/parser.md: such a clause is never absorbed); it is shown after reading (_unread)."""
    span = m.live[j]
    if span is None or _repeats_attack(m, j, attacked):
        return False
    if any(_action_word(t) for t in m.tokens(j)):
        m.cut_lines.append(span)
        return True
    return False


def _manifestos(m: MessageReading) -> None:
    """Each 杀人宣言 of the message: the words after its marker, to its end (N-kill)."""
    i = 0
    attacked_before: set[str] = set()  # the players attacked in the lines above (one pass)
    while i < len(m.live):
        toks = m.tokens(i)
        marker = next((t for t in toks if t.kind == "MANIFESTO"), None)
        line = m.live[i]
        if marker is None or line is None:  # (a line already read has no tokens, so no marker)
            attacked_before |= _attacked(toks)
            i += 1
            continue
        after = _AFTER_MARKER.match(m.text.norm, marker.end, line[1])
        assert after is not None  # every part of the pattern is optional: it matches the empty string
        if _prose_marker(marker, after, line[1]):
            i += 1  # "他的宣言很可疑" is not a 杀人宣言 marker; "宣言:" is
            continue
        attacked = attacked_before | _attacked([t for t in toks if t.end <= marker.start])
        attacked_before = attacked
        i = _read_manifesto(m, i, marker, after.end(), attacked)


def _prose_marker(marker: Token, after: re.Match, b: int) -> bool:
    """A bare 宣言 followed by words without a colon: prose, not a marker."""
    return marker.text == "宣言" and ":" not in after.group(0) and after.end() < b


def _goes_on(m: MessageReading, j: int, attacked: set[str]) -> bool:
    """Line j is more of the 杀人宣言 above it: nothing ends it there, it starts no command of its own (or only repeats
    an attack), and it holds no action word (such a line is cut and shown)."""
    return (
        not _ends_manifesto(m, j)
        and (not _starts_command(m.tokens(j)) or _repeats_attack(m, j, attacked))
        and not _cut_by_action(m, j, attacked)
    )


def _read_manifesto(m: MessageReading, i: int, marker: Token, start: int, attacked: set[str]) -> int:
    """The 杀人宣言 whose marker is on line i, its words from `start`: kept with the marker's place; returns the first
    line after it."""
    line = m.live[i]
    assert line is not None
    a, b = line
    m.live[i] = (a, marker.start)
    end = manifesto_end(m.text.norm, start, b)
    j = i + 1
    if end < b:  # the rest of the line (理由:…, PS …) is read as the message, never published
        m.live.insert(j, (end, b))
    else:
        while j < len(m.live) and (next_line := m.live[j]) is not None and _goes_on(m, j, attacked):
            end = next_line[1]
            m.live[j] = None
            j += 1
    end = manifesto_cut(m.text.norm, start, end)
    while end > start and m.text.norm[end - 1] in ",、;: \t":
        end -= 1  # "宣言:你逃不掉的,谢谢天神": the comma before the thanks is not published
    body = m.text.fragment(start, end)
    if body:
        m.manifestos.append((marker.start, body, marker.text == "宣言", end, start))
    return j


def _nearest(attacks: list[tuple[int, dict]], pos: int) -> dict | None:
    """The attack a 杀人宣言 at `pos` belongs to: the last one written before it, else the first after it."""
    before = [d for p, d in attacks if p <= pos]
    after = [d for p, d in attacks if p > pos]
    return before[-1] if before else (after[0] if after else None)


def _attach_manifestos(m: MessageReading) -> None:
    """N-kill: each 杀人宣言 goes to an attack the message reads. Only a message with no clear attack gives it to an
    attack refused for an unclear target (it is that attack's if the 天神 names the target): a clear attack never
    loses its 宣言 to a refusal."""
    attacks = sorted(((pos, d) for pos, d in m.inputs if d.get("use") in al.ATTACK_USES), key=lambda pd: pd[0])
    unsure = sorted(m.unsure_attacks, key=lambda pd: pd[0])
    for pos, body, weak, end, start in m.manifestos:
        target = _nearest(attacks, pos) or _nearest(unsure, pos)
        if target is None and weak:
            continue  # "他的宣言很可疑": chatter, not a 杀人宣言
        if target is None:
            m.refuse(pos, end, "这条短消息里没有攻击,杀人宣言无处归属;请和攻击写在同一条短消息里(N-kill)")
            m.refusals[-1][1]["text"] = body[:40]
        else:
            target["manifesto"] = target["manifesto"] + "\n" + body if "manifesto" in target else body
            target.setdefault("_mf_spans", []).append((start, end))


def _unread(m: MessageReading) -> None:
    """Each line or clause a 杀人宣言 stopped before that gave no input and no refusal is shown: never published,
    never dropped."""
    if not m.cut_lines:
        return
    starts = sorted([d["_span"][0] for _, d in m.inputs if d.get("_span")] + [p for p, _ in m.refusals])
    for a, b in m.cut_lines:  # one binary search each: linear in a message of many attacks
        k = bisect.bisect_left(starts, a)
        if k == len(starts) or starts[k] >= b:
            m.refuse(
                a,
                b,
                "这段写在攻击后面,提到了特权、牌或位置:没有算作杀人宣言(不会公布),也没有当作指令;"
                "如果它是宣言的一部分,请在宣言框里补上,如果是指令,请写清楚",
            )
            bisect.insort(starts, a)


# ------------------------------------------------------------------------------------------------ self-corrections
# "治疗张三,哦不对,治疗李四", "禁锢王五……更正:禁锢赵六": the words after the marker replace the input of the same
# privilege written before it (docs/parser.md, rulings). Where it is not clear which one, both are refused, named.
CORRECTION = re.compile(
    r"(?:(?:^|(?<=[\s,。.!?;~…、:]))(?:哦|噢|喔|啊|呃|额)?|哦|噢|喔|啊|呃|额)[ \t,]*"
    r"(?:不对不对|不对|说错了|打错了|写错了|搞错了|更正|纠正|订正|修正|改正)[ \t]*[,:!。.~…]*"
)


def _corrections(m: MessageReading) -> None:
    """Each correction marker of the message, reaching to the next one."""
    markers = [found for found in CORRECTION.finditer(m.text.norm) if found.end() > found.start()]
    for k, marker in enumerate(markers):
        nxt = markers[k + 1].start() if k + 1 < len(markers) else len(m.text.norm) + 1
        _correct(m, marker, nxt)


def _corrects(d: dict) -> bool:
    """An input a correction may replace: a privilege (a change of target, 改给…, is already the rules' own
    correction: T3)."""
    return "use" in d and not d.get("change")


def _correct(m: MessageReading, marker: re.Match, nxt: int) -> None:
    """What the words after one correction marker, up to nxt, replace."""
    before = [(p, d) for p, d in m.inputs if p < marker.start() and _corrects(d)]
    after = [(p, d) for p, d in m.inputs if marker.end() <= p < nxt and _corrects(d)]
    unread = any(marker.start() <= p < nxt for p, _ in m.refusals)
    if not after and not unread and _bare_corrects(m, marker, before):
        return
    if not after and unread and before:  # the correction itself was not read: what it corrects is unclear
        _unclear_correction(m, marker, before[-1])
        return
    for _, d in after:
        _replace_same(m, marker, before, d)


def _bare_corrects(m: MessageReading, marker: re.Match, before: list[tuple[int, dict]]) -> bool:
    """A correction naming only one part of the privilege or vote written last before it replaces that part."""
    votes_before = [(p, d) for p, d in m.inputs if p < marker.start() and ("for" in d or "change" in d)]
    last = max(before + votes_before, key=lambda pd: pd[0], default=None)
    return last is not None and _bare_correction(m, marker.end(), last)


def _unclear_correction(m: MessageReading, marker: re.Match, corrected: tuple[int, dict]) -> None:
    """A correction whose words were not read: the privilege before it is not taken, refused, asking."""
    m.inputs.remove(corrected)
    e = corrected[1]
    said = m.text.fragment(*e["_span"])
    m.refuse(
        e["_span"][0],
        marker.end(),
        f"“{said}”后面写了“{m.text.fragment(marker.start(), marker.end())}”,但更正的内容没有读懂;"
        f"“{said}”没有录入,请问清楚后选定或用表单录入",
    )


def _replace_same(m: MessageReading, marker: re.Match, before: list[tuple[int, dict]], d: dict) -> None:
    """The corrected input d replaces the one input of the same privilege before the marker; where there are several,
    all of them are dropped, refused, naming them."""
    same = [(p, e) for p, e in before if e["use"] == d["use"] and e.get("card") == d.get("card")]
    for old in same:
        m.inputs.remove(old)
        before.remove(old)
    if len(same) == 1:
        d["correction"] = m.text.fragment(*same[0][1]["_span"])
        m.notes.append((*same[0][1]["_span"], f"“{d['correction']}”被后面的更正取代,没有录入"))
    elif len(same) > 1:
        said = "、".join(f"“{m.text.fragment(*e['_span'])}”" for _, e in same)
        m.refuse(
            same[0][1]["_span"][0],
            same[-1][1]["_span"][1],
            f"“{m.text.fragment(marker.start(), marker.end())}”更正的是{said}中的哪一个不清楚;"
            f"已按更正后的“{m.text.fragment(*d['_span'])}”读,前面这些都没有录入,请核对",
        )


_CORRECTION_FILL = frozenset({"是", "应该是", "改成", "改为", "就是", "其实是"})


def _same_meaning(a: dict, b: dict) -> bool:
    return all(a.get(k) == b.get(k) for k in ("card", "use", "target", "position", "for", "change"))


def _corrected_use(m: MessageReading, t: Token, e: dict, d: dict) -> bool:
    """ "诅咒阿飞,不对是庇佑": another privilege of the hand, of the same shape (with a target or without)."""
    resolver = Resolver(m.book, m.hand, m.hand_size, m.text.fragment)
    card, _ = resolver.card_for(Group(t.value, t.start, weak=t.weak, hint=t.hint), t.value)
    if card is None or t.weak or ("target" in e) != (t.value in al.TARGETED_USES):
        return False
    d["use"], d["card"] = t.value, card
    return True


def _corrected_position(m: MessageReading, t: Token, e: dict, d: dict) -> bool:
    """ "倒数第二张,不对,倒数第三张": another position of a 瞄准狙击."""
    if e.get("use") != "瞄准狙击":
        return False
    d["position"] = t.value
    return True


def _corrected_player(m: MessageReading, t: Token, e: dict, d: dict) -> bool:
    """ "束魂小明,不对,是小明明": another player, as the target or the vote."""
    r = Resolver(m.book, m.hand, m.hand_size, m.text.fragment).resolve_target(t)
    key = next((k for k in ("target", "for", "change") if k in e), None)
    if not r.name or key is None:
        return False
    d[key] = r.name
    return True


# What the one word of a bare correction replaces, by its kind
_CORRECTED: dict[str, Callable[[MessageReading, Token, dict, dict], bool]] = {
    "NAME": _corrected_player,
    "SEAT": _corrected_player,
    "SELF": _corrected_player,
    "USE": _corrected_use,
    "POS": _corrected_position,
}


def _bare_correction(m: MessageReading, at: int, old: tuple[int, dict]) -> bool:
    """ "束魂小明,不对,是小明明", "诅咒阿飞,不对是庇佑", "倒数第二张,不对,倒数第三张": a correction that names only a
    player, a privilege or a position replaces that part of the act just before it (docs/parser.md)."""
    norm = m.text.norm
    end = next((k for k in range(at, len(norm)) if norm[k] in "。;!?\n"), len(norm))
    said = [t for t in meaningful(lex(norm, at, end, m.book)) if t.text not in _CORRECTION_FILL]
    if len(said) != 1 or said[0].kind not in _CORRECTED:
        return False
    t, (p, e) = said[0], old
    d = dict(e)
    if not _CORRECTED[t.kind](m, t, e, d):
        return False
    d["correction"] = m.text.fragment(*e["_span"])
    d["_span"] = (e["_span"][0], t.end)
    m.inputs[m.inputs.index(old)] = (p, d)
    _drop_replaced(m, d, e["_span"][0], at, end)
    return True


def _drop_replaced(m: MessageReading, d: dict, start: int, at: int, end: int) -> None:
    """What the corrected input d now says once: another input of its words with its meaning, and the notes on the
    correction's own words (norm[at:end]), go."""
    same = [x for x in m.inputs if x[1] is not d and x[1].get("_span", (None,))[0] == start]
    m.inputs[:] = [x for x in m.inputs if not any(x is y for y in same if _same_meaning(y[1], d))]
    m.notes[:] = [n for n in m.notes if not (at <= n[0] < end)]


# ------------------------------------------------------------------------------------------------ orders (O1, O2)
def _card_words(tokens: list[Token]) -> bool:
    return all(t.kind in ("CARD", "BOTTOM", "FILL") or (t.kind == "USE" and t.text in al.CARD_TABLE) for t in tokens)


def _without_comments(m: MessageReading, toks: list[Token]) -> list[Token]:
    """The tokens of a line of a discard order, a comment in brackets after a card left out ("杀手(最后一张杀手当底牌)":
    a 底牌 mark at most)."""
    if not toks:
        return toks
    a, b = toks[0].start, toks[-1].end
    spans = [(f.start(), f.end(), "底" in f.group(1)) for f in orders.COMMENT.finditer(m.text.norm, a, b)]
    if not spans:
        return toks
    out = []
    for t in toks:
        inside = next((s for s in spans if s[0] <= t.start < s[1]), None)
        if inside is None:
            out.append(t)
        elif inside[2] and t.start == inside[0]:
            out.append(Token("BOTTOM", inside[0], inside[1], -1, "底牌"))
    return out


_ORDINAL_FILL = frozenset({"丢", "弃", "出", "先丢", "丢掉", "是", "为", "打出", "牌"})


def _ordinal_fill(t: Token) -> bool:
    """A word of an ordinal list that says nothing of its own: punctuation, 丢, 是, 牌…"""
    return t.kind in ("SEP", "PUNCT") or (t.kind in ("STOP", "GAP") and t.text.strip() in _ORDINAL_FILL)


def _ordinal(t: Token) -> int | None:
    """The place a seat or position word gives (1号, 第一张), when it is one."""
    return t.value if t.kind in ("SEAT", "POS") and isinstance(t.value, int) and t.value > 0 else None


def _card_of(t: Token) -> str | None:
    """The card a card word names (a privilege word that is also a card's name counts), else None."""
    if t.kind == "CARD":
        return t.value
    return al.CARD_TABLE[t.text] if t.kind == "USE" and t.text in al.CARD_TABLE else None


def _ordinal_pairs(m: MessageReading, toks: list[Token]) -> list[tuple[int, str, bool]] | None:
    """(ordinal, card, is the 底牌) of a line written as an ordinal list ("第一张丢束魂,第二张丢保镖", "1号束魂 2号保镖"),
    or None when the line says anything else."""
    pairs: list[tuple[int, str, bool]] = []
    ordinal: int | None = None
    bottom = False
    for t in toks:
        if _ordinal_fill(t):
            continue
        if ordinal is None and (place := _ordinal(t)) is not None:
            ordinal = place
        elif t.kind == "BOTTOM":
            bottom = True
            ordinal = 99 if ordinal is None else ordinal  # "…,底牌杀手": the last, whatever its place
        elif ordinal is not None and (card := _card_of(t)) is not None:
            pairs.append((ordinal, card, bottom))
            ordinal, bottom = None, False
        else:
            return None
    return pairs if ordinal is None else None


def _ordinal_lines(m: MessageReading, j: int, end: int, pairs: list[tuple[int, str, bool]]) -> tuple[int, int]:
    """The lines from j that go on an ordinal list, their pairs added: (the first line after them, where they end)."""
    while j < len(m.live) and (span := m.live[j]) is not None and (more := _ordinal_pairs(m, m.tokens(j))):
        pairs += more
        end = span[1]
        j += 1
    return j, end


def _read_ordinals(m: MessageReading, start: int, end: int, pairs: list[tuple[int, str, bool]]) -> None:
    """The discard order of an ordinal list in norm[start:end]: an input, or refused saying what is wrong (O1)."""
    ordinals = [o for o, _, _ in pairs]
    if len(set(ordinals)) != len(ordinals):
        m.refuse(start, end, "按序号写的丢牌顺序里有重复的序号;请按先丢到后丢列出每一张牌")
        return
    cards = [c for _, c, b in sorted(pairs) if not b] + [c for _, c, b in sorted(pairs) if b]
    order, problems = orders.full_order(orders.scan("、".join(cards)), m.hand)
    if order is None:
        m.refuse(start, end, ";".join(problems))
    else:
        m.add(start, end, {"order": order})


def _ordinals(m: MessageReading) -> None:
    """An order written as ordinals (docs/parser.md: "第一张…,第二张…", "1号…2号…"): the cards in the ordinals' sequence,
    a 底牌 named among them last; on one line or one pair a line."""
    i = 0
    while i < len(m.live):
        first = m.live[i]
        pairs = _ordinal_pairs(m, m.tokens(i)) if first else None
        if not pairs or first is None:
            i += 1
            continue
        j, end = _ordinal_lines(m, i + 1, first[1], pairs)
        if len(pairs) >= 3:
            for k in range(i, j):
                m.live[k] = None
            _read_ordinals(m, first[0], end, pairs)
        i = j


class _CardLines:
    """The meaningful tokens of each line without its comments, and whether they are all card words: once a line,
    though each line is looked at again as one of the next lines of the few above it."""

    def __init__(self, m: MessageReading) -> None:
        self.m = m
        self.read: dict[tuple[int, int], tuple[list[Token], bool]] = {}

    def __call__(self, j: int) -> tuple[list[Token], bool]:
        span = self.m.live[j]
        if span is None:
            return [], False
        if span not in self.read:
            mean = meaningful(_without_comments(self.m, self.m.tokens(j)))
            self.read[span] = mean, _card_words(mean)
        return self.read[span]


@dataclass(frozen=True)
class _OrderLine:
    """A line as a discard order may start on it: its tokens (comments left out), its order word (丢牌顺序…), whether
    it only names the 底牌, its last colon, and whether it is a bare list of every privilege card in the hand."""

    toks: list[Token]
    mean: list[Token]
    key: Token | None
    bottom_line: bool
    colon: int
    bare_list: bool

    @property
    def starts(self) -> bool:
        return self.key is not None or self.bottom_line or self.bare_list


def _names_bottom_only(mean: list[Token]) -> bool:
    """ "底牌:杀手": the line names the 底牌 in card words and no player or position."""
    kinds = {t.kind for t in mean}
    return (
        "BOTTOM" in kinds
        and not kinds & {"NAME", "SEAT", "SELF", "POS"}
        and _card_words([t for t in mean if t.kind != "GAP"])
    )


def _bare_list(m: MessageReading, i: int, listed: list[Token], cards_of: _CardLines, privileges: set[str]) -> bool:
    """ "那就:庶民、保镖、…", "1.保镖\n2.庶民\n…" (one card a line): card words only, at least three, naming every
    privilege card of the hand."""
    if not privileges or not _card_words(listed):
        return False
    for j in range(i + 1, min(len(m.live), i + m.hand_size + 3)):
        more, all_cards = cards_of(j)
        if not more or not all_cards:
            break
        listed = listed + more
    cards = {al.CARD_TABLE.get(t.text, t.value) for t in listed if t.kind == "CARD" or t.text in al.CARD_TABLE}
    return len(listed) >= 3 and privileges <= cards


def _order_line(m: MessageReading, i: int, cards_of: _CardLines, privileges: set[str]) -> _OrderLine:
    """Line i as the first line of a discard order."""
    toks = _without_comments(m, m.tokens(i))
    mean = meaningful(toks)
    key = next((t for t in mean if t.kind == "ORDER"), None)
    colon = max((k for k, t in enumerate(toks) if t.text == ":"), default=-1)
    listed = meaningful(toks[colon + 1 :])  # "那就:庶民、保镖、…": the list after a lead-in
    bare = key is None and _bare_list(m, i, listed, cards_of, privileges)
    return _OrderLine(toks, mean, key, _names_bottom_only(mean), colon, bare)


def _bottom_apart(m: MessageReading, i: int, o: _OrderLine) -> bool:
    """ "底牌:杀手\n丢牌顺序:…": the 底牌 named apart, on the line before the order (docs/parser.md)."""
    nxt = m.live[i + 1] if i + 1 < len(m.live) else None
    return o.key is None and o.bottom_line and nxt is not None and any(t.kind == "ORDER" for t in m.tokens(i + 1))


def _order_sentence(o: _OrderLine, key: Token, a: int) -> int:
    """Where the sentence of the order word starts; "底牌:纵火/圣人。其余按…的顺序丢": a 底牌 named in a sentence
    before it is the order's (docs/parser.md)."""
    sep = next((t for t in reversed(o.toks) if t.kind == "SEP" and t.text in "\n。.;!?" and t.end <= key.start), None)
    region_start = sep.end if sep else a
    lead = [t for t in o.mean if t.end <= region_start]
    if lead and any(t.kind == "BOTTOM" for t in lead) and _card_words([t for t in lead if t.kind != "GAP"]):
        return a
    return region_start


def _after_action(o: _OrderLine, key: Token, region_start: int) -> int:
    """ "狙击张三,丢牌顺序…": the order starts after the action written before it."""
    named = [t for t in o.toks if region_start <= t.start < key.start and t.kind in ("NAME", "SEAT", "SELF")]
    if not named:
        return region_start
    cut = [t for t in o.toks if t.kind == "SEP" and named[-1].end <= t.start < key.start]
    return cut[-1].end if cut else key.start


def _order_region(o: _OrderLine, a: int) -> tuple[int, int]:
    """Where the order's words start on its first line, and where its list of cards starts."""
    if o.key is None:
        return a, (o.toks[o.colon].end if o.bare_list and o.colon >= 0 else a)
    region_start = _after_action(o, o.key, _order_sentence(o, o.key, a))
    colon_after = next((t for t in o.toks if t.start >= o.key.end and t.text == ":"), None)
    return region_start, (colon_after.end if colon_after else region_start)


def _card_line(mean: list[Token]) -> bool:
    """A line of card words only, with at least one card: the order goes on."""
    return (
        bool(mean)
        and _card_words([t for t in mean if t.kind != "GAP"])
        and any(t.kind in ("CARD", "USE") for t in mean)
    )


def _order_lines(m: MessageReading, i: int, end: int, cards_of: _CardLines) -> tuple[int, int]:
    """The lines of card words after line i that go on its order: (the first line after them, where they end)."""
    j = i + 1
    while j < len(m.live) and (next_line := m.live[j]) is not None and _card_line(cards_of(j)[0]):
        end = next_line[1]
        m.live[j] = None
        j += 1
    return j, end


def _read_order(m: MessageReading, start: int, end: int, listed: str) -> None:
    """The discard order listed in norm[start:end]: an input, or refused saying what is wrong (O1, O2)."""
    parsed = orders.scan(listed)
    order, problems = orders.full_order(parsed, m.hand)
    if order is None:
        if parsed.unknown:
            problems.append("看不懂:" + "、".join(f"“{u[:20]}”" for u in parsed.unknown[:3]))
        m.refuse(start, end, ";".join(problems))
    else:
        m.add(start, end, {"order": order})


def _orders(m: MessageReading) -> None:
    """Each discard order of the message: after its order word, a bare list of the hand's cards, or a 底牌 line."""
    cards_of = _CardLines(m)
    privileges = {c for c in m.hand if c != cat.COMMONER}
    bottom_first: tuple[int, int] | None = None
    i = 0
    while i < len(m.live):
        o = _order_line(m, i, cards_of, privileges)
        line = m.live[i]
        if not o.starts or line is None:  # (a line read has no tokens)
            i += 1
            continue
        if _bottom_apart(m, i, o):
            bottom_first = line
            m.live[i] = None
            i += 1
            continue
        a, b = line
        region_start, list_start = _order_region(o, a)
        m.live[i] = (a, region_start) if region_start > a else None
        j, end = _order_lines(m, i, b, cards_of)
        listed = m.text.norm[list_start:end]
        if bottom_first is not None:
            listed += ";" + m.text.norm[bottom_first[0] : bottom_first[1]]
            region_start = min(region_start, bottom_first[0])
            bottom_first = None
        _read_order(m, region_start, end, listed)
        i = j


# ------------------------------------------------------------------------------------------------ votes (D1, D3)
def _votes(m: MessageReading) -> bool:
    """True when the message is a vote post (and has been read as one)."""
    tokens = _line_tokens(m)
    if not any(votes.is_vote_word(t) for t in tokens):
        return False
    tokens = _without_tallies(m.text.norm, tokens)
    vp = votes.parse(tokens, m.book, m.text.fragment)
    if not vp.inputs and not vp.refusals:
        return False
    has_use = any(t.kind == "USE" for t in tokens)
    if m.phase != "day":
        return _night_vote(m, vp.inputs, tokens, has_use)
    if not vp.inputs and has_use:
        return False
    for d, (start, end) in zip(vp.inputs, vp.spans, strict=True):
        m.add(start, end, d)
    for (start, end), reason in vp.refusals:
        m.refuse(start, end, reason)
    return True


def _line_tokens(m: MessageReading) -> list[Token]:
    """The tokens of every line still to read, each line ended by a line break."""
    tokens: list[Token] = []
    for i in range(len(m.live)):
        tokens += m.tokens(i)
        line = m.live[i]
        if line is not None:
            tokens.append(Token("SEP", line[1], line[1], "\n", "\n"))
    return tokens


def _without_tallies(norm: str, tokens: list[Token]) -> list[Token]:
    """张三、李四各一票: others' votes counted, never the sender's, never a veto of it."""
    tallies = [(cues.clause_start(norm, h.start), cues.forward_end(norm, h)) for h in cues.find(norm, cues.TALLY)]
    if tallies:
        tokens = [t for t in tokens if t.kind == "SEP" or not any(a <= t.start < b for a, b in tallies)]
    return tokens


def _night_vote(m: MessageReading, inputs: list, tokens: list[Token], has_use: bool) -> bool:
    """A vote written at night with no privilege: refused, the message read as a vote post (D1)."""
    if inputs and not has_use:
        start, end = tokens[0].start, tokens[-1].end
        m.refuse(start, end, "现在是夜里:投票只在白天的投票帖里算(按白天解析:--phase day);夜里的短消息请写特权")
        return True
    return False


def _bare_vote(m: MessageReading) -> None:
    """A vote post that is only a name ("张三") votes for that player (D1)."""
    for i in range(len(m.live)):
        mean = meaningful(m.tokens(i))
        if not mean:
            continue
        if len(mean) == 1 and mean[0].kind in ("NAME", "SEAT", "SELF"):
            r = Resolver(m.book, (), m.hand_size, m.text.fragment).resolve_target(mean[0])
            if r.name:
                m.add(mean[0].start, mean[0].end, {"for": r.name})
                return
        break
    m.refuse(0, len(m.text.norm), "没看出投给谁;请写“投 某某”(改票写“改投 某某”)")
    m.refusals[-1][1]["text"] = m.text.raw.strip()[:80]


# ------------------------------------------------------------------------------------------------ privileges, S4
@dataclass
class _State:
    attack: dict | None = None  # the last attack, while free text after it is its 杀人宣言
    mf_start: int | None = None
    mf_end: int | None = None
    stance: Stance = field(default_factory=Stance)  # S4
    day_vote: tuple[int, int, str] | None = None
    reported: bool = False  # "王五说:…" — the rest of the sentence is someone else's words
    condition: bool = False  # "如果…," — the rest of the sentence hangs on it
    reasons: bool = False  # a vote post's 理由: the rest is not read (D1)
    passes: list[tuple[int, int]] = field(default_factory=list)  # 今晚空过
    last_group: Group | None = None  # the privilege written last, whatever became of it (改给B refers to it)
    inferred: Group | None = None  # a change of target whose privilege was taken from the hand
    # a clause that only names a player ("王五,束魂他"), refused unless the next clause's pronoun is read as him:
    # (its refusal, the player)
    named: tuple[tuple[int, dict], str] | None = None


def _targeted_uses(m: MessageReading) -> list[tuple[str, str | None]]:
    """(privilege, card) for every privilege naming a player that the hand allows in this phase: what 刚才的王五改给赵六
    can mean when the message names no privilege. A held 阿米巴 is (阿米巴, None): its form's privileges are the
    engine's to know, so it is never the one privilege."""
    out: list[tuple[str, str | None]] = []
    for card in dict.fromkeys(m.hand):
        if card == cat.AMOEBA:
            out.append((cat.AMOEBA, None))
            continue
        for p in cat.privileges_of(card):
            if p.target and (p.day if m.phase == "day" else p.night) and (p.use, card) not in out:
                out.append((p.use, card))
    return out


def _no_privilege_reason(uses: list[tuple[str, str | None]]) -> str:
    """Why a change of target with no privilege written is refused, naming what it could be (never a guess)."""
    ask = "请写明(如“束魂改为 某某”)"
    if not uses:
        return f"写了改目标,但没写是哪个特权,你手里也没有能指定目标的特权;{ask}"
    twice = {use for use, _ in uses if sum(u == use for u, _ in uses) > 1}  # 普通攻击 of a 杀手 and of a 狼人
    names = "、".join(
        "阿米巴变形后的特权" if card is None else (f"{use}({card}牌)" if use in twice else use) for use, card in uses
    )
    example = next((use for use, card in uses if card is not None), "束魂")
    return f"写了改目标,但没写是哪个特权:可能是{names};不会替你选,请写明(如“{example}改为 某某”)"


def _close_manifesto(m: MessageReading, st: _State) -> None:
    if st.attack is not None and st.mf_start is not None and st.mf_end is not None:
        st.mf_end = manifesto_cut(m.text.norm, st.mf_start, st.mf_end)
        body = m.text.fragment(st.mf_start, st.mf_end).lstrip(",.、;:!?~ ，。；：！？～\n")
        if body:
            prev = st.attack.get("manifesto")
            st.attack["manifesto"] = prev + "\n" + body if prev else body
            st.attack.setdefault("_mf_spans", []).append((st.mf_start, st.mf_end))
    st.attack, st.mf_start, st.mf_end = None, None, None


def _mentions(m: MessageReading) -> list[tuple[int, str]]:
    out = []
    for span in m.line_spans:
        for t in m.lexed(span):
            if t.kind == "NAME" and t.value.name:
                out.append((t.start, t.value.name))
    return out


_ASIDE_KINDS = frozenset({"PRON", "QUESTION", "OPINION", "HEDGE", "PAST", "NEG", "OTHER", "REPORT"})
_ASIDE_BLOCKERS = frozenset({"USE", "CARD", "POS", "ORDER", "MANIFESTO", "VOTE", "CHANGE", "SELFVOTE", "BOTTOM"})


def _punct(t: Token, marks: str) -> bool:
    return t.kind == "PUNCT" and t.text in marks


def _is_aside(inner: list[Token]) -> bool:
    """The words in brackets hold a pronoun, a question or an opinion, and no action word."""
    kinds = {x.kind for x in inner}
    asks = any(x.text in "??" for x in inner)
    return bool(kinds & _ASIDE_KINDS or asks) and not kinds & _ASIDE_BLOCKERS


def _asides(m: MessageReading, tokens: list[Token]) -> list[Token]:
    """The tokens without those of an aside in brackets ("(她白天一直带节奏)", "(可以吗?)") that holds a pronoun, a
    question or an opinion and no action word: it never blocks the clause it stands in, and a pronoun in it is no
    target (docs/parser.md). Innermost brackets of one line, found in one pass."""
    drop: set[int] = set()
    opened: int | None = None
    for k, t in enumerate(tokens):
        if _punct(t, "([【"):
            opened = k
        elif _punct(t, ")]】") and opened is not None:
            if _is_aside(tokens[opened + 1 : k]):
                drop.update(range(opened, k + 1))
            opened = None
        elif t.kind == "SEP" and t.text == "\n":
            opened = None
    return [t for k, t in enumerate(tokens) if k not in drop] if drop else tokens


def _actions(m: MessageReading, after_vote: bool = False) -> None:
    """The privileges and stance of the message, clause by clause (S4); after a vote, only clauses of their own."""
    st = _State()
    resolver = Resolver(m.book, m.hand, m.hand_size, m.text.fragment)
    resolver.mentions = _mentions(m)
    for i in range(len(m.live)):
        span = m.live[i]
        if st.attack is not None and span and _MANIFESTO_STOP.match(m.text.norm, span[0], span[1]):
            _close_manifesto(m, st)  # a line "p.s. 天神辛苦" ends the free text after an attack
        for sentence_start, clause_tokens in _merged_clauses(_asides(m, m.tokens(i))):
            if sentence_start:
                st.reported = st.condition = False
            if after_vote and _of_the_vote(st, clause_tokens):
                continue
            _clause(m, st, resolver, i, clause_tokens, quiet=after_vote, sentence_start=sentence_start)
    _close_manifesto(m, st)
    _end_of_actions(m, st)


def _of_the_vote(st: _State, toks: list[Token]) -> bool:
    """A clause of a vote post that is its vote, already read, or its reason (理由:…, to the end): never read for
    privileges (D1)."""
    if st.reasons or any(t.kind == "REASON" for t in toks):
        st.reasons = True
        return True
    return any(votes.is_vote_word(t) or t.kind == "CHANGE" for t in toks)


def _end_of_actions(m: MessageReading, st: _State) -> None:
    """What the whole message decides once read: its stance (S4), a vote that is just a name (D1), a pass."""
    choice, problems = st.stance.verdict()
    if choice and st.stance.span is not None:  # (a choice comes only from a clause that set the span)
        m.add(*st.stance.span, choice)
    for a, b, reason in problems:
        m.refuse(a, b, reason)
    if st.day_vote:
        pos, end, name = st.day_vote
        if m.inputs:
            m.refuse(pos, end, f"只写了“{name}”;投票请写“投 {name}”")
        else:
            m.add(pos, end, {"for": name})  # D1: a vote post that is just a name
    if st.passes:
        _pass(m, st.passes)


def _pass(m: MessageReading, passes: list[tuple[int, int]]) -> None:
    """今晚空过 / 不行动: the one input of the message; with a privilege as well, a refusal naming both."""
    acts = [(p, d) for p, d in m.inputs if "use" in d and d["use"] != "立场"]
    start, end = passes[0]
    if not acts:
        m.add(start, end, {"pass": True})
        return
    for item in acts:
        m.inputs.remove(item)
    said = short(m.text.fragment(start, end), 60)
    written = "、".join(f"{d['use']} {d.get('target') or d.get('into') or ''}".strip() for _, d in acts)
    last = max(d["_span"][1] for _, d in acts)
    m.refuse(
        min(start, *(d["_span"][0] for _, d in acts)),
        max(end, last),
        f"这条消息既说了“{said}”(空过),又写了特权:{written};空过和用特权只能是其中一个,都没有录入:请确认是哪一个",
    )


_PLAIN_VERBS = frozenset({"打", "砍", "捅", "刀", "杀", "用在", "对"})


_ELSE = frozenset({"其他", "其余", "别的", "剩下", "剩下的", "其它"})


def _nothing_else(mean: list[Token]) -> bool:
    """ "其他的不动了", "别的不做": the words of a pass after 其他/别的: the rest of the phase, not the whole of it."""
    first_pass = next(k for k, t in enumerate(mean) if t.kind == "PASS")
    return any(t.text in _ELSE for t in mean[:first_pass])


def _verb_after_use(toks: list[Token]) -> list[Token]:
    """ "用绝杀打王五": a plain verb right after a privilege word says how it is used, not a second privilege."""
    out: list[Token] = []
    last: Token | None = None
    for t in toks:
        if t.kind == "USE" and t.text in _PLAIN_VERBS and last is not None and last.kind == "USE":
            continue
        out.append(t)
        if t.kind not in ("STOP", "PUNCT"):
            last = t
    return out


_JOIN_OR_LABEL = al.JOIN_WORDS | {"对象", "目标", "target"}  # "狙击,对象:王五": a labelled target (docs/parser.md)
_JOINERS = frozenset({"NAME", "SEAT", "SELF", "POS", "BOTTOM", "REPEAT", "PUNCT"})
_SENTENCE_ENDS = frozenset("\n。.;!?")


def _merged_clauses(tokens: list[Token]) -> list[tuple[bool, list[Token]]]:
    """Clauses as (starts a sentence, tokens). "诅咒张三、李四", "瞄准狙击:李四,倒数第2张": a clause of names or
    positions only joins the privilege before it across , or 、 — never across a sentence end, and never when it says
    anything else ("禁锢赵六,赵六别怪我", "治疗王五。孙八晚安")."""
    out: list[tuple[bool, list[Token]]] = []
    cur: list[Token] = []
    seps, cur_seps = "\n", "\n"  # the separators before the clause being read
    for tok in [*tokens, Token("SEP", -1, -1, "\n", "\n")]:
        if tok.kind != "SEP":
            if not cur:
                cur_seps, seps = seps, ""
            cur.append(tok)
            continue
        if cur:
            _merge(out, cur_seps, cur)
            cur = []
        seps += tok.text
    return out


def _commas_only(seps: str) -> bool:
    return all(c in ",、" for c in seps)


def _joiner(t: Token) -> bool:
    """A token of a clause that may join the privilege before it: a name, a position, punctuation, a join word."""
    return t.kind in _JOINERS or (t.kind == "STOP" and t.text in _JOIN_OR_LABEL)


def _joins(before: list[Token], cur: list[Token]) -> bool:
    """After , or 、: a clause of names or positions only, after a clause with a privilege or card word."""
    return (
        any(t.kind in ("USE", "CARD") for t in before)
        and all(_joiner(t) for t in cur)
        and any(t.kind in ("NAME", "SEAT", "SELF", "POS", "BOTTOM", "REPEAT") for t in cur)
    )


def _merge(out: list[tuple[bool, list[Token]]], cur_seps: str, cur: list[Token]) -> None:
    """The clause cur, written after the separators cur_seps: part of the clause before it, or a clause of its own."""
    after_comma = bool(out) and bool(cur_seps) and _commas_only(cur_seps)
    joins = after_comma and _joins(out[-1][1], cur)
    aimed = None if joins or not after_comma else _aim(out[-1][1], cur)
    if aimed is not None:  # "狙Kiki,打她从后往前数第2张": where the shot lands, not a new attack
        out[-1] = (out[-1][0], out[-1][1] + aimed)
    elif joins or (out and _commas_only(cur_seps) and _its_card(out[-1][1], cur)):
        out[-1] = (out[-1][0], out[-1][1] + cur)
    else:
        out.append((any(c in _SENTENCE_ENDS for c in cur_seps), cur))


def _its_card(before: list[Token], cur: list[Token]) -> bool:
    """A clause that only names the card of the privilege written just before it ("束魂王五,用束魂牌"): part of
    that privilege's words, not a card written alone."""
    uses = [t for t in before if t.kind == "USE"]
    cards = [t for t in cur if t.kind == "CARD"]
    return (
        bool(uses)
        and len(cards) == 1
        and cards[0].value in al.CARDS_OF_USE.get(uses[-1].value, ())
        and all(
            t is cards[0] or t.kind == "PUNCT" or (t.kind == "STOP" and t.text in ("用", "使用", "是")) for t in cur
        )
    )


_SNIPES = frozenset({"普通狙击", "瞄准狙击"})
_AIM_VERBS = frozenset({"打", "瞄", "瞄准", "狙", "狙击", "射", "打掉"})


# The words of a clause that only says where a snipe lands, beside its position: by kind, any or these words
_AIM_KINDS = frozenset({"POS", "PRON", "PUNCT"})
_AIM_WORDS = {"USE": _AIM_VERBS, "STOP": frozenset({"的", "就", "他的", "她的"})}


def _aim_word(t: Token) -> bool:
    return t.kind in _AIM_KINDS or t.text in _AIM_WORDS.get(t.kind, ())


def _aim(before: list[Token], cur: list[Token]) -> list[Token] | None:
    """The position of a clause that only says where the snipe written just before lands ("打她从后往前数第2张",
    "瞄他倒数第3张"): its POS token, to join that snipe; None when the clause says anything else."""
    snipes = [t for t in before if t.kind == "USE" and t.value in _SNIPES]
    if not snipes or any(t.kind == "POS" for t in before[before.index(snipes[-1]) :]):
        return None
    pos = [t for t in cur if t.kind == "POS"]
    if len(pos) != 1 or not all(_aim_word(t) for t in cur):
        return None
    return pos


_MARKERS = frozenset(normalise_word(w) for w in al.TARGET_MARKERS)
_OR = frozenset({"或", "或者"})  # (a choice between players, not a condition)
_QUIET_NOTES = frozenset({"negation", "other", "report", "guess", "past", "identity"})


@dataclass
class _ClauseFacts:
    """What _blocked asks of a whole clause, computed once, so that a clause of many privileges is read in linear
    time."""

    starts: list[int]
    question: bool
    last_afterneg: int  # start of the last 不了/算了 token, or −1
    first_report: int  # start of the first REPORT token (说, 表示…), or a position past the clause

    @classmethod
    def of(cls, toks: list[Token]) -> _ClauseFacts:
        return cls(
            [t.start for t in toks],
            any(t.kind == "QUESTION" for t in toks),
            max((t.start for t in toks if t.kind == "AFTERNEG"), default=-1),
            min((t.start for t in toks if t.kind == "REPORT"), default=1 << 62),
        )


@dataclass(frozen=True)
class _Privilege:
    """A privilege word as _blocked weighs it: the reading so far, its group, the words before it in its clause (from
    the privilege before), their kinds, the clause's facts and end, and where a change word (改给) stands."""

    m: MessageReading
    st: _State
    g: Group
    pre: list[Token]
    kinds: set[str]
    toks: list[Token]
    facts: _ClauseFacts
    end: int
    change_at: int | None


def _in_a_report(p: _Privilege) -> bool:
    """王五说:束魂孙八 — the rest of the sentence is someone else's words."""
    return p.st.reported


def _conditional(p: _Privilege) -> bool:
    """如果…: the privilege hangs on a condition, in its clause or its sentence."""
    return "COND" in p.kinds or p.st.condition


def _reported(p: _Privilege) -> bool:
    """A report reaches every privilege after it in its clause: 阿飞说他要用巫医治疗赵六."""
    return bool(p.kinds & {"REPORT", "OTHER", "PASSIVE"}) or p.facts.first_report < p.g.start


def _someone_elses(p: _Privilege) -> bool:
    """钱七会束魂孙八, 王五诅咒了赵六: a player (not the sender) or a pronoun before the privilege, with a target after
    it, is who acts — unless a target marker stands before it (给他来个…, 对张三…)."""
    g = p.g
    if not any(t.start >= g.verb_end and t.kind in ("NAME", "SEAT", "SELF", "PRON") for t in g.targets):
        return False
    before: Token | None = None  # the last token before t that is not punctuation
    for t in p.pre:
        if t.kind in ("NAME", "PRON") and not _marked(before) and (t.kind == "PRON" or t.value.name != p.m.book.sender):
            return True
        if t.kind != "PUNCT":
            before = t
    return False


def _marked(before: Token | None) -> bool:
    return before is not None and before.kind == "STOP" and before.text in _MARKERS


def _negated_target(p: _Privilege) -> bool:
    """ "那个庇佑不给王五了": the negation stands between the privilege and its player."""
    g = p.g
    first_target = min((t.start for t in g.targets if t.start >= g.verb_end), default=g.verb_end)
    starts = p.facts.starts
    between = p.toks[bisect.bisect_left(starts, g.verb_end) : bisect.bisect_left(starts, first_target)]
    return any(t.kind == "NEG" for t in between)


def _negated_before(p: _Privilege) -> bool:
    """A negation before the privilege that reaches it, or 不了/算了 after its start."""
    return _negated(p.pre) or p.facts.last_afterneg >= p.g.start


def _past(p: _Privilege) -> bool:
    """What already happened (…过, 昨天…); 刚才的束魂改给B: 刚才 names what is changed, not a past act."""
    changed = p.change_at is not None and p.change_at >= p.g.verb_end
    return ("PAST" in p.kinds and not changed) or p.m.text.norm[p.g.verb_end : p.g.verb_end + 1] == "过"


def _opinion(p: _Privilege) -> bool:
    return "OPINION" in p.kinds


def _identity(p: _Privilege) -> bool:
    """我是巫医, 赵六好像是束魂: the last word before the privilege is 是."""
    before = next((t for t in reversed(p.pre) if t.kind != "PUNCT"), None)
    return before is not None and before.kind == "STOP" and before.text == "是"


def _hedged(p: _Privilege) -> bool:
    return "HEDGE" in p.kinds


def _question(p: _Privilege) -> bool:
    """A question, unless it only asks the 天神 whether the action is fine ("诅咒王五 ok?")."""
    norm, end = p.m.text.norm, p.end
    named_end = max((t.end for t in p.g.targets if t.kind != "GAP"), default=p.g.end)
    return (p.facts.question or norm[end : end + 1] == "?") and not _ASKS_OK.match(norm, named_end, end + 1)


# Why a privilege word is not the sender's order, in the order asked: the first that holds is the reason (_note)
_BLOCKS: tuple[tuple[str, Callable[[_Privilege], bool]], ...] = (
    ("report", _in_a_report),
    ("condition", _conditional),
    ("report", _reported),
    ("other", _someone_elses),
    ("negation", _negated_target),
    ("negation", _negated_before),
    ("past", _past),
    ("guess", _opinion),
    ("identity", _identity),
    ("hedge", _hedged),
    ("question", _question),
)


def _blocked(
    m: MessageReading,
    st: _State,
    toks: list[Token],
    g: Group,
    prev_end: int,
    end: int,
    facts: _ClauseFacts,
    change_at: int | None = None,
) -> str | None:
    """Why the privilege word of group g is not the sender's order, or None when it is."""
    pre = toks[bisect.bisect_left(facts.starts, prev_end) : bisect.bisect_left(facts.starts, g.start)]
    p = _Privilege(m, st, g, pre, {t.kind for t in pre}, toks, facts, end, change_at)
    return next((why for why, blocks in _BLOCKS if blocks(p)), None)


_NEGATION_ENDS = frozenset(normalise_word(w) for w in ("但", "但是", "不过", "所以", "可是", "然而", "还是"))


def _negated(pre: list[Token]) -> bool:
    """A negation before the privilege reaches it: "点数不够 还是普通攻击" — its scope ends at 还是, 但, 不过, 所以."""
    k = max((i for i, t in enumerate(pre) if t.kind == "NEG"), default=-1)
    return k >= 0 and not any(t.kind == "ALT" or t.text in _NEGATION_ENDS for t in pre[k + 1 :])


# "诅咒王五 ok?", "束魂张三,可以吗?": the action, then asking the 天神 whether it is fine: an instruction (docs/parser.md)
_ASKS_OK = re.compile(
    r"[ \t~,]*(?:ok|okay|好吗|好不好|行吗|行不行|可以吗|可以不|可以么|没问题吧|对吧)[ \t~]*[?!]*[ \t~]*$", re.I
)


# "最后一张牌了", "只剩最后一张": how many cards are left, chatter — not a position without its shot
_LEFT_AFTER = re.compile(r"[ \t]*牌?[ \t]*(?:了|啦|喽|咯|囉|罗)")
_LEFT_BEFORE = re.compile(r"(?:剩|剩下|只有|还有|就剩)[ \t]*$")


def _cards_left(norm: str, start: int, pos: Token) -> bool:
    return bool(_LEFT_AFTER.match(norm, pos.end) or _LEFT_BEFORE.search(norm, start, pos.start))


def _note(m: MessageReading, why: str, start: int, end: int) -> None:
    said = short(m.text.fragment(start, end), 60)
    reasons = {
        "negation": f"“{said}”是否定(不做),没有当作指令;已经用了的特权不能取消(行动点数不退,AP4)",
        "other": f"“{said}”说的是别人的行动,没有当作你的指令",
        "report": f"“{said}”是转述别人的话,没有当作你的指令",
        "guess": f"“{said}”是猜测或闲聊,没有当作指令",
        "past": f"“{said}”说的是已经发生的事,没有当作指令",
        "identity": f"“{said}”说的是谁是什么牌,不是指令",
        "condition": f"“{said}”附了条件,没有录入:特权不能附条件(天神不替玩家判断条件);请直接写要做的(如“诅咒 某某”)",
        "hedge": f"“{said}”听起来还没拿定主意,没有录入;要用特权请直接写(如“诅咒 某某”)",
        "question": f"“{said}”是个问句,没有当作指令;要用特权请直接写(如“诅咒 某某”)",
    }
    if why in _QUIET_NOTES:
        m.notes.append((start, end, reasons[why]))
    else:
        m.refuse(start, end, reasons[why])


IN_MANIFESTO = "(这段写在攻击后面,已算作杀人宣言;如果玩家是要用这个特权,请问清楚后选定或用表单录入)"


def _in_manifesto(reason: str | tuple) -> str | tuple:
    if isinstance(reason, tuple):
        return (reason[0] + IN_MANIFESTO, *reason[1:])
    return reason + IN_MANIFESTO


_AGAIN = ("再", "又", "还要", "另外再", "第二次", "第2次", "多")


def _again_ends(norm: str, start: int, end: int) -> int:
    """Where the first word saying "again" written in norm[start:end] ends (end + 2 when there is none): a group at g
    repeats an input when it ends by g + 1. Found once a clause, not once a privilege."""
    ends = [k + len(w) for w in _AGAIN if (k := norm.find(w, start, end)) >= 0]
    return min(ends, default=end + 2)


_SAME_KEYS = ("card", "use", "target", "position", "into")


def _same_input(m: MessageReading, d: dict) -> bool:
    """The message already has this very input (same privilege, same player) from another clause."""
    if "use" not in d or d.get("use") == "立场":
        return False
    key = tuple(d.get(k) for k in _SAME_KEYS)
    return any(tuple(e.get(k) for k in _SAME_KEYS) == key and e.get("_span") != d.get("_span") for _, e in m.inputs)


_MANIFESTO_STOP = re.compile(r"[ \t]*" + MANIFESTO_END.pattern, re.I)


def _clause(
    m: MessageReading,
    st: _State,
    resolver: Resolver,
    line: int,
    toks: list[Token],
    quiet: bool = False,
    sentence_start: bool = True,
) -> None:
    """One clause of a line, read in turn as the 杀人宣言 going on, a pass, a stance, privileges, or what it says
    instead of an order."""
    start, end = toks[0].start, toks[-1].end
    toks = _verb_after_use(toks)
    mean = meaningful(toks)
    named, st.named = st.named, None  # (only the clause right after the name may take it)
    _close_at_correction(m, st, start, end)
    if not mean:
        return
    in_manifesto = _still_in_manifesto(m, st, mean, start, end)
    if in_manifesto and not _starts_command(toks):
        _absorb(st, start, end)
        return
    _follow_report(st, toks)
    kinds = {t.kind for t in mean}
    if _passes(m, st, mean, kinds):
        return
    if not quiet and st.stance.take(mean, start, end):
        _close_manifesto(m, st)
        return
    clause = _built(m, st, toks, kinds)
    if clause is None:
        return
    if _changes_in_words(clause, in_manifesto or quiet) and not _change_of_target(m, st, resolver, clause, start, end):
        return
    if clause.groups:
        _read_groups(m, st, resolver, toks, clause, _Said(start, end, in_manifesto, named, sentence_start))
    elif not quiet:
        _no_privilege(m, st, resolver, toks, clause, start, end)


def _close_at_correction(m: MessageReading, st: _State, start: int, end: int) -> None:
    """ "狙击张三,不对,是欧阳锋": a clause that corrects ends the 杀人宣言 of the attack before it, never published."""
    if st.attack is not None and CORRECTION.match(m.text.norm, start, end):
        _close_manifesto(m, st)


def _built(m: MessageReading, st: _State, toks: list[Token], kinds: set[str]) -> Clause | None:
    """The clause's privilege groups, names and cards; None when it cancels a privilege (refused: AP4)."""
    clause = build(toks)
    if not clause.groups and "COND" in kinds:
        st.condition = True  # 如果王五跳杀手,就诅咒他
    if clause.cancel:
        m.refuse(toks[0].start, toks[-1].end, "不能取消已用的特权(行动点数不退);要换目标请写“束魂改为 某某”")
        return None
    return clause


def _absorb(st: _State, start: int, end: int) -> None:
    """norm[start:end] is part of the free text after the attack: its 杀人宣言."""
    st.mf_start = start if st.mf_start is None else st.mf_start
    st.mf_end = end


def _addresses_the_gm(m: MessageReading, mean: list[Token], start: int, end: int) -> bool:
    """PS 天神:…, 谢谢, 理由:…, 正数第2张: never part of the 杀人宣言."""
    return bool(_MANIFESTO_STOP.match(m.text.norm, start, end))


def _holds_an_action(m: MessageReading, mean: list[Token], start: int, end: int) -> bool:
    """An action word after the attack (or 算了…还是普通攻击, a retraction and what replaces it): read, never absorbed
    (docs/parser.md)."""
    return any(_action_word(t) for t in mean) or bool(cues.find(m.text.norm[start:end], scoped.BACKWARD))


def _sets_a_condition(m: MessageReading, mean: list[Token], start: int, end: int) -> bool:
    """ "…,如果李四明天还不说话,我就束魂李四": a condition, never published."""
    return any(t.kind == "COND" and t.text not in _OR for t in mean)


@dataclass(frozen=True)
class _ManifestoStop:
    """A clause after an attack that ends its 杀人宣言: what it is, whether it is shown after reading (_unread), and
    whether the rest of its sentence hangs on it."""

    ends: Callable[[MessageReading, list[Token], int, int], bool]
    shown: bool = False
    condition: bool = False


# In this order: the first that holds ends the 杀人宣言
_MANIFESTO_STOPS = (
    _ManifestoStop(_addresses_the_gm),
    _ManifestoStop(_holds_an_action, shown=True),
    _ManifestoStop(_sets_a_condition, condition=True),
)


def _still_in_manifesto(m: MessageReading, st: _State, mean: list[Token], start: int, end: int) -> bool:
    """Whether the clause may still be the 杀人宣言 of the attack before it: an attack is open and no stop ends it."""
    if st.attack is None:
        return False
    stop = next((s for s in _MANIFESTO_STOPS if s.ends(m, mean, start, end)), None)
    if stop is None:
        return True
    _close_manifesto(m, st)
    if stop.shown:
        m.cut_lines.append((start, end))
    if stop.condition:
        st.condition = True
    return False


def _follow_report(st: _State, toks: list[Token]) -> None:
    """Whose words the rest of the sentence is: someone else's after "王五说:", the sender's again at "我…"."""
    if st.reported and toks[0].kind == "STOP" and toks[0].text.startswith("我"):
        st.reported = False  # "王五说:「…」,我不照做,…": the sender speaks again
    if any(t.kind == "REPORT" for t in toks) and any(t.text == ":" for t in toks):
        st.reported = True  # 王五说:束魂孙八 — to the end of the sentence


def _passes(m: MessageReading, st: _State, mean: list[Token], kinds: set[str]) -> bool:
    """A clause that passes with no privilege word ("今晚空过"): True, and the pass is kept (ending the 杀人宣言) unless
    it only says nothing else is done beside an action read ("变形变成巫医~ 其他的不动了")."""
    if "PASS" not in kinds or "USE" in kinds:
        return False
    if not (m.inputs and _nothing_else(mean)):
        passes = [t for t in mean if t.kind == "PASS"]
        st.passes.append((passes[0].start, passes[-1].end))
        _close_manifesto(m, st)
    return True


def _changes_in_words(clause: Clause, aside: bool) -> bool:
    """ "那个庇佑不给王五了,改给赵六", "刚才的王五改给赵六": a change of target in words (T3), outside a 杀人宣言."""
    return not clause.groups and clause.change_at is not None and bool(clause.names_only) and not aside


def _changed_group(m: MessageReading, st: _State, start: int, end: int) -> tuple[Group, bool] | None:
    """The privilege a change of target in words changes, and whether it was taken from the hand: the one written
    last, else the hand's one privilege naming a player; None, refused, when the hand has none or several."""
    last = st.last_group
    if last is not None:  # 改给赵六,再改给孙八: still the privilege taken from the hand
        g = Group(last.use, start, weak=last.weak, hint=last.hint, card=last.card, verb_end=start, end=end)
        return g, last is st.inferred
    uses = _targeted_uses(m)
    if len(uses) != 1 or uses[0][1] is None:  # an 阿米巴's privilege is its form's: never taken from it
        m.refuse(start, end, _no_privilege_reason(uses))
        return None
    use, card = uses[0]
    return Group(use, start, card=card, verb_end=start, end=end), True


def _new_target(resolver: Resolver, change_at: int, t: Token) -> bool:
    """A player written after the change word that may be the new target."""
    return t.start > change_at and (t.kind != "GAP" or resolver.looks_like_name(t, resolver.resolve_target(t)))


def _change_of_target(m: MessageReading, st: _State, resolver: Resolver, clause: Clause, start: int, end: int) -> bool:
    """Adds the change of target in words to the clause's groups: False when there is none to read ("我改主意了":
    talk) or it is refused."""
    changed = _changed_group(m, st, start, end)
    if changed is None:
        return False
    g, inferred = changed
    change_at = clause.change_at
    assert change_at is not None  # (_changes_in_words)
    g.targets = [t for t in clause.names_only if _new_target(resolver, change_at, t)]
    if not g.targets:
        return False
    clause.groups.append(g)
    if inferred:
        st.inferred = g
    return True


@dataclass(frozen=True)
class _Said:
    """Where a clause was written: its span, whether it stands in the free text after an attack, the clause naming
    only a player just before it (its refusal, the player) and whether it starts a sentence."""

    start: int
    end: int
    in_manifesto: bool
    named: tuple[tuple[int, dict], str] | None
    sentence_start: bool


def _group_readings(
    m: MessageReading, st: _State, resolver: Resolver, toks: list[Token], clause: Clause, said: _Said
) -> list[tuple[Group, GroupReading | str]]:
    """Each privilege word of the clause with its reading, or why it is not the sender's order."""
    results: list[tuple[Group, GroupReading | str]] = []
    prev_end = said.start
    facts = _ClauseFacts.of(toks)
    for g in clause.groups:
        why = _blocked(m, st, toks, g, prev_end, said.end, facts, clause.change_at)
        results.append((g, why if why else resolver.read_group(g, clause.change_at)))
        prev_end = g.end
    return results


def _kept_in_manifesto(
    m: MessageReading, st: _State, results: list[tuple[Group, GroupReading | str]], said: _Said
) -> bool:
    """A privilege in the free text after an attack that gives no input and names no misspelt player is kept in the
    宣言 as written, its target unclear, and shown: never silently dropped."""
    taken = [o for _, o in results if isinstance(o, GroupReading)]
    if not said.in_manifesto or any(o.inputs or o.near_miss for o in taken):
        return False
    _absorb(st, said.start, said.end)
    for o in taken:
        for reason in o.refusals:
            m.refuse(said.start, said.end, _in_manifesto(reason))
    return True


def _read_groups(
    m: MessageReading, st: _State, resolver: Resolver, toks: list[Token], clause: Clause, said: _Said
) -> None:
    """The privileges of the clause: each an input, a refusal or a note."""
    st.last_group = clause.groups[-1]
    results = _group_readings(m, st, resolver, toks, clause, said)
    if _kept_in_manifesto(m, st, results, said):
        return
    _close_manifesto(m, st)
    again_ends = _again_ends(m.text.norm, said.start, said.end)
    for g, res in results:
        if isinstance(res, str):
            _note(m, res, said.start, said.end)
        else:
            _take_group(m, st, g, res, said, again=g.repeat > 1 or again_ends <= g.start + 1)


def _means_the_name_before(said: _Said, d: dict) -> bool:
    """ "王五,束魂他": the pronoun of the input is the player named just before, in the same sentence."""
    return (
        said.named is not None
        and not said.sentence_start
        and bool(d.get("pronoun"))
        and d.get("target") == said.named[1]
    )


def _take_group(m: MessageReading, st: _State, g: Group, o: GroupReading, said: _Said, again: bool) -> None:
    """The inputs and refusals of one privilege word; an attack opens its 杀人宣言."""
    for d in o.inputs:
        if not again and _same_input(m, d):
            m.notes.append(
                (g.start, g.end, f"“{short(m.text.fragment(g.start, g.end), 60)}”和前面写的是同一条指令,只算一次")
            )
            continue  # "今晚给自己治疗一下,巫医治疗钱七": one privilege written twice is read once
        if g is st.inferred:
            d["inferred_use"] = True  # 刚才的王五改给赵六: the privilege is the hand's only one; the preview says so
        if said.named is not None and _means_the_name_before(said, d):
            # the name before is whom the pronoun means — the input's words, not a refusal
            m.refusals.remove(said.named[0])
            d["_span"] = (said.named[0][0], d["_span"][1])
            st.named = None
        m.add(g.start, g.end, d)
    for reason in o.refusals:
        m.refuse(said.start, said.end, reason)
    if o.attack:
        st.attack = o.inputs[-1]
        st.mf_start = o.tail
        st.mf_end = said.end if o.tail is not None else None


def _no_privilege(
    m: MessageReading, st: _State, resolver: Resolver, toks: list[Token], clause: Clause, start: int, end: int
) -> None:
    """A clause with no privilege word: a player only, a card only, or a position only."""
    if clause.names_only and all(t.kind in ("NAME", "SEAT", "SELF", "PUNCT") for t in toks):
        _names_only(m, st, resolver, clause.names_only, start, end)
    elif clause.card_only:
        if not st.stance.card_words(clause.card_only, start, end):
            m.refuse(start, end, CARD_ONLY)
    elif clause.stray_pos is not None and not _cards_left(m.text.norm, start, clause.stray_pos):
        # "倒数第二张": explained only when the message says nothing else
        why = "写了第几张牌,但没写瞄准狙击谁(如“瞄准狙击 张三 倒数第2张”)"
        if any(c in m.text.norm[start:end] for c in "瞄打狙射"):
            m.refuse(start, end, why)  # "瞄他倒数第三张" beside other inputs: an instruction, never dropped
        else:
            m.notes.append((start, end, why))


def _names_only(m: MessageReading, st: _State, resolver: Resolver, names: list[Token], start: int, end: int) -> None:
    """A clause that only names a player: a day vote post's vote (D1), else refused, asking what to do to them."""
    real = [t for t in names if resolver.looks_like_name(t, resolver.resolve_target(t))]
    if not real:
        return  # chatter
    r = resolver.resolve_target(real[0])
    if m.phase == "day" and st.day_vote is None and len(real) == 1 and r.name and not m.inputs:
        st.day_vote = (start, end, r.name)
    elif not r.name:
        m.refuse(start, end, resolver.name_problem(real[0], r))
    else:
        m.refuse(start, end, f"只写了“{r.name}”,没写对他用什么特权(如“束魂 {r.name}”)")
        st.named = (m.refusals[-1], r.name) if len(real) == 1 else None
