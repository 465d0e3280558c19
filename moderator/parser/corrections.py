"""Self-corrections: "治疗张三,哦不对,治疗李四" — the words after the marker replace what they correct."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

from . import aliases as al
from . import cues, scoped
from .actions import Group, Resolver
from .lexer import Token, lex, meaningful
from .reading import MessageReading

# "治疗张三,哦不对,治疗李四", "禁锢王五……更正:禁锢赵六": the words after the marker replace the input of the same
# privilege written before it (docs/parser.md, rulings). Where it is not clear which one, both are refused, named.
CORRECTION = re.compile(
    r"(?:(?:^|(?<=[\s,。.!?;~…、:]))(?:哦|噢|喔|啊|呃|额)?|哦|噢|喔|啊|呃|额)[ \t,]*"
    r"(?:不对不对|不对|说错了|打错了|写错了|搞错了|更正|纠正|订正|修正|改正)[ \t]*[,:!。.~…]*"
)


def correction_markers(norm: str) -> list[re.Match]:
    """Each correction marker of the normalised text, in order."""
    return [found for found in CORRECTION.finditer(norm) if found.end() > found.start()]


def read_corrections(m: MessageReading) -> None:
    """Each correction marker of the message, reaching to the next one."""
    markers = correction_markers(m.text.norm)
    tallies = cues.tally_spans(m.text.norm) if markers else []  # others' votes counted, no reading of a correction
    m.marker_spans = [(found.start(), found.end()) for found in markers]
    m.clause_ends = [k for k, c in enumerate(m.text.norm) if c in _CLAUSE_ENDS] if markers else []
    for k, marker in enumerate(markers):
        nxt = markers[k + 1].start() if k + 1 < len(markers) else len(m.text.norm) + 1
        _correct(m, marker, nxt)
        _names_after_the_correction(m, marker, nxt, tallies)


def _corrects(d: dict) -> bool:
    """An input a correction may replace: a privilege (a change of target, 改给…, is already the rules' own
    correction: T3)."""
    return "use" in d and not d.get("change")


def _correct(m: MessageReading, marker: re.Match, nxt: int) -> None:
    """What the words after one correction marker, up to nxt, replace."""
    before = [(p, d) for p, d in m.inputs if p < marker.start() and _corrects(d)]
    after = [(p, d) for p, d in m.inputs if marker.end() <= p < nxt and _corrects(d)]
    bare, unread = _own_clause(m, marker, after, nxt)
    if bare and (_bare_corrects(m, marker, before) or _bare_corrects_refused(m, marker)):
        return
    if unread and before:  # the correction itself was not read: what it corrects is unclear
        _unclear_correction(m, marker, before[-1])
        return
    if bare and (taken_back := _taken_back(m, marker, nxt)) is not None:  # "治疗赵六,哦不对": corrected to nothing
        _unclear_correction(m, marker, taken_back)
        return
    for _, d in after:
        _replace_same(m, marker, before, d)


def _own_clause(m: MessageReading, marker: re.Match, after: list[tuple[int, dict]], nxt: int) -> tuple[bool, bool]:
    """Whether the correction's own clause (an act after it is an act of its own) may name one part of the act
    before it (it gave no input and no refusal), and whether the correction's words were not read."""
    own = _correction_words(m, marker.end())[1]
    acted, refused = _read_in(after, marker.end(), own), _read_in(m.refusals, marker.start(), own)
    unread = (refused and not acted) or (not after and _read_in(m.refusals, marker.start(), nxt))
    return not (acted or refused), unread


def _taken_back(m: MessageReading, marker: re.Match, nxt: int) -> tuple[int, dict] | None:
    """The act a marker followed by no correction takes back (`_act_just_before`), unless a cancel follows it ("…,不对,
    算了": the cancel says it)."""
    between = m.text.norm[marker.end() : nxt]
    if cues.find_cues(between, scoped.BACKWARD) or (nxt <= len(m.text.norm) and not between.strip(_TRAILING + ":")):
        return None  # a cancel says it; or the next marker follows at once ("哦不对,更正:…") and speaks for both
    return _act_just_before(m, marker)


def _act_just_before(m: MessageReading, marker: re.Match) -> tuple[int, dict] | None:
    """The privilege or vote a correction marker that corrects it to nothing takes back: the input written last before
    the marker, in its sentence or the one before ("治疗赵六,哦不对", "投赵六。不对。"); None when a sentence stands
    between them (the marker is about something else)."""
    last = max(((p, d) for p, d in m.inputs if p < marker.start() and "_span" in d), key=lambda pd: pd[0], default=None)
    if last is None or not ("use" in last[1] or "for" in last[1] or "change" in last[1]):
        return None
    between = m.text.norm[last[1]["_span"][1] : marker.start()].rstrip(" \t")
    return (
        last if sum(c in _SENTENCE_ENDS for c in between) <= 1 and not between.rstrip("。;!?\n").count("\n") else None
    )


def _read_in(items: list[tuple[int, dict]], start: int, end: int) -> bool:
    """Whether an input or refusal was read from a place in norm[start:end]."""
    return any(start <= p < end for p, _ in items)


def _bare_corrects(m: MessageReading, marker: re.Match, before: list[tuple[int, dict]]) -> bool:
    """A correction naming only one part of the privilege or vote written last before it replaces that part."""
    votes_before = [(p, d) for p, d in m.inputs if p < marker.start() and ("for" in d or "change" in d)]
    last = max(before + votes_before, key=lambda pd: pd[0], default=None)
    return last is not None and _bare_correction(m, marker.end(), last)


def _bare_corrects_refused(m: MessageReading, marker: re.Match) -> bool:
    """ "绝杀欧阳峰啊不对打错了,是阿飞", "投票:欧阳峰,不对,是赵六": a correction naming only a player after an act
    refused for whom it is for (its input, the player left open, on the refusal) is that act on the player."""
    refused = _refused_just_before(m, marker.start())
    if refused is None:
        return False
    p, r = refused
    said, end = _correction_words(m, marker.end())
    key = next((k for k in _PLAYER_KEYS if r["input"].get(k, 0) is None), None)
    if len(said) != 1 or said[0].kind not in ("NAME", "SEAT", "SELF") or key is None:
        return False
    who = Resolver(m.book, m.hand, m.hand_size, m.text.fragment).resolve_target(said[0]).name
    if who is None:
        return False
    m.refusals.remove((p, r))
    m.unsure_attacks[:] = [u for u in m.unsure_attacks if u[1] is not r["input"]]
    d = {**r["input"], key: who, "correction": r["text"].rstrip(_TRAILING), "_span": (p, said[0].end)}
    m.inputs.append((p, d))
    _drop_replaced(m, d, p, marker.end(), end)
    return True


def _refused_just_before(m: MessageReading, at: int) -> tuple[int, dict] | None:
    """The refusal written last before `at`, after every input, when it carries the input choosing a player gives."""
    last_input = max((p for p, _ in m.inputs if p < at), default=-1)
    refused = [(p, r) for p, r in m.refusals if last_input < p < at]
    return refused[-1] if refused and isinstance(refused[-1][1].get("input"), dict) else None


_TRAILING = " \t,,、;;。.!!~…"


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
    said, end = _correction_words(m, at)
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


_SENTENCE_ENDS = frozenset("。;!?\n")
_CLAUSE_ENDS = frozenset(",,、") | _SENTENCE_ENDS


def _correction_words(m: MessageReading, at: int) -> tuple[list[Token], int]:
    """The words of a correction: the first clause after its marker that says something ("不对,是李四,治疗王五": 李四;
    "啊不对打错了,是李四": 李四), and where that clause ends. What follows it is read as the message goes on. Each
    clause is read once per message (`said_after`): markers in a row walk over the same clauses."""
    norm, walked, start = m.text.norm, [], at
    found: tuple[list[Token], int] = ([], len(norm))
    while start < len(norm):
        if start in m.said_after:
            found = m.said_after[start]
            break
        walked.append(start)
        end, resume = _clause_from(m, start)
        said = [t for t in meaningful(lex(norm, start, end, m.book)) if t.text not in _CORRECTION_FILL]
        if said or end >= len(norm) or norm[end] in _SENTENCE_ENDS:
            found = (said, end)
            break
        start = resume
    m.said_after.update(dict.fromkeys(walked, found))
    return list(found[0]), found[1]


def _clause_from(m: MessageReading, start: int) -> tuple[int, int]:
    """Where the clause from `start` ends (a clause end, or the start of another correction marker: "哦不对哦不对…"),
    and where the reading of a correction's words goes on after it (after the separator, or after that marker)."""
    k = bisect.bisect_left(m.clause_ends, start)
    end = m.clause_ends[k] if k < len(m.clause_ends) else len(m.text.norm)
    j = bisect.bisect_right(m.marker_spans, (start, len(m.text.norm) + 1))  # the first marker starting after start
    if j < len(m.marker_spans) and m.marker_spans[j][0] < end:
        return m.marker_spans[j][0], m.marker_spans[j][1]
    return end, end + 1


def _drop_replaced(m: MessageReading, d: dict, start: int, at: int, end: int) -> None:
    """What the corrected input d now says once: another input of its words with its meaning, and the notes on the
    correction's own words (norm[at:end]), go."""
    same = [x for x in m.inputs if x[1] is not d and x[1].get("_span", (None,))[0] == start]
    m.inputs[:] = [x for x in m.inputs if not any(x is y for y in same if _same_meaning(y[1], d))]
    m.notes[:] = [n for n in m.notes if not (at <= n[0] < end)]


_PLAYER_KEYS = ("target", "for", "change")


def _names_after_the_correction(m: MessageReading, marker: re.Match, nxt: int, tallies: list[tuple[int, int]]) -> None:
    """ "投张三,不对,是李四,王五": a clause of names only, right after the corrected input's words, that no input
    reads leaves it unclear which player the correction means: the corrected input is refused, naming both
    readings (with the input choosing one gives)."""
    fixed = [(p, d) for p, d in m.inputs if d.get("correction") and marker.end() <= d["_span"][1] and p < nxt]
    key = next((k for k in _PLAYER_KEYS if len(fixed) == 1 and isinstance(fixed[0][1].get(k), str)), None)
    if key is None:
        return
    d = fixed[0][1]
    after = _bare_names(m, d["_span"][1], nxt, tallies)
    names = [(t, n) for t, n in after if n not in (d[key], m.book.sender) and not _in_an_input(m, t)]
    if names:
        m.inputs.remove(fixed[0])
        _refuse_both(m, d, key, names)


def _refuse_both(m: MessageReading, d: dict, key: str, names: list[tuple[Token, str]]) -> None:
    """The corrected input d refused, naming its player and the names left over after it (whose own refusals it
    replaces)."""
    lo, hi = names[0][0].start, names[-1][0].end  # (the names' clauses hold nothing else)
    m.refusals[:] = [r for r in m.refusals if not lo <= r[0] < hi]
    who = list(dict.fromkeys([d[key], *(n for _, n in names)]))
    what = {"for": "投", "change": "改投"}.get(key) or d["use"]
    partial = {k: v for k, v in d.items() if not k.startswith("_") and k not in ("correction", "pronoun")}
    m.refuse(
        d["_span"][0],
        hi,
        (
            f"更正后写了{who[0]},后面又写了{'、'.join(who[1:])}:{what}的是哪一个不清楚,不会替你选;"
            f"请写明(如“{what} {who[0]}”),或由天神确认",
            who,
            partial | {key: None},
        ),
    )


def _bare_names(m: MessageReading, start: int, nxt: int, tallies: list[tuple[int, int]]) -> list[tuple[Token, str]]:
    """The players of the clauses of names only from `start` on, on its line (up to the next correction marker,
    `nxt`), up to the first clause that says anything else or counts others' votes ("…,欧阳锋、阿飞各一票")."""
    norm, out = m.text.norm, []
    end = min(nxt, len(norm))
    line_end = norm.find("\n", start, end)  # (up to the next marker only: one pass over the message)
    stop = end if line_end < 0 else line_end
    a = start
    while a < stop:
        b = next((k for k in range(a, stop) if norm[k] in _CLAUSE_ENDS), stop)
        said = meaningful(lex(norm, a, b, m.book))
        resolver = Resolver(m.book, m.hand, m.hand_size, m.text.fragment)
        found = [(t, resolver.resolve_target(t).name) for t in said if t.kind in ("NAME", "SEAT")]
        found = [(t, n) for t, n in found if not any(x <= t.start < y for x, y in tallies)]
        if len(found) != len(said) or not all(n for _, n in found):
            break
        out += [(t, n) for t, n in found if n]
        a = b + 1
    return out


def _in_an_input(m: MessageReading, t: Token) -> bool:
    return any(d["_span"][0] <= t.start < d["_span"][1] for _, d in m.inputs if "_span" in d)
