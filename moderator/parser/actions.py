"""Privileges: from the tokens of one clause to docs/scenarios.md action inputs (card, use, target, position, into).

A privilege word opens a group; names, positions and a card word around it fill the group. The card is the one in
the sender's hand that grants the privilege (an 阿米巴 when no natural card does: the engine checks its form).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from cards import catalogue as cat

from . import aliases as al
from .lexer import Token
from .names import NameBook, Resolution, similarity
from .text import normalise_word

TARGET_KINDS = ("NAME", "SEAT", "SELF", "GAP", "PRON")
_USING = frozenset({"用", "使用"})  # "用杀手牌攻击王五": part of the card phrase
MAX_REPEAT = 10
# Words between a privilege and the old target of a change that say the act was sent before (把诅咒的目标从王五换成赵六)
_OLD_ACT = re.compile(r"从|由|目标|对象|刚才|之前|原来|原本|昨")


@dataclass
class Group:
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
    groups: list[Group]
    names_only: list[Token]  # target tokens when the clause has no privilege word
    card_only: list[str]  # card words when the clause has neither privilege nor target
    change_at: int | None  # position of a 改为/换成 (T3 change of target)
    cancel: bool
    stray_pos: Token | None


def _family(use: str) -> frozenset[str]:
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
            if not (t.kind == "PUNCT" and t.text.isspace()):
                nxt = t.text
            target = target or t.kind in TARGET_KINDS

    def __call__(self, k: int) -> bool:
        return self.next_text[k] is None or self.next_text[k] == ":" or not self.target_after[k]


def build(tokens: list[Token]) -> Clause:
    groups: list[Group] = []
    cur: Group | None = None
    pend_targets: list[Token] = []
    pend_card: str | None = None
    pend_pos: Token | None = None
    pend_card_at = -1  # where the pending card's phrase starts ("用杀手牌": at 用)
    pend_change: int | None = None  # a change word before any privilege ("更换束魂目标为王五")
    pend_past: int | None = None  # a 刚才 before the next privilege
    card_noun = False
    change_at = None
    cancel = False
    announces: _Announces | None = None
    last: Token | None = None  # the token before t, spaces left out
    for k, t in enumerate(tokens):
        before, last = last, (last if t.kind == "PUNCT" and t.text.isspace() else t)
        if t.kind == "USE":
            if cur and cur.use == "变形" and cur.into is None and t.value == "变形":
                cur.end = cur.verb_end = t.end  # 用变形牌变成…, 变成变成 (a doubled verb)
                continue
            if cur and cur.use == "变形" and cur.into is None:
                cur.into, cur.end = t, t.end
                continue
            if cur and not cur.targets and t.value == cur.use:
                cur.end = cur.verb_end = t.end  # 放火烧王五
                continue
            if cur and t.weak and cur.use in al.TARGETED_USES and t.value in _family(cur.use) and not cur.targets:
                cur.end = cur.verb_end = t.end  # 束魂救张三, 一击必杀杀张三
                continue
            if cur and cur.weak and t.value in _family(cur.use) and t.value != cur.use:
                cur.use, cur.weak, cur.end, cur.hi = t.value, False, t.end, t.end  # 刀张三一击必杀
                continue
            cur = Group(t.value, t.start, weak=t.weak, hint=t.hint, card=pend_card, verb_end=t.end, end=t.end)
            used = before is not None and before.kind == "STOP" and before.text in _USING  # "用巫医救王五"
            cur.lo = min(
                before.start if used and before is not None else t.start,
                pend_card_at if pend_card is not None else t.start,
                pend_pos.start if pend_pos is not None else t.start,
                pend_change if pend_change is not None else t.start,
            )
            cur.past, pend_past, pend_change = pend_past, None, None
            pend_card = None
            groups.append(cur)
            if pend_targets and len(groups) == 1:
                cur.targets, pend_targets = pend_targets, []
            if pend_pos:
                cur.pos, pend_pos = pend_pos, None
        elif t.kind == "CARD":
            if cur and cur.use == "变形" and cur.into is None:
                cur.into, cur.end = t, t.end
            elif cur and cur.card is None and t.value in (*al.CARDS_OF_USE.get(cur.use, ()), cat.AMOEBA):
                cur.card, cur.hi = t.value, max(cur.hi, t.end)
            else:
                pend_card = t.value
                used = before is not None and before.kind == "STOP" and before.text in _USING
                pend_card_at = before.start if used and before is not None else t.start
                # "王五这个杀手太明显了,明天票他": a card word after a name, or after 这个/是/的, is a noun about
                # someone, never the verb of an attack
                card_noun = bool(pend_targets) or bool(
                    before is not None
                    and (
                        (before.kind == "STOP" and before.text in ("个", "是", "的", "这张", "那张", "一个"))
                        or (before.kind in ("GAP", "PRON") and before.text[-1:] in "这那个的是")
                    )
                )
        elif t.kind in TARGET_KINDS:
            if cur is None and pend_card in al.DEFAULT_USE and pend_card != cat.AMOEBA and not card_noun:
                cur = Group(al.DEFAULT_USE[pend_card], t.start, card=pend_card, verb_end=t.start)
                cur.lo = pend_card_at
                groups.append(cur)
                pend_card = None
                cur.targets, pend_targets = pend_targets, []
            (cur.targets if cur else pend_targets).append(t)
            if cur:
                cur.end = t.end
        elif t.kind in ("POS", "BOTTOM"):
            if t.kind == "BOTTOM":
                t.value = -1
            if cur:
                cur.pos, cur.end = t, t.end
            else:
                pend_pos = t
        elif t.kind == "REPEAT" and t.text.endswith("刀") and cur is None:
            announces = announces or _Announces(tokens)
            if announces(k):
                continue  # "今晚两刀:杀王五,杀赵六": a count of the attacks written next, not two attacks
            cur = Group("普通攻击", t.start, weak=True, verb_end=t.end, end=t.end, repeat=t.value, counted=True)
            groups.append(cur)
            cur.targets, pend_targets = pend_targets, []
        elif t.kind == "REPEAT" and cur:
            cur.repeat, cur.end, cur.hi = t.value, t.end, max(cur.hi, t.end)
        elif t.kind in ("COND", "ALT") and cur and cur.targets:
            cur.alt = True
        elif t.kind == "CHANGE":
            change_at = t.start
            if cur is None:
                pend_change = t.start
            else:
                cur.hi = max(cur.hi, t.end)  # "诅咒李四,改成…": the change word makes it a change
        elif t.kind == "PAST":
            pend_past = t.start
        elif t.kind == "CANCEL":
            cancel = True
    # A card named after a player ("王五肯定是狼人") says who someone is, never what to do.
    cards = [t.value for t in tokens if t.kind == "CARD"] if not groups and not pend_targets else []
    return Clause(groups, pend_targets, cards, change_at, cancel, pend_pos)


# ---------------------------------------------------------------------------------------------- resolution


def _split(reason: str | tuple[str, list[str]]) -> tuple[str, list[str]]:
    return reason if isinstance(reason, tuple) else (reason, [])


@dataclass
class GroupReading:
    """What one privilege word and the words around it read as: inputs, or refusals with their reasons. Whether an
    input is allowed now is the rules engine's verdict, not this."""

    inputs: list[dict]  # each with "_span": (start, end) in the normalised text
    # reasons, or (reason, candidates), or (reason, candidates, the input a chosen candidate would give, its player
    # left as None); the caller adds the fragment
    refusals: list[str | tuple[str, list[str]] | tuple[str, list[str], dict]]
    attack: bool = False  # produced at least one attack (carries a 杀人宣言, N-kill)
    tail: int | None = None  # start of unresolved text after an attack's target: manifesto material
    near_miss: bool = False  # an unresolved name that looks like a misspelt player


class Resolver:
    def __init__(self, book: NameBook, hand: Sequence[str], hand_size: int, display):
        self.book = book
        self.hand = tuple(hand)
        self.hand_size = hand_size
        self.display = display  # (start, end) -> original text
        self.mentions: list[tuple[int, str]] = []  # (position, player) of every name written in the message
        self._latest: dict[str, list[int]] | None = None

    def candidates_before(self, pos: int) -> list[str]:
        """The players named before `pos`, the most recent first (whom a 他 may mean), the sender left out."""
        if self._latest is None:  # each player's latest mentions, sorted once (linear in the message)
            self._latest = {}
            for p, n in sorted(self.mentions):
                if n != self.book.sender:
                    self._latest.setdefault(n, []).append(p)
        found = []
        for name, places in self._latest.items():
            k = bisect.bisect_left(places, pos)
            if k:
                found.append((places[k - 1], name))
        return [n for _, n in sorted(found, reverse=True)]

    def named(self) -> set[str]:
        """Every player the message names, the sender left out."""
        return {n for _, n in self.mentions if n != self.book.sender}

    # ---- which card
    def card_for(self, g: Group, use: str) -> tuple[str | None, str]:
        """(card, "") or (None, the refusal's reason)."""
        granting = al.CARDS_OF_USE.get(use, ())
        held = [c for c in dict.fromkeys(self.hand)]
        wanted = g.card or g.hint
        if wanted:
            if wanted not in granting and wanted != cat.AMOEBA:
                return None, f"{wanted}牌没有“{use}”这个特权;{use}属于{'或'.join(granting)}牌"
            if wanted in held:
                return wanted, ""
            if cat.AMOEBA in held:
                return cat.AMOEBA, ""
            return None, f"你手里没有{wanted}牌"
        natural = [c for c in granting if c in held]
        if len(natural) == 1:
            return natural[0], ""
        if len(natural) > 1:
            return None, f"“{use}”可能是{'牌也可能是'.join(natural)}牌;请写明用哪张牌(如“用{natural[0]}牌{use}”)"
        if cat.AMOEBA in held:
            return cat.AMOEBA, ""
        return None, f"你手里没有{'或'.join(granting)}牌,不能用{use}"

    def use_for(self, g: Group) -> tuple[str | None, str]:
        """(privilege, "") or (None, the refusal's reason)."""
        use = g.use
        card = g.card or g.hint
        if g.weak and use in al.ATTACK_USES and card == cat.SNIPER:
            use = "普通狙击"
        if g.weak and use in al.ATTACK_USES and g.pos is not None and card is None and cat.SNIPER in self.hand:
            use = "普通狙击"  # 打王五从后往前数第三张: only a sniper's shot has a position
        if g.weak and use in al.SAVE_USES:
            by_card = {cat.BINDER: "束魂", cat.HEALER: "治疗", cat.DOOM_PARDON: "特赦"}
            if card in by_card:
                use = by_card[card]
            else:
                held = [c for c in (cat.HEALER, cat.BINDER) if c in self.hand]
                if len(held) == 2:
                    return None, "“救”可能是治疗(巫医牌)也可能是束魂(束魂牌);请写明"
                if not held:
                    return None, "你手里没有巫医或束魂牌,不能救人(可写“治疗 某某”“束魂 某某”)"
                use = by_card[held[0]]
        if g.pos is not None and use == "普通狙击":
            use = "瞄准狙击"
        if g.weak and use in al.ATTACK_USES and g.pos is not None and use != "瞄准狙击":
            return None, "只有瞄准狙击能指定第几张牌(如“瞄准狙击 某某 倒数第2张”)"
        return use, ""

    def resolve_target(self, t: Token) -> Resolution:
        if t.kind == "NAME":
            return t.value
        if t.kind == "SEAT":
            return self.book.seat(t.value)
        if t.kind == "SELF":
            return Resolution(self.book.sender, "self")
        return self.book.resolve(t.text)

    # ---- one group
    def read_group(self, g: Group, change_at: int | None) -> GroupReading:
        out = GroupReading([], [])
        use, why = self.use_for(g)
        if use is None:
            out.refusals.append(why)
            return out
        card, why = self.card_for(g, use)
        if card is None:
            out.refusals.append(why)
            return out
        base: dict = {"card": card, "use": use}
        if not 1 <= g.repeat <= MAX_REPEAT:
            out.refusals.append(f"一次最多重复{MAX_REPEAT}次;请分开写")
            return out
        targets = g.targets
        base_change = change_at is not None
        if change_at is not None:
            later = [t for t in targets if t.start > change_at]
            old = [t for t in targets if g.verb_end <= t.start < change_at and t.kind != "GAP"]
            if later and old and not _OLD_ACT.search(self.display(g.verb_end, old[0].start) or ""):
                base_change = False  # 治疗A 等下 改成B: the act and its correction, both in this message
            targets = later or targets
        if use == "变形":
            after = self.display(g.verb_end, g.verb_end + 1)
            if (
                g.into is not None
                and g.into.kind == "CARD"
                and g.into.value == cat.AMOEBA
                and after in ("后", "後", "过", "過", "了")
            ):
                return out  # "变形后的阿米巴": talk about the card, not an order
            return self._transform(g, base, out)
        if g.counted and not any(t.kind != "GAP" or self.looks_like_name(t, self.resolve_target(t)) for t in targets):
            return out  # "补一刀": a count of stabs with nobody named is talk, not an order
        unsure = self._unsure(g, base, base_change)
        pronoun = next((t for t in targets if t.kind == "PRON"), None)
        if pronoun is not None and use not in al.SELF_USES:
            who = self.candidates_before(pronoun.start)
            said = self.display(pronoun.start, pronoun.end) or pronoun.text
            named = [t for t in targets if t.kind != "PRON"]
            aimed_badly = use == "瞄准狙击" and self._position_problem(g.pos) is not None
            if (
                len(who) == 1
                and self.named() == set(who)
                and not named
                and g.repeat == 1
                and not g.alt
                and not aimed_badly
            ):
                # "王五昨天一直针对我,很可疑。今晚禁锢他。": the only player the message names; the preview says
                # whom the pronoun was read as
                item = dict(base, target=who[0], pronoun=said)
                item["_span"] = (min(g.first(change_at), pronoun.start), max(g.last(), pronoun.end))
                if use == "瞄准狙击" and g.pos is not None:  # (not aimed_badly: it has a position)
                    item["position"] = g.pos.value
                if base_change:
                    item["change"] = True
                out.inputs.append(item)
                out.attack = use in al.ATTACK_USES
                return out
            if who:
                why = f"“{said}”指的是谁?前面提到的是:{'、'.join(who)};请写名字(如“{use} {who[0]}”),或由天神确认"
            else:
                why = f"“{said}”指的是谁?请写名字(如“{use} 某某”)"
            out.refusals.append(unsure(why, who))
            return out
        if g.pos is not None and use != "瞄准狙击":
            out.refusals.append(f"只有瞄准狙击能指定第几张牌;“{use}”不用写位置")
            return out
        if use == "瞄准狙击":
            bad_position = self._position_problem(g.pos)
            if bad_position:
                out.refusals.append(bad_position)
                return out
        if use in al.SELF_USES:
            others = [r for r in map(self.resolve_target, (t for t in targets if t.kind != "GAP")) if r.name]
            if any(r.name != self.book.sender for r in others):
                out.refusals.append(f"{use}只能对自己使用,不用写目标")
                return out
            out.inputs.append(base | ({"change": True} if base_change else {}) | {"_span": (g.first(), g.last())})
            return out
        resolved: list[tuple[Token, Resolution]] = []
        for t in targets:
            r = self.resolve_target(t)
            if not r.name and resolved and any(x.name for _, x in resolved) and not self.looks_like_name(t, r):
                if use in al.ATTACK_USES:
                    ends = [u.end for u, x in resolved if x.name]
                    ends += [g.pos.end] if g.pos is not None and g.pos.end <= t.start else []
                    out.tail = max(ends)  # 杀人宣言 straight after the attack (N-kill)
                    break
                continue  # chatter after the target
            resolved.append((t, r))
        good, seen = [], set()
        for t, r in resolved:  # "治疗自己(也就是钱七)": one person written twice is one target
            if r.name and r.name not in seen:
                seen.add(r.name)
                good.append((t, r))
        bad = [(t, r) for t, r in resolved if not r.name]
        if g.alt and len(good) > 1:
            who = [r.name for _, r in good if r.name]
            out.refusals.append(unsure(f"写了{'或'.join(who)},{use}要写明对其中哪一个用;不会替你选", who))
            return out
        if not good:
            if not bad:
                out.refusals.append(f"{use}要写明对谁用(如“{use} 某某”)")
                return out
            after = [(t, r) for t, r in bad if t.start >= g.verb_end] or bad
            t, r = after[0]
            out.refusals.append(unsure(*_split(self.name_problem(t, r))))
            out.near_miss = any(self.looks_like_name(t, r) for t, r in bad)
            return out
        for t, r in good:
            item = dict(base, target=r.name)
            # (a card or count written after the targets goes with the last one's span)
            hi = g.hi if t is good[-1][0] else 0
            item["_span"] = (
                min(g.first(change_at), t.start),
                max(g.verb_end, t.end, g.pos.end if g.pos is not None else 0, hi),
            )
            if use == "瞄准狙击" and g.pos is not None:  # (its position was checked above)
                item["position"] = g.pos.value
            if base_change:
                item["change"] = True
            out.inputs.extend(dict(item) for _ in range(g.repeat))
        out.attack = use in al.ATTACK_USES
        for t, r in bad:
            if t.start >= g.verb_end:  # chatter before the privilege word is ignored
                out.refusals.append(unsure(*_split(self.name_problem(t, r))))
        return out

    def _unsure(self, g: Group, base: dict, change: bool):
        """A refusal about whom the privilege is for: with its candidates, it also carries the input that choosing
        one of them gives (the 天神's one-click choice) — unless the group could not give one input
        (repeated, or an aimed shot without a valid position)."""
        partial: dict | None = dict(base, target=None)
        if base["use"] == "瞄准狙击":
            pos = g.pos
            partial = (
                None if pos is None or self._position_problem(pos) else dict(base, target=None, position=pos.value)
            )
        if partial is not None and change:
            partial["change"] = True
        if g.repeat != 1:
            partial = None

        def refusal(why: str, candidates: list[str] | tuple[str, ...] = ()):
            if not candidates:
                return why
            return (why, list(candidates), dict(partial)) if partial else (why, list(candidates))

        return refusal

    def looks_like_name(self, t: Token, r: Resolution) -> bool:
        """An unresolved target that is probably a misspelt player rather than chatter or a manifesto."""
        if t.kind != "GAP" or r.how == "ambiguous":
            return True
        frag = normalise_word(t.text)
        return any(similarity(frag, key) >= 0.34 for key in self.book.norm)

    def name_problem(self, t: Token, r: Resolution) -> str | tuple[str, list[str]]:
        if t.kind == "SEAT":
            return f"没有{t.value}号玩家;座位是1到{len(self.book.players)}号"
        why = self.book.refusal(self.display(t.start, t.end) or t.text, r)
        return (why, list(r.candidates)) if r.candidates else why

    def _position_problem(self, pos: Token | None) -> str | None:
        if pos is None:
            return "瞄准狙击要写明打第几张(如“第2张”“倒数第2张”)"
        n = pos.value
        if pos.hint == "unclear":
            return f"“{pos.text}”看不出是从前往后数还是从后往前数;请写“第{abs(n)}张”或“倒数第{abs(n)}张”"
        if n == 0:
            return "没有第0张牌;位置从第1张(或倒数第1张)数起"
        if abs(n) > self.hand_size:
            return f"位置{'倒数' if n < 0 else ''}第{abs(n)}张超出了手牌数:每人最多{self.hand_size}张牌"
        return None

    def _transform(self, g: Group, base: dict, out: GroupReading) -> GroupReading:
        if g.into is None:
            out.refusals.append("变形要写明变成哪种牌:" + "、".join(cat.AMOEBA_FORMS))
            return out
        tok = g.into
        forms = (tok.value,) if tok.kind == "CARD" else al.CARDS_OF_USE.get(tok.value, ())
        forms = tuple(f for f in forms if f in cat.AMOEBA_FORMS)
        if len(forms) != 1:
            if len(forms) > 1:
                out.refusals.append(f"“{tok.text}”可能是{'或'.join(forms)};请写明变成哪种牌")
            else:
                out.refusals.append(f"阿米巴不能变成{tok.text};可变成:" + "、".join(cat.AMOEBA_FORMS))
            return out
        if base["card"] != cat.AMOEBA:
            out.refusals.append("你手里没有阿米巴牌,不能变形")
            return out
        out.inputs.append({"card": cat.AMOEBA, "use": "变形", "into": forms[0], "_span": (g.first(), g.last())})
        return out
