"""Why a privilege word is not the sender's order: a report, a condition, a negation, a guess, a question…"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass

from . import aliases as al
from .actions import Group
from .lexer import Token
from .reading import MessageReading, ReadingState, short
from .text import normalise_word

_MARKERS = frozenset(normalise_word(w) for w in al.TARGET_MARKERS)
_QUIET_NOTES = frozenset({"negation", "other", "report", "guess", "past", "identity"})


@dataclass
class ClauseFacts:
    """What why_blocked asks of a whole clause, computed once, so that a clause of many privileges is read in linear
    time."""

    starts: list[int]
    question: bool
    last_afterneg: int  # start of the last 不了/算了 token, or −1
    first_report: int  # start of the first REPORT token (说, 表示…), or a position past the clause

    @classmethod
    def of(cls, toks: list[Token]) -> ClauseFacts:
        return cls(
            [t.start for t in toks],
            any(t.kind == "QUESTION" for t in toks),
            max((t.start for t in toks if t.kind == "AFTERNEG"), default=-1),
            min((t.start for t in toks if t.kind == "REPORT"), default=1 << 62),
        )


@dataclass(frozen=True)
class _Privilege:
    """A privilege word as why_blocked weighs it: the reading so far, its group, the words before it in its clause (from
    the privilege before), their kinds, the clause's facts and end, and where a change word (改给) stands."""

    m: MessageReading
    st: ReadingState
    g: Group
    pre: list[Token]
    kinds: set[str]
    toks: list[Token]
    facts: ClauseFacts
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
    """A target marker (给, 对…) stands just before the name."""
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
    """我觉得…, 估计…: a guess or chatter."""
    return "OPINION" in p.kinds


def _identity(p: _Privilege) -> bool:
    """我是巫医, 赵六好像是束魂: the last word before the privilege is 是."""
    before = next((t for t in reversed(p.pre) if t.kind != "PUNCT"), None)
    return before is not None and before.kind == "STOP" and before.text == "是"


def _hedged(p: _Privilege) -> bool:
    """可能…, 也许…, 再看看: the sender has not made up their mind."""
    return "HEDGE" in p.kinds


def _question(p: _Privilege) -> bool:
    """A question, unless it only asks the 天神 whether the action is fine ("诅咒王五 ok?")."""
    norm, end = p.m.text.norm, p.end
    named_end = max((t.end for t in p.g.targets if t.kind != "GAP"), default=p.g.end)
    return (p.facts.question or norm[end : end + 1] == "?") and not _ASKS_OK.match(norm, named_end, end + 1)


# Why a privilege word is not the sender's order, in the order asked: the first that holds is the reason (note_blocked)
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


def why_blocked(
    m: MessageReading,
    st: ReadingState,
    toks: list[Token],
    g: Group,
    prev_end: int,
    end: int,
    facts: ClauseFacts,
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


def note_blocked(m: MessageReading, why: str, start: int, end: int) -> None:
    """A privilege word that is not an order, with its reason: a note, or a refusal where the 天神 must look."""
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
