"""The privileges and stance of a message (S4), read clause by clause."""

from __future__ import annotations

import re
from dataclasses import dataclass

from cards import catalogue as cat

from . import cues, votes
from .actions import Clause, Group, GroupReading, Resolver, build_clause
from .blocked import ClauseFacts, note_blocked, why_blocked
from .clauses import asides, merged_clauses, verb_after_use
from .corrections import correction_markers
from .lexer import Token, meaningful
from .manifestos import (
    MANIFESTO_STOP,
    absorb,
    close_at_correction,
    close_manifesto,
    in_manifesto_reason,
    starts_command,
    still_in_manifesto,
)
from .reading import MessageReading, ReadingState, short
from .stance import CARD_ONLY


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


def _mentions(m: MessageReading) -> list[tuple[int, str]]:
    """(position, player) of every name the message writes."""
    out = []
    for span in m.line_spans:
        for t in m.lexed(span):
            if t.kind == "NAME" and t.value.name:
                out.append((t.start, t.value.name))
    return out


def read_actions(m: MessageReading, after_vote: bool = False) -> None:
    """The privileges and stance of the message, clause by clause (S4); after a vote, only clauses of their own."""
    st = ReadingState()
    resolver = Resolver(m.book, m.hand, m.hand_size, m.text.fragment)
    resolver.mentions = _mentions(m)
    tallies = cues.Tallies(cues.tally_spans(m.text.norm))
    cuts = frozenset(x.start() for x in correction_markers(m.text.norm))  # a correction ends its clause
    for i in range(len(m.live)):
        span = m.live[i]
        if st.attack is not None and span and MANIFESTO_STOP.match(m.text.norm, span[0], span[1]):
            close_manifesto(m, st)  # a line "p.s. 天神辛苦" ends the free text after an attack
        for sentence_start, clause_tokens in merged_clauses(asides(m, m.tokens(i)), cuts):
            if sentence_start:
                st.reported = st.condition = False
            toks = _untallied(m, st, clause_tokens, tallies)
            if not toks or (after_vote and _of_the_vote(st, toks)):
                continue
            _clause(m, st, resolver, i, toks, quiet=after_vote, sentence_start=sentence_start)
    close_manifesto(m, st)
    for a, b in tallies.touched(sorted(st.read_places)):  # a tally among the words read: a note, once
        m.notes.append((a, b, cues.TALLY_NOTE.format(m.text.fragment(a, b))))
    _end_of_actions(m, st)


def _acts_on_a_misspelt_player(m: MessageReading, mean: list[Token]) -> bool:
    """ "杀张三,一击必杀欧阳峰": a privilege word and a name one character off a player — an act of the sender's to
    refuse naming that player, never words of the 杀人宣言 before it."""
    return any(t.kind == "USE" for t in mean) and any(
        t.kind == "GAP" and m.book.resolve(t.text).candidates for t in mean
    )


def _untallied(m: MessageReading, st: ReadingState, toks: list[Token], tallies: cues.Tallies) -> list[Token]:
    """The clause without the words of a tally of others' votes ("阿飞、王五各一票"), which are a note (written once
    the message is read: `read_actions`): their names are no privilege's targets, whichever mark joins them to an
    act. In the free text after an attack they stay: what is published is the player's to write."""
    if st.attack is not None:
        return toks
    kept = cues.without_tallies(toks, tallies)
    st.read_places.extend(t.start for t in toks)
    return kept if any(t.kind != "SEP" for t in kept) else []


def _of_the_vote(st: ReadingState, toks: list[Token]) -> bool:
    """A clause of a vote post that is its vote, already read, or its reason (理由:…, to the end): never read for
    privileges (D1)."""
    if st.reasons or any(t.kind == "REASON" for t in toks):
        st.reasons = True
        return True
    return any(votes.is_vote_word(t) or t.kind == "CHANGE" for t in toks)


def _end_of_actions(m: MessageReading, st: ReadingState) -> None:
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


_ELSE = frozenset({"其他", "其余", "别的", "剩下", "剩下的", "其它"})


def _nothing_else(mean: list[Token]) -> bool:
    """ "其他的不动了", "别的不做": the words of a pass after 其他/别的: the rest of the phase, not the whole of it."""
    first_pass = next(k for k, t in enumerate(mean) if t.kind == "PASS")
    return any(t.text in _ELSE for t in mean[:first_pass])


# "最后一张牌了", "只剩最后一张": how many cards are left, chatter — not a position without its shot
_LEFT_AFTER = re.compile(r"[ \t]*牌?[ \t]*(?:了|啦|喽|咯|囉|罗)")
_LEFT_BEFORE = re.compile(r"(?:剩|剩下|只有|还有|就剩)[ \t]*$")


def _cards_left(norm: str, start: int, pos: Token) -> bool:
    """The position only says how many cards are left."""
    return bool(_LEFT_AFTER.match(norm, pos.end) or _LEFT_BEFORE.search(norm, start, pos.start))


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


def _clause(
    m: MessageReading,
    st: ReadingState,
    resolver: Resolver,
    line: int,
    toks: list[Token],
    quiet: bool = False,
    sentence_start: bool = True,
) -> None:
    """One clause of a line, read in turn as the 杀人宣言 going on, a pass, a stance, privileges, or what it says
    instead of an order."""
    start, end = toks[0].start, toks[-1].end
    toks = verb_after_use(toks)
    mean = meaningful(toks)
    named, st.named = st.named, None  # (only the clause right after the name may take it)
    close_at_correction(m, st, start, end)
    if not mean:
        return
    in_manifesto = still_in_manifesto(m, st, mean, start, end)
    if in_manifesto and not starts_command(toks) and not _acts_on_a_misspelt_player(m, mean):
        absorb(st, start, end)
        return
    _follow_report(st, toks)
    kinds = {t.kind for t in mean}
    if _passes(m, st, mean, kinds):
        return
    if not quiet and st.stance.take(mean, start, end):
        close_manifesto(m, st)
        return
    clause = _built(m, st, toks, kinds, start, end)
    if clause is None:
        return
    if _changes_in_words(clause, in_manifesto or quiet) and not _change_of_target(m, st, resolver, clause, start, end):
        return
    if clause.groups:
        _read_groups(m, st, resolver, toks, clause, _Said(start, end, in_manifesto, named, sentence_start))
    elif not quiet:
        _no_privilege(m, st, resolver, toks, clause, start, end)


def _built(
    m: MessageReading, st: ReadingState, toks: list[Token], kinds: set[str], start: int, end: int
) -> Clause | None:
    """The clause's privilege groups, names and cards; None when it cancels a privilege (refused: AP4)."""
    clause = build_clause(toks)
    if not clause.groups and "COND" in kinds:
        st.condition = True  # 如果王五跳杀手,就诅咒他
    if clause.cancel:
        m.refuse(start, end, "不能取消已用的特权(行动点数不退);要换目标请写“束魂改为 某某”")
        return None
    return clause


def _follow_report(st: ReadingState, toks: list[Token]) -> None:
    """Whose words the rest of the sentence is: someone else's after "王五说:", the sender's again at "我…"."""
    if st.reported and toks[0].kind == "STOP" and toks[0].text.startswith("我"):
        st.reported = False  # "王五说:「…」,我不照做,…": the sender speaks again
    if any(t.kind == "REPORT" for t in toks) and any(t.text == ":" for t in toks):
        st.reported = True  # 王五说:束魂孙八 — to the end of the sentence


def _passes(m: MessageReading, st: ReadingState, mean: list[Token], kinds: set[str]) -> bool:
    """A clause that passes with no privilege word ("今晚空过"): True, and the pass is kept (ending the 杀人宣言) unless
    it only says nothing else is done beside an action read ("变形变成巫医~ 其他的不动了")."""
    if "PASS" not in kinds or "USE" in kinds:
        return False
    if not (m.inputs and _nothing_else(mean)):
        passes = [t for t in mean if t.kind == "PASS"]
        st.passes.append((passes[0].start, passes[-1].end))
        close_manifesto(m, st)
    return True


def _changes_in_words(clause: Clause, muted: bool) -> bool:
    """ "那个庇佑不给王五了,改给赵六", "刚才的王五改给赵六": a change of target in words (T3), unless the clause is muted
    (in a 杀人宣言, or beside a day vote)."""
    return not clause.groups and clause.change_at is not None and bool(clause.names_only) and not muted


def _changed_group(m: MessageReading, st: ReadingState, start: int, end: int) -> tuple[Group, bool] | None:
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


def _change_of_target(
    m: MessageReading, st: ReadingState, resolver: Resolver, clause: Clause, start: int, end: int
) -> bool:
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
    m: MessageReading, st: ReadingState, resolver: Resolver, toks: list[Token], clause: Clause, said: _Said
) -> list[tuple[Group, GroupReading | str]]:
    """Each privilege word of the clause with its reading, or why it is not the sender's order."""
    results: list[tuple[Group, GroupReading | str]] = []
    prev_end = said.start
    facts = ClauseFacts.of(toks)
    for g in clause.groups:
        why = why_blocked(m, st, toks, g, prev_end, said.end, facts, clause.change_at)
        results.append((g, why if why else resolver.read_group(g, clause.change_at)))
        prev_end = g.end
    return results


def _kept_in_manifesto(
    m: MessageReading, st: ReadingState, results: list[tuple[Group, GroupReading | str]], said: _Said
) -> bool:
    """A privilege in the free text after an attack that gives no input and names no misspelt player is kept in the
    宣言 as written, its target unclear, and shown: never silently dropped."""
    taken = [o for _, o in results if isinstance(o, GroupReading)]
    if not said.in_manifesto or any(o.inputs or o.near_miss for o in taken):
        return False
    absorb(st, said.start, said.end)
    for o in taken:
        for reason in o.refusals:
            m.refuse(said.start, said.end, in_manifesto_reason(reason))
    return True


def _read_groups(
    m: MessageReading, st: ReadingState, resolver: Resolver, toks: list[Token], clause: Clause, said: _Said
) -> None:
    """The privileges of the clause: each an input, a refusal or a note."""
    st.last_group = clause.groups[-1]
    results = _group_readings(m, st, resolver, toks, clause, said)
    if _kept_in_manifesto(m, st, results, said):
        return
    close_manifesto(m, st)
    again_ends = _again_ends(m.text.norm, said.start, said.end)
    for g, res in results:
        if isinstance(res, str):
            note_blocked(m, res, said.start, said.end)
        else:
            _take_group(m, st, g, res, said, again=g.repeat > 1 or again_ends <= g.start + 1)


def _name_before(said: _Said, d: dict) -> tuple[int, dict] | None:
    """ "王五,束魂他": the refusal of the player named just before, in the same sentence, when the input's pronoun
    is that player; else None."""
    named = said.named
    if named is None or said.sentence_start or not d.get("pronoun") or d.get("target") != named[1]:
        return None
    return named[0]


def _take_group(m: MessageReading, st: ReadingState, g: Group, o: GroupReading, said: _Said, again: bool) -> None:
    """The inputs and refusals of one privilege word; an attack opens its 杀人宣言."""
    for d in o.inputs:
        if not again and _same_input(m, d):
            m.notes.append(
                (g.start, g.end, f"“{short(m.text.fragment(g.start, g.end), 60)}”和前面写的是同一条指令,只算一次")
            )
            continue  # "今晚给自己治疗一下,巫医治疗钱七": one privilege written twice is read once
        if g is st.inferred:
            d["inferred_use"] = True  # 刚才的王五改给赵六: the privilege is the hand's only one; the preview says so
        if (named := _name_before(said, d)) is not None:
            # the name before is whom the pronoun means — the input's words, not a refusal
            m.refusals.remove(named)
            d["_span"] = (named[0], d["_span"][1])
            st.named = None
        m.add(g.start, g.end, d)
    for reason in o.refusals:
        m.refuse(said.start, said.end, reason)
    if o.attack:
        st.attack = o.inputs[-1]
        st.mf_start = o.tail
        st.mf_end = said.end if o.tail is not None else None


def _no_privilege(
    m: MessageReading, st: ReadingState, resolver: Resolver, toks: list[Token], clause: Clause, start: int, end: int
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


def _names_only(
    m: MessageReading, st: ReadingState, resolver: Resolver, names: list[Token], start: int, end: int
) -> None:
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
