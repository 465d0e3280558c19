"""The groups of one clause: a privilege word opens a group; names, positions, a count and a card word around it
fill the group (docs/scenarios.md action inputs: card, use, target, position, into).

How a word goes on the group before it, or waits for the next one, is the small tables below; `build_clause` reads the
clause once, token by token, so a clause of any length is read in linear time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cards import catalogue as cat

from . import aliases as al
from .lexer import Token

TARGET_KINDS = ("NAME", "SEAT", "SELF", "GAP", "PRON")
_USING = frozenset({"用", "使用"})  # "用杀手牌攻击王五": part of the card phrase
# "王五这个杀手太明显了,明天票他": a card word after a name, after one of these words, or after a gap or pronoun
# ending in one of these characters, is a noun about someone, never the verb of an attack
_NOUN_AFTER_WORDS = ("个", "是", "的", "这张", "那张", "一个")
_NOUN_AFTER_ENDING = "这那个的是"


@dataclass
class Group:
    """One privilege word and the words that fill it."""

    use: str
    start: int
    weak: bool = False
    hint: str | None = None  # card implied by the spelling (咬 → 狼人)
    card: str | None = None  # card written in the text (用杀手牌…)
    targets: list[Token] = field(default_factory=list)
    verb_end: int = 0
    pos: Token | None = None
    into: Token | None = None
    repeat: int = 1  # 诅咒张三两次
    end: int = 0
    alt: bool = False  # "狙击赵六或孙八", "禁锢王五还是孙八": one of several, never guessed
    counted: bool = False  # opened by a count of stabs ("两刀赵六")
    # The words the group was read from beyond its verb and targets, so that an input's span holds every one of
    # them (docs/parser.md, "nothing dropped"): `lo`, the start of a card phrase ("用杀手牌"), a position or a change
    # word written before the verb; `past`, a 刚才 before it (it names what a change of target changes); `hi`, the
    # end of a card or count written after the targets ("诅咒王五用诅咒牌", "诅咒张三两次").
    lo: int | None = None
    past: int | None = None
    hi: int = 0

    def first(self, change_at: int | None = None) -> int:
        """Where the words the group was read from start."""
        lo = self.start if self.lo is None else min(self.start, self.lo)
        if self.past is not None and change_at is not None and change_at >= self.verb_end:
            lo = min(lo, self.past)  # "刚才的束魂改给王五"
        return lo

    def last(self) -> int:
        """Where the words the group was read from end (its targets aside)."""
        return max(self.end, self.hi)


@dataclass
class Clause:
    """What one clause holds: its groups, or, with none, its names or card words."""

    groups: list[Group]
    names_only: list[Token]  # target tokens when the clause has no privilege word
    card_only: list[str]  # card words when the clause has neither privilege nor target
    change_at: int | None  # position of a 改为/换成 (T3 change of target)
    cancel: bool
    stray_pos: Token | None


def _family(use: str) -> frozenset[str]:
    """The privileges a word of this one's family may name (the attacks, the saves, else itself)."""
    if use in al.ATTACK_USES:
        return al.ATTACK_USES
    if use in al.SAVE_USES:
        return al.SAVE_USES
    return frozenset({use})


class _Announces:
    """Whether the count at k ("两刀") is followed by a colon or ends the clause: it announces what follows. The
    tokens after each place are summed up once, from the back, so a clause of many counts is read in linear
    time."""

    def __init__(self, tokens: list[Token]):
        n = len(tokens)
        self.next_text: list[str | None] = [None] * n  # the first token after k that is no space
        self.target_after = [False] * n  # a target written after k
        nxt: str | None = None
        target = False
        for k in range(n - 1, -1, -1):
            self.next_text[k], self.target_after[k] = nxt, target
            t = tokens[k]
            if not _is_space(t):
                nxt = t.text
            target = target or t.kind in TARGET_KINDS

    def __call__(self, k: int) -> bool:
        return self.next_text[k] is None or self.next_text[k] == ":" or not self.target_after[k]


def _is_space(t: Token) -> bool:
    return t.kind == "PUNCT" and t.text.isspace()


def _phrase_start(before: Token | None, t: Token) -> int:
    """Where the phrase of the word t starts: at a 用 / 使用 written just before it ("用巫医救王五"), else at t."""
    if before is not None and before.kind == "STOP" and before.text in _USING:
        return before.start
    return t.start


def _card_is_noun(before: Token | None, pend_targets: list[Token]) -> bool:
    """Whether a card word is a noun about someone rather than the verb of an attack ("王五这个杀手太明显了")."""
    if pend_targets:
        return True
    if before is None:
        return False
    if before.kind == "STOP":
        return before.text in _NOUN_AFTER_WORDS
    return before.kind in ("GAP", "PRON") and before.text[-1:] in _NOUN_AFTER_ENDING


# ---- a privilege word that goes on the group before it rather than opening one


def _awaits_form(cur: Group) -> bool:
    """A 变形 whose form is not written yet."""
    return cur.use == "变形" and cur.into is None


def _doubled_transform(cur: Group, t: Token) -> bool:
    """用变形牌变成…, 变成变成: a second 变形 before the form is the same verb."""
    return _awaits_form(cur) and t.value == "变形"


def _names_the_form(cur: Group, t: Token) -> bool:
    """A privilege word after a 变形 with no form yet names the form (the card that grants it)."""
    return _awaits_form(cur)


def _same_verb(cur: Group, t: Token) -> bool:
    """放火烧王五: the privilege written again before any target."""
    return not cur.targets and t.value == cur.use


def _weak_kin_verb(cur: Group, t: Token) -> bool:
    """束魂救张三, 一击必杀杀张三: a weak word of the same family after a targeted privilege, before any target."""
    return t.weak and cur.use in al.TARGETED_USES and t.value in _family(cur.use) and not cur.targets


def _stronger_kin(cur: Group, t: Token) -> bool:
    """刀张三一击必杀: a privilege of the same family after a weak word names it."""
    return cur.weak and t.value in _family(cur.use) and t.value != cur.use


def _longer_verb(cur: Group, t: Token) -> None:
    cur.end = cur.verb_end = t.end


def _take_form(cur: Group, t: Token) -> None:
    cur.into, cur.end = t, t.end


def _take_privilege(cur: Group, t: Token) -> None:
    cur.use, cur.weak, cur.end, cur.hi = t.value, False, t.end, t.end


# (when, what the word does to the group), the first that holds wins
_USE_GOES_ON: tuple[tuple[Callable[[Group, Token], bool], Callable[[Group, Token], None]], ...] = (
    (_doubled_transform, _longer_verb),
    (_names_the_form, _take_form),
    (_same_verb, _longer_verb),
    (_weak_kin_verb, _longer_verb),
    (_stronger_kin, _take_privilege),
)


class _Builder:
    """The groups of one clause as they are read: the group open now, and what waits for the next privilege word
    (targets, a card, a position, a change word or a 刚才 written before it)."""

    def __init__(self, tokens: list[Token]):
        self.tokens = tokens
        self.groups: list[Group] = []
        self.cur: Group | None = None
        self.pend_targets: list[Token] = []
        self.pend_card: str | None = None
        self.pend_pos: Token | None = None
        self.pend_card_at = -1  # where the pending card's phrase starts ("用杀手牌": at 用)
        self.pend_change: int | None = None  # a change word before any privilege ("更换束魂目标为王五")
        self.pend_past: int | None = None  # a 刚才 before the next privilege
        self.card_noun = False
        self.change_at: int | None = None
        self.cancel = False
        self.announces: _Announces | None = None

    def read(self) -> Clause:
        """Every token in turn, by its kind; then the clause."""
        last: Token | None = None  # the token before t, spaces left out
        for k, t in enumerate(self.tokens):
            before, last = last, (last if _is_space(t) else t)
            on = _ON_KIND.get(t.kind)
            if on is not None:
                on(self, k, t, before)
        # A card named after a player ("王五肯定是狼人") says who someone is, never what to do.
        no_act = not self.groups and not self.pend_targets
        cards = [t.value for t in self.tokens if t.kind == "CARD"] if no_act else []
        return Clause(self.groups, self.pend_targets, cards, self.change_at, self.cancel, self.pend_pos)

    def on_use(self, k: int, t: Token, before: Token | None) -> None:
        """A privilege word: it goes on the open group (`_USE_GOES_ON`) or opens a group of its own."""
        cur = self.cur
        if cur is not None:
            for when, goes_on in _USE_GOES_ON:
                if when(cur, t):
                    goes_on(cur, t)
                    return
        self.open(t, before)

    def open(self, t: Token, before: Token | None) -> None:
        """A group opened by the privilege word t, taking what waits for it."""
        cur = Group(t.value, t.start, weak=t.weak, hint=t.hint, card=self.pend_card, verb_end=t.end, end=t.end)
        cur.lo = min(self.waiting_starts(_phrase_start(before, t)))
        cur.past, self.pend_past, self.pend_change = self.pend_past, None, None
        self.pend_card = None
        self.groups.append(cur)
        if self.pend_targets and len(self.groups) == 1:
            cur.targets, self.pend_targets = self.pend_targets, []
        if self.pend_pos is not None:
            cur.pos, self.pend_pos = self.pend_pos, None
        self.cur = cur

    def waiting_starts(self, at: int) -> list[int]:
        """Where the words waiting for the next privilege word start (its card phrase, a position, a change word)."""
        starts = [at]
        if self.pend_card is not None:
            starts.append(self.pend_card_at)
        if self.pend_pos is not None:
            starts.append(self.pend_pos.start)
        if self.pend_change is not None:
            starts.append(self.pend_change)
        return starts

    def on_card(self, k: int, t: Token, before: Token | None) -> None:
        """A card word: the open 变形's form, the open group's card, or a card waiting for its privilege."""
        cur = self.cur
        if cur is not None and _awaits_form(cur):
            _take_form(cur, t)
        elif cur is not None and cur.card is None and t.value in (*al.CARDS_OF_USE.get(cur.use, ()), cat.AMOEBA):
            cur.card, cur.hi = t.value, max(cur.hi, t.end)
        else:
            self.pend_card = t.value
            self.pend_card_at = _phrase_start(before, t)
            self.card_noun = _card_is_noun(before, self.pend_targets)

    def default_use(self) -> str | None:
        """The privilege a card word alone means before a target ("杀手 张三" = 普通攻击), unless it is a noun."""
        if self.pend_card is None or self.pend_card == cat.AMOEBA or self.card_noun:
            return None
        return al.DEFAULT_USE.get(self.pend_card)

    def on_target(self, k: int, t: Token, before: Token | None) -> None:
        """A target: the open group's (a waiting card word may open one), else it waits for a privilege. A card word
        that is a noun, followed by words the parser does not know, is talk ("我手里就两张庶民一张保镖 AP每晚才四点 今晚
        只禁锢…"): never the card of the privilege written after them."""
        if self.cur is None and self.card_noun and t.kind == "GAP":
            self.pend_card = None
        use = self.default_use() if self.cur is None else None
        if use is not None:
            cur = Group(use, t.start, card=self.pend_card, verb_end=t.start)
            cur.lo = self.pend_card_at
            self.groups.append(cur)
            self.pend_card = None
            cur.targets, self.pend_targets = self.pend_targets, []
            self.cur = cur
        if self.cur is not None:
            self.cur.targets.append(t)
            self.cur.end = t.end
        else:
            self.pend_targets.append(t)

    def on_position(self, k: int, t: Token, before: Token | None) -> None:
        """A position (底牌 counts as the last card): the open group's, else it waits."""
        if t.kind == "BOTTOM":
            t.value = -1
        if self.cur is not None:
            self.cur.pos, self.cur.end = t, t.end
        else:
            self.pend_pos = t

    def on_repeat(self, k: int, t: Token, before: Token | None) -> None:
        """A count: "两刀赵六" before any privilege opens attacks; after one it repeats the group."""
        if t.text.endswith("刀") and self.cur is None:
            self.stabs(k, t)
        elif self.cur is not None:
            cur = self.cur
            cur.repeat, cur.end, cur.hi = t.value, t.end, max(cur.hi, t.end)

    def stabs(self, k: int, t: Token) -> None:
        """A count of stabs opens attacks, unless it announces the attacks written next."""
        self.announces = self.announces or _Announces(self.tokens)
        if self.announces(k):
            return  # "今晚两刀:杀王五,杀赵六": a count of the attacks written next, not two attacks
        cur = Group("普通攻击", t.start, weak=True, verb_end=t.end, end=t.end, repeat=t.value, counted=True)
        self.groups.append(cur)
        cur.targets, self.pend_targets = self.pend_targets, []
        self.cur = cur

    def on_alternative(self, k: int, t: Token, before: Token | None) -> None:
        """ "狙击赵六或孙八": one of several targets, never guessed."""
        if self.cur is not None and self.cur.targets:
            self.cur.alt = True

    def on_change(self, k: int, t: Token, before: Token | None) -> None:
        """改为 / 换成: a change of target (T3)."""
        self.change_at = t.start
        if self.cur is None:
            self.pend_change = t.start
        else:
            self.cur.hi = max(self.cur.hi, t.end)  # "诅咒李四,改成…": the change word makes it a change

    def on_past(self, k: int, t: Token, before: Token | None) -> None:
        self.pend_past = t.start

    def on_cancel(self, k: int, t: Token, before: Token | None) -> None:
        self.cancel = True


_ON_KIND: dict[str, Callable[[_Builder, int, Token, Token | None], None]] = {
    "USE": _Builder.on_use,
    "CARD": _Builder.on_card,
    **dict.fromkeys(TARGET_KINDS, _Builder.on_target),
    "POS": _Builder.on_position,
    "BOTTOM": _Builder.on_position,
    "REPEAT": _Builder.on_repeat,
    "COND": _Builder.on_alternative,
    "ALT": _Builder.on_alternative,
    "CHANGE": _Builder.on_change,
    "PAST": _Builder.on_past,
    "CANCEL": _Builder.on_cancel,
}


def build_clause(tokens: list[Token]) -> Clause:
    """The groups of a clause, and what it holds when it has none (names only, card words only)."""
    return _Builder(tokens).read()
