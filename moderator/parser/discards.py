"""Discard orders (O1, O2): after an order word, as a bare list of the hand, or as ordinals."""

from __future__ import annotations

from dataclasses import dataclass

from cards import catalogue as cat

from . import aliases as al
from . import orders
from .lexer import Token, meaningful
from .reading import MessageReading


def _card_words(tokens: list[Token]) -> bool:
    """Every token is a card word (or a 底牌 mark, or filler)."""
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
        if _ordinal_fill(t) or (t.kind == "ORDER" and not pairs and ordinal is None):
            continue  # (丢牌顺序:第一张保镖,…: the order's label before the list)
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


def read_ordinals(m: MessageReading) -> None:
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
        """A discard order may start on the line."""
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


def read_orders(m: MessageReading) -> None:
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
