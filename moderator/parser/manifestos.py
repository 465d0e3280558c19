"""杀人宣言 (N-kill): where a declaration written after an attack starts and ends, and which attack it is for."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass

from cards import catalogue as cat

from . import aliases as al
from . import cues, scoped
from .actions import build_clause
from .corrections import CORRECTION
from .lexer import Token, meaningful
from .reading import MessageReading, ReadingState
from .text import normalise_word

COMMAND_KINDS = ("USE", "CARD", "ORDER", "MANIFESTO", "MODE", "STANCE", "SIDE")
_AFTER_MARKER = re.compile(r"\s*(?:如下|见下|是|为)?\s*[:]?\s*")


def starts_command(tokens: list[Token]) -> bool:
    """A clause that starts with a command of its own (a privilege, a card, an order, a 宣言 marker…): not 杀人宣言 text."""
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
    """Line i ends the 杀人宣言 above it: read already, a word to the 天神 or another marker."""
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
    groups = build_clause(meaningful(m.tokens(i))).groups
    names = _attacked(m.tokens(i))
    return bool(groups) and all(g.use in al.ATTACK_USES for g in groups) and bool(names) and names <= attacked


def _attacked(tokens: list[Token]) -> set[str]:
    """The players an attack written in these tokens is aimed at."""
    return {
        t.value.name
        for g in build_clause(meaningful(tokens)).groups
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
    会禁锢我") is not published (docs/parser.md: such a clause is never absorbed); it is shown after reading (show_unread)."""
    span = m.live[j]
    if span is None or _repeats_attack(m, j, attacked):
        return False
    if any(_action_word(t) for t in m.tokens(j)):
        m.cut_lines.append(span)
        return True
    return False


def read_manifestos(m: MessageReading) -> None:
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
        and (not starts_command(m.tokens(j)) or _repeats_attack(m, j, attacked))
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


def attach_manifestos(m: MessageReading) -> None:
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


def show_unread(m: MessageReading) -> None:
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


def close_manifesto(m: MessageReading, st: ReadingState) -> None:
    """The free text after the open attack, up to here, is its 杀人宣言 (N-kill); no attack is open after it."""
    if st.attack is not None and st.mf_start is not None and st.mf_end is not None:
        st.mf_end = manifesto_cut(m.text.norm, st.mf_start, st.mf_end)
        body = m.text.fragment(st.mf_start, st.mf_end).lstrip(",.、;:!?~ ，。；：！？～\n")
        if body:
            prev = st.attack.get("manifesto")
            st.attack["manifesto"] = prev + "\n" + body if prev else body
            st.attack.setdefault("_mf_spans", []).append((st.mf_start, st.mf_end))
    st.attack, st.mf_start, st.mf_end = None, None, None


# The clauses after an attack, as the privileges are read (privileges.py): which go on its 杀人宣言
IN_MANIFESTO = "(这段写在攻击后面,已算作杀人宣言;如果玩家是要用这个特权,请问清楚后选定或用表单录入)"


def in_manifesto_reason(reason: str | tuple) -> str | tuple:
    """The refusal's reason, saying the words were kept as the 杀人宣言."""
    if isinstance(reason, tuple):
        return (reason[0] + IN_MANIFESTO, *reason[1:])
    return reason + IN_MANIFESTO


MANIFESTO_STOP = re.compile(r"[ \t]*" + MANIFESTO_END.pattern, re.I)


def close_at_correction(m: MessageReading, st: ReadingState, start: int, end: int) -> None:
    """ "狙击张三,不对,是欧阳锋": a clause that corrects ends the 杀人宣言 of the attack before it, never published."""
    if st.attack is not None and CORRECTION.match(m.text.norm, start, end):
        close_manifesto(m, st)


def absorb(st: ReadingState, start: int, end: int) -> None:
    """norm[start:end] is part of the free text after the attack: its 杀人宣言."""
    st.mf_start = start if st.mf_start is None else st.mf_start
    st.mf_end = end


def _addresses_the_gm(m: MessageReading, mean: list[Token], start: int, end: int) -> bool:
    """PS 天神:…, 谢谢, 理由:…, 正数第2张: never part of the 杀人宣言."""
    return bool(MANIFESTO_STOP.match(m.text.norm, start, end))


def _holds_an_action(m: MessageReading, mean: list[Token], start: int, end: int) -> bool:
    """An action word after the attack (or 算了…还是普通攻击, a retraction and what replaces it): read, never absorbed
    (docs/parser.md)."""
    return any(_action_word(t) for t in mean) or bool(cues.find_cues(m.text.norm[start:end], scoped.BACKWARD))


_OR = frozenset({"或", "或者"})  # (a choice between players, not a condition)


def _sets_a_condition(m: MessageReading, mean: list[Token], start: int, end: int) -> bool:
    """ "…,如果李四明天还不说话,我就束魂李四": a condition, never published."""
    return any(t.kind == "COND" and t.text not in _OR for t in mean)


@dataclass(frozen=True)
class _ManifestoStop:
    """A clause after an attack that ends its 杀人宣言: what it is, whether it is shown after reading (show_unread), and
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


def still_in_manifesto(m: MessageReading, st: ReadingState, mean: list[Token], start: int, end: int) -> bool:
    """Whether the clause may still be the 杀人宣言 of the attack before it: an attack is open and no stop ends it."""
    if st.attack is None:
        return False
    stop = next((s for s in _MANIFESTO_STOPS if s.ends(m, mean, start, end)), None)
    if stop is None:
        return True
    close_manifesto(m, st)
    if stop.shown:
        m.cut_lines.append((start, end))
    if stop.condition:
        st.condition = True
    return False
