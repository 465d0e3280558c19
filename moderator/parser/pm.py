"""The whole message: manifestos, discard orders, votes, stance and privileges, in the order they were written."""

from __future__ import annotations

from collections.abc import Sequence

from . import cues, scoped, votes
from .account import gap_notes
from .actions import Resolver
from .corrections import correction_markers, read_corrections
from .discards import read_orders, read_ordinals
from .lexer import Token, lex, meaningful
from .manifestos import attach_manifestos, manifesto_cut, manifesto_end, read_manifestos, show_unread
from .names import NameBook
from .privileges import read_actions
from .reading import QUOTE_MAX, MessageReading, canonical_hand, short
from .text import Text, lines, prepare, quoted

__all__ = [
    "MAX_CHARS",
    "MessageReading",
    "canonical_hand",
    "clip",
    "manifesto_cut",
    "manifesto_end",
    "read_message",
    "short",
]

HELP = (
    "可以这样写:“狙击 张三”“瞄准狙击 张三 倒数第2张”“束魂 李四”“用杀手牌攻击 王五,杀人宣言:……”"
    "“阿米巴变形成狙击手”“丢牌顺序:庶民、束魂、保镖、杀手”;白天的投票帖:“投 张三”“改投 李四”"
)


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


def read_message(
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
        read_corrections(m)
        scoped.apply_cues(m)
    elif m.phase == "day" and _votes(m):
        read_actions(m, after_vote=True)  # a day vote post: its vote, and a privilege in a clause of its own
        read_corrections(m)
        scoped.apply_cues(m)
    else:
        read_manifestos(m)
        read_ordinals(m)
        read_orders(m)
        if not (m.phase != "day" and _votes(m)):
            read_actions(m)
            read_corrections(m)
        scoped.apply_cues(m)
        attach_manifestos(m)
        show_unread(m)


def _say_why_nothing(m: MessageReading, raw: str) -> None:
    """A message that gave no input and no refusal is refused, saying why: the notes on what it seemed to ask, else
    what would be accepted."""
    if not m.inputs and not m.refusals and m.notes:
        for start, end, reason in dict.fromkeys(m.notes):  # say why what the message seemed to ask was not taken
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


def _votes(m: MessageReading) -> bool:
    """True when the message is a vote post (and has been read as one)."""
    tokens = _line_tokens(m)
    if not any(votes.is_vote_word(t) for t in tokens):
        return False
    tokens = _without_tallies(m.text.norm, tokens)
    fixes = [(x.start(), x.end()) for x in correction_markers(m.text.norm)]
    vp = votes.read_vote_post(tokens, m.book, m.text.fragment, fixes)
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
    m.notes += [(start, end, reason) for (start, end), reason in vp.notes]
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
    return cues.without_tallies(tokens, cues.Tallies(cues.tally_spans(norm)))


def _night_vote(m: MessageReading, inputs: list, tokens: list[Token], has_use: bool) -> bool:
    """A vote written at night with no privilege: refused, the message read as a vote post (D1)."""
    if inputs and not has_use:
        start, end = tokens[0].start, tokens[-1].end
        m.refuse(start, end, "现在是夜里:投票只在白天的投票帖里算(按白天解析:--phase day);夜里的短消息请写特权")
        return True
    return False


def _bare_vote(m: MessageReading) -> None:
    """A vote post that is only a name ("张三") votes for that player (D1); a line whose name follows a vote word that
    casts no vote of the sender's (不投张三, 别投张三, 投了张三, 大家投张三) is no such post."""
    for i in range(len(m.live)):
        tokens = m.tokens(i)
        mean = meaningful(tokens)
        if not mean:
            continue
        not_vote = next((t for t in tokens if t.text in votes.NOT_VOTE), None)
        if not_vote is not None:
            _refuse_not_a_vote(m, not_vote, tokens[-1].end)
            return
        if len(mean) == 1 and mean[0].kind in ("NAME", "SEAT", "SELF"):
            r = Resolver(m.book, (), m.hand_size, m.text.fragment).resolve_target(mean[0])
            if r.name:
                m.add(mean[0].start, mean[0].end, {"for": r.name})
                return
        break
    m.refuse(0, len(m.text.norm), "没看出投给谁;请写“投 某某”(改票写“改投 某某”)")
    m.refusals[-1][1]["text"] = m.text.raw.strip()[:80]


def _refuse_not_a_vote(m: MessageReading, word: Token, end: int) -> None:
    """不投张三: a vote word that casts no vote (a negation, a past or someone else's vote) is not the sender's vote."""
    m.refuse(
        word.start,
        end,
        f"“{m.text.fragment(word.start, word.end)}”不是投票(不投、没投、投过的票、别人投的票都不算);"
        "要投票请写“投 某某”(改票写“改投 某某”)",
    )
