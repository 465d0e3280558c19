"""The whole message: manifestos, discard orders, votes, stance and privileges, in the order they were written."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from cards import catalogue as cat
from votes import reader as votes

from . import aliases as al
from . import orders
from .actions import Clause, Group, Outcome, Resolver, build
from .lexer import Token, lex, meaningful, split_clauses
from .names import NameBook
from .stance import CARD_ONLY, Stance
from .text import Text, lines, normalise_word, prepare

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
class Message:
    text: Text
    book: NameBook
    hand: tuple[str, ...]
    phase: str
    hand_size: int
    line_spans: list[tuple[int, int]] = field(default_factory=list)
    live: list[tuple[int, int] | None] = field(default_factory=list)  # the part of each line still to read
    inputs: list[tuple[int, dict]] = field(default_factory=list)
    refusals: list[tuple[int, dict]] = field(default_factory=list)
    manifestos: list[tuple[int, str, bool]] = field(default_factory=list)  # 杀人宣言 (position, text, weak marker)

    def refuse(self, start: int, end: int, reason: str) -> None:
        frag = self.text.fragment(start, end) or self.text.norm[start:end].strip()
        self.refusals.append((start, {"text": frag, "reason": reason}))

    def tokens(self, i: int) -> list[Token]:
        span = self.live[i]
        return lex(self.text.norm, span[0], span[1], self.book) if span else []


def parse(
    raw: str,
    *,
    sender: str,
    players: Sequence[str],
    hand: Sequence[str],
    phase: str,
    hand_size: int,
    votes_only: bool = False,
):
    text = prepare(raw if isinstance(raw, str) else "")
    m = Message(text, NameBook(players, sender), canonical_hand(hand), phase, hand_size)
    m.line_spans = lines(text)
    m.live = list(m.line_spans)
    if votes_only:
        if not _votes(m):
            _bare_vote(m)
    elif not (phase == "day" and _votes(m)):  # a day vote post is read as a vote only (D1, D3)
        _manifestos(m)
        _orders(m)
        if not (phase != "day" and _votes(m)):
            _actions(m)
        _attach_manifestos(m)
    if not m.inputs and not m.refusals:
        shown = raw.strip() if isinstance(raw, str) else ""
        shown = shown if len(shown) <= 80 else shown[:80] + "…"
        if text.norm.strip():
            reason = "没看懂这条消息:没有找到特权、丢牌顺序或投票。" + HELP
        else:
            reason = "这条消息没有可用的内容(引用的文字不算)。" + HELP
        m.refusals.append((0, {"text": shown, "reason": reason}))
    inputs = tuple(d for _, d in sorted(m.inputs, key=lambda x: x[0]))
    refusals = tuple(d for _, d in sorted(m.refusals, key=lambda x: x[0]))
    return inputs, refusals


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


def _manifestos(m: Message) -> None:
    i = 0
    while i < len(m.live):
        marker = next((t for t in m.tokens(i) if t.kind == "MANIFESTO"), None)
        if marker is None:
            i += 1
            continue
        a, b = m.live[i]
        after = _AFTER_MARKER.match(m.text.norm, marker.end, b)
        if marker.text == "宣言" and ":" not in after.group(0) and after.end() < b:
            i += 1  # "他的宣言很可疑" is not a 杀人宣言 marker; "宣言:" is
            continue
        start = after.end()
        m.live[i] = (a, marker.start)
        end = b
        j = i + 1
        while j < len(m.live) and m.live[j] is not None and not _starts_command(m.tokens(j)):
            end = m.live[j][1]
            m.live[j] = None
            j += 1
        body = m.text.fragment(start, end)
        if body:
            m.manifestos.append((marker.start, body, marker.text == "宣言"))
        i = j


def _attach_manifestos(m: Message) -> None:
    attacks = [(pos, d) for pos, d in m.inputs if d.get("use") in al.ATTACK_USES]
    for pos, body, weak in m.manifestos:
        before = [d for p, d in attacks if p <= pos]
        after = [d for p, d in attacks if p > pos]
        target = before[-1] if before else (after[0] if after else None)
        if target is None and weak:
            continue  # "他的宣言很可疑": chatter, not a 杀人宣言
        if target is None:
            m.refusals.append(
                (
                    pos,
                    {
                        "text": body[:40],
                        "reason": "这条短消息里没有攻击,杀人宣言无处归属;请和攻击写在同一条短消息里(N-kill)",
                    },
                )
            )
        else:
            target["manifesto"] = target["manifesto"] + "\n" + body if "manifesto" in target else body


# ------------------------------------------------------------------------------------------------ orders (O1, O2)
def _card_words(tokens: list[Token]) -> bool:
    return all(t.kind in ("CARD", "BOTTOM", "FILL") or (t.kind == "USE" and t.text in al.CARD_TABLE) for t in tokens)


def _orders(m: Message) -> None:
    i = 0
    while i < len(m.live):
        toks = m.tokens(i)
        mean = meaningful(toks)
        key = next((t for t in mean if t.kind == "ORDER"), None)
        kinds = {t.kind for t in mean}
        bottom_line = (
            "BOTTOM" in kinds
            and not kinds & {"NAME", "SEAT", "SELF", "POS"}
            and _card_words([t for t in mean if t.kind != "GAP"])
        )
        privileges = {c for c in m.hand if c != cat.COMMONER}
        cards = {al.CARD_TABLE.get(t.text, t.value) for t in mean if t.kind == "CARD" or t.text in al.CARD_TABLE}
        bare_list = len(mean) >= 3 and _card_words(mean) and privileges and privileges <= cards
        if key is None and not bottom_line and not bare_list:
            i += 1
            continue
        a, b = m.live[i]
        region_start = a
        list_start = a
        if key is not None:
            sep = None
            for t in toks:
                if t.kind == "SEP" and t.text in "\n。.;!?" and t.end <= key.start:
                    sep = t
            region_start = sep.end if sep else a
            named = [t for t in toks if region_start <= t.start < key.start and t.kind in ("NAME", "SEAT", "SELF")]
            if named:  # "狙击张三,丢牌顺序…": the order starts after the action
                cut = [t for t in toks if t.kind == "SEP" and named[-1].end <= t.start < key.start]
                region_start = cut[-1].end if cut else key.start
            colon = next((t for t in toks if t.start >= key.end and t.text == ":"), None)
            list_start = colon.end if colon else region_start
        m.live[i] = (a, region_start) if region_start > a else None
        end = b
        j = i + 1
        while j < len(m.live) and m.live[j] is not None:
            mean_j = meaningful(m.tokens(j))
            if not mean_j or not _card_words([t for t in mean_j if t.kind != "GAP"]):
                break
            if not any(t.kind in ("CARD", "USE") for t in mean_j):
                break
            end = m.live[j][1]
            m.live[j] = None
            j += 1
        parsed = orders.scan(m.text.norm[list_start:end])
        order, problems = orders.full_order(parsed, m.hand)
        if order is None:
            if parsed.unknown:
                problems.append("看不懂:" + "、".join(f"“{u[:20]}”" for u in parsed.unknown[:3]))
            m.refuse(region_start, end, ";".join(problems))
        else:
            m.inputs.append((region_start, {"order": order}))
        i = j


# ------------------------------------------------------------------------------------------------ votes (D1, D3)
def _votes(m: Message) -> bool:
    """True when the message is a vote post (and has been read as one)."""
    tokens: list[Token] = []
    for i in range(len(m.live)):
        tokens += m.tokens(i)
        if m.live[i] is not None:
            tokens.append(Token("SEP", m.live[i][1], m.live[i][1], "\n", "\n"))
    if not any(votes.is_vote_word(t) for t in tokens):
        return False
    vp = votes.parse(tokens, m.book, m.text.fragment)
    if not vp.inputs and not vp.refusals:
        return False
    has_use = any(t.kind == "USE" for t in tokens)
    if m.phase != "day":
        if vp.inputs and not has_use:
            start, end = tokens[0].start, tokens[-1].end
            m.refuse(start, end, "现在是夜里:投票只在白天的投票帖里算(按白天解析:--phase day);夜里的短消息请写特权")
            return True
        return False
    if not vp.inputs and has_use:
        return False
    pos = min((t.start for t in tokens), default=0)
    m.inputs.extend((pos, d) for d in vp.inputs)
    for (start, end), reason in vp.refusals:
        m.refuse(start, end, reason)
    return True


def _bare_vote(m: Message) -> None:
    """A vote post that is only a name ("张三") votes for that player (D1)."""
    for i in range(len(m.live)):
        mean = meaningful(m.tokens(i))
        if not mean:
            continue
        if len(mean) == 1 and mean[0].kind in ("NAME", "SEAT", "SELF"):
            r = Resolver(m.book, (), m.hand_size, m.text.fragment).resolve_target(mean[0])
            if r.name:
                m.inputs.append((mean[0].start, {"for": r.name}))
                return
        break
    m.refusals.append((0, {"text": m.text.raw.strip()[:80], "reason": "没看出投给谁;请写“投 某某”(改票写“改投 某某”)"}))


# ------------------------------------------------------------------------------------------------ privileges, S4
@dataclass
class _State:
    attack: dict | None = None  # the last attack, while free text after it is its 杀人宣言
    mf_start: int | None = None
    mf_end: int | None = None
    stance: Stance = field(default_factory=Stance)  # S4
    day_vote: tuple[int, int, str] | None = None


def _close_manifesto(m: Message, st: _State) -> None:
    if st.attack is not None and st.mf_start is not None and st.mf_end is not None:
        body = m.text.fragment(st.mf_start, st.mf_end).lstrip(",.、;:!?~ ，。；：！？～\n")
        if body:
            prev = st.attack.get("manifesto")
            st.attack["manifesto"] = prev + "\n" + body if prev else body
    st.attack, st.mf_start, st.mf_end = None, None, None


def _actions(m: Message) -> None:
    st = _State()
    resolver = Resolver(m.book, m.hand, m.hand_size, m.text.fragment)
    for i in range(len(m.live)):
        for clause_tokens in _merged_clauses(m.tokens(i)):
            _clause(m, st, resolver, i, clause_tokens)
    _close_manifesto(m, st)
    choice, problems = st.stance.verdict()
    if choice:
        m.inputs.append((st.stance.span[0], choice))
    for a, b, reason in problems:
        m.refuse(a, b, reason)
    if st.day_vote:
        pos, end, name = st.day_vote
        if m.inputs:
            m.refuse(pos, end, f"只写了“{name}”;投票请写“投 {name}”")
        else:
            m.inputs.append((pos, {"for": name}))  # D1: a vote post that is just a name


_FOLLOWERS = frozenset({"NAME", "SEAT", "SELF", "GAP", "POS", "BOTTOM", "REPEAT", "STOP", "PUNCT"})


def _merged_clauses(tokens: list[Token]) -> list[list[Token]]:
    """'诅咒张三、李四' and '瞄准狙击:李四,倒数第2张': a clause of names or positions only joins the clause before."""
    out: list[list[Token]] = []
    for clause in split_clauses(tokens):
        if out and any(t.kind in ("USE", "CARD") for t in out[-1]) and all(t.kind in _FOLLOWERS for t in clause):
            out[-1] = out[-1] + clause
        else:
            out.append(clause)
    return out


def _clause(m: Message, st: _State, resolver: Resolver, line: int, toks: list[Token]) -> None:
    start, end = toks[0].start, toks[-1].end
    mean = meaningful(toks)
    if not mean:
        return
    in_manifesto = st.attack is not None
    if in_manifesto and not _starts_command(toks):
        st.mf_start = start if st.mf_start is None else st.mf_start
        st.mf_end = end
        return
    if st.stance.take(mean, start, end):
        _close_manifesto(m, st)
        return
    clause: Clause = build(toks)
    if clause.cancel:
        m.refuse(start, end, "不能取消已用的特权(行动点数不退);要换目标请写“束魂改为 某某”")
        return
    if clause.groups:
        results: list[tuple[Group, Outcome]] = [(g, resolver.outcome(g, clause.change_at)) for g in clause.groups]
        if in_manifesto and not any(o.inputs or o.near_miss for _, o in results):
            st.mf_start = start if st.mf_start is None else st.mf_start
            st.mf_end = end
            return
        _close_manifesto(m, st)
        for g, o in results:
            for d in o.inputs:
                m.inputs.append((g.start, d))
            for reason in o.refusals:
                m.refuse(start, end, reason)
            if o.attack:
                st.attack = o.inputs[-1]
                st.mf_start = o.tail
                st.mf_end = end if o.tail is not None else None
        return
    if clause.names_only:
        real = [t for t in clause.names_only if resolver.looks_like_name(t, resolver.resolve_target(t))]
        if not real:
            return  # chatter
        r = resolver.resolve_target(real[0])
        if m.phase == "day" and st.day_vote is None and len(real) == 1 and r.name and not m.inputs:
            st.day_vote = (start, end, r.name)
            return
        if not r.name:
            m.refuse(start, end, resolver.name_problem(real[0], r))
        else:
            m.refuse(start, end, f"只写了“{r.name}”,没写对他用什么特权(如“束魂 {r.name}”)")
        return
    if clause.card_only:
        if not st.stance.card_words(clause.card_only, start, end):
            m.refuse(start, end, CARD_ONLY)
        return
    if clause.stray_pos is not None:
        m.refuse(start, end, "写了第几张牌,但没写瞄准狙击谁(如“瞄准狙击 张三 倒数第2张”)")
