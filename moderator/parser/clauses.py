"""A line cut into clauses: asides left out, names and positions joined to the privilege before them."""

from __future__ import annotations

from itertools import pairwise

from . import aliases as al
from .cues import SENTENCE_ENDS
from .lexer import Token
from .reading import MessageReading

_ASIDE_KINDS = frozenset({"PRON", "QUESTION", "OPINION", "HEDGE", "PAST", "NEG", "OTHER", "REPORT"})
_ASIDE_BLOCKERS = frozenset({"USE", "CARD", "POS", "ORDER", "MANIFESTO", "VOTE", "CHANGE", "SELFVOTE", "BOTTOM"})


def _punct(t: Token, marks: str) -> bool:
    """One of the punctuation marks."""
    return t.kind == "PUNCT" and t.text in marks


def _described(inner: list[Token]) -> bool:
    """Words in brackets that describe, whatever action words they hold: what was done to someone (a passive:
    "(他昨天被投出去了)"), or someone's own card ("(就是她底牌前面那张)": her 底牌, not the sender's order)."""
    if any(x.kind == "PASSIVE" for x in inner):
        return True
    return any(a.kind == "PRON" and b.kind == "BOTTOM" for a, b in pairwise(inner))


def _is_aside(inner: list[Token]) -> bool:
    """The words in brackets hold a pronoun, a question or an opinion, and no action word, or only describe."""
    kinds = {x.kind for x in inner}
    asks = any(x.text in "??" for x in inner)
    return bool(kinds & _ASIDE_KINDS or asks) and (not kinds & _ASIDE_BLOCKERS or _described(inner))


def asides(m: MessageReading, tokens: list[Token]) -> list[Token]:
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


_PLAIN_VERBS = frozenset({"打", "砍", "捅", "刀", "杀", "用在", "对"})


def verb_after_use(toks: list[Token]) -> list[Token]:
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


def merged_clauses(tokens: list[Token], cuts: frozenset[int] = frozenset()) -> list[tuple[bool, list[Token]]]:
    """Clauses as (starts a sentence, tokens). "诅咒张三、李四", "瞄准狙击:李四,倒数第2张": a clause of names or
    positions only joins the privilege before it across , or 、 — never across a sentence end, and never when it says
    anything else ("禁锢赵六,赵六别怪我", "治疗王五。孙八晚安"). A token starting at one of `cuts` (a correction
    marker: "瞄准狙击李四,第一张啊不对打错了,是王五") ends the clause before it, as a comma would."""
    out: list[tuple[bool, list[Token]]] = []
    cur: list[Token] = []
    seps, cur_seps = "\n", "\n"  # the separators before the clause being read
    for tok in [*tokens, Token("SEP", -1, -1, "\n", "\n")]:
        if cur and tok.start in cuts and tok.kind != "SEP":
            _merge(out, cur_seps, cur)
            cur, seps = [], ","
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
    """The separators are commas or 、 only (no sentence end)."""
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
        out.append((any(c in SENTENCE_ENDS for c in cur_seps), cur))


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
    """A word that may stand beside the position of a snipe's landing."""
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
