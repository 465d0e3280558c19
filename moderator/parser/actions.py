"""Privileges: from the groups of one clause (`groups.build_clause`) to docs/scenarios.md action inputs (card, use, target,
position, into).

Each group is read in stages: which privilege, which card, whom (a pronoun, the sender, the players written), then
the inputs and refusals. The card is the one in the sender's hand that grants the privilege (an 阿米巴 when no
natural card does: the engine checks its form).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cards import catalogue as cat

from . import aliases as al
from .groups import Clause, Group, build_clause
from .lexer import Token
from .names import NameBook, Resolution, similarity
from .text import normalise_word

MAX_REPEAT = 10
# Words between a privilege and the old target of a change that say the act was sent before (把诅咒的目标从王五换成赵六)
_OLD_ACT = re.compile(r"从|由|目标|对象|刚才|之前|原来|原本|昨")

__all__ = ["Clause", "Group", "GroupReading", "Resolver", "build_clause"]


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


_SHOT, _AIMED = "普通狙击", "瞄准狙击"
_SAVE_OF_CARD = {cat.BINDER: "束魂", cat.HEALER: "治疗", cat.DOOM_PARDON: "特赦"}  # which save a weak 救 is
_AFTER_FORM = ("后", "後", "过", "過", "了")  # "变形后的阿米巴": a 变形 written before these is talk of the card


@dataclass
class _OneGroup:
    """One group as it is read: its card and privilege (`base`), the targets it is read for, whether it changes an
    earlier message's act, what it has given so far, and how a refusal about whom it is for is worded."""

    g: Group
    change_at: int | None
    base: dict
    targets: list[Token]
    change: bool
    out: GroupReading
    unsure: Callable[..., Any]

    @property
    def use(self) -> str:
        return self.base["use"]


def _once_each(resolved: list[tuple[Token, Resolution]]) -> list[tuple[Token, Resolution]]:
    """The targets that name a player, each player once ("治疗自己(也就是钱七)": one person written twice)."""
    good, seen = [], set()
    for t, x in resolved:
        if x.name and x.name not in seen:
            seen.add(x.name)
            good.append((t, x))
    return good


def _manifesto_start(g: Group, resolved: list[tuple[Token, Resolution]], t: Token) -> int:
    """Where the 杀人宣言 written straight after an attack's targets starts (N-kill): after the last player and a
    position written before the chatter t."""
    ends = [u.end for u, x in resolved if x.name]
    ends += [g.pos.end] if g.pos is not None and g.pos.end <= t.start else []
    return max(ends)


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
            return self._written_card(wanted, use, granting, held)
        natural = [c for c in granting if c in held]
        if len(natural) == 1:
            return natural[0], ""
        if len(natural) > 1:
            return None, f"“{use}”可能是{'牌也可能是'.join(natural)}牌;请写明用哪张牌(如“用{natural[0]}牌{use}”)"
        if cat.AMOEBA in held:
            return cat.AMOEBA, ""
        return None, f"你手里没有{'或'.join(granting)}牌,不能用{use}"

    @staticmethod
    def _written_card(wanted: str, use: str, granting: tuple[str, ...], held: list[str]) -> tuple[str | None, str]:
        """The card the text names or implies, if it grants the privilege and the hand holds it (or an 阿米巴)."""
        if wanted not in granting and wanted != cat.AMOEBA:
            return None, f"{wanted}牌没有“{use}”这个特权;{use}属于{'或'.join(granting)}牌"
        if wanted in held:
            return wanted, ""
        if cat.AMOEBA in held:
            return cat.AMOEBA, ""
        return None, f"你手里没有{wanted}牌"

    def use_for(self, g: Group) -> tuple[str | None, str]:
        """(privilege, "") or (None, the refusal's reason)."""
        card = g.card or g.hint
        use = self._shot(g, card)
        if g.weak and use in al.SAVE_USES:
            saved, why = self._save(card)
            if saved is None:
                return None, why
            use = saved
        if g.pos is not None and use == _SHOT:
            use = _AIMED
        if g.weak and use in al.ATTACK_USES and g.pos is not None and use != _AIMED:
            return None, "只有瞄准狙击能指定第几张牌(如“瞄准狙击 某某 倒数第2张”)"
        return use, ""

    def _shot(self, g: Group, card: str | None) -> str:
        """A weak attack word is a sniper's shot when the sniper card is written, or when it has a position and the
        sender holds a sniper (打王五从后往前数第三张: only a sniper's shot has a position)."""
        if not (g.weak and g.use in al.ATTACK_USES):
            return g.use
        if card == cat.SNIPER or (g.pos is not None and card is None and cat.SNIPER in self.hand):
            return _SHOT
        return g.use

    def _save(self, card: str | None) -> tuple[str | None, str]:
        """Which save a weak 救 is: by the card written, else by the one saving card the hand holds."""
        if card in _SAVE_OF_CARD:
            return _SAVE_OF_CARD[card], ""
        held = [c for c in (cat.HEALER, cat.BINDER) if c in self.hand]
        if len(held) == 2:
            return None, "“救”可能是治疗(巫医牌)也可能是束魂(束魂牌);请写明"
        if not held:
            return None, "你手里没有巫医或束魂牌,不能救人(可写“治疗 某某”“束魂 某某”)"
        return _SAVE_OF_CARD[held[0]], ""

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
        """What one group reads as: its privilege, card and count first; then, by what the privilege takes, a form
        (变形), a pronoun, a position, the sender, or the players written."""
        out = GroupReading([], [])
        base, why = self._base(g)
        if base is None:
            out.refusals.append(why)
            return out
        targets, change = self._changed_targets(g, change_at)
        if base["use"] == "变形":
            return out if self._talk_of_a_form(g) else self._transform(g, base, out)
        if g.counted and not any(self._names_someone(t) for t in targets):
            return out  # "补一刀": a count of stabs with nobody named is talk, not an order
        r = _OneGroup(g, change_at, base, targets, change, out, self._unsure(g, base, change))
        for stage in (self._pronoun, self._refused_position, self._self_use):
            if stage(r):
                return out
        self._players(r)
        return out

    def _base(self, g: Group) -> tuple[dict | None, str]:
        """The group's card and privilege ({"card", "use"}), or the reason it has none."""
        use, why = self.use_for(g)
        if use is None:
            return None, why
        card, why = self.card_for(g, use)
        if card is None:
            return None, why
        if not 1 <= g.repeat <= MAX_REPEAT:
            return None, f"一次最多重复{MAX_REPEAT}次;请分开写"
        return {"card": card, "use": use}, ""

    def _changed_targets(self, g: Group, change_at: int | None) -> tuple[list[Token], bool]:
        """The targets a group is read for, and whether it changes an earlier message's act (T3): after a 改为 only
        the new targets count; "治疗A 等下 改成B" is an act and its correction, both in this message."""
        if change_at is None:
            return g.targets, False
        later = [t for t in g.targets if t.start > change_at]
        old = [t for t in g.targets if g.verb_end <= t.start < change_at and t.kind != "GAP"]
        in_this_message = later and old and not _OLD_ACT.search(self.display(g.verb_end, old[0].start) or "")
        return later or g.targets, not in_this_message

    def _talk_of_a_form(self, g: Group) -> bool:
        """ "变形后的阿米巴": talk about the card, not an order."""
        after = self.display(g.verb_end, g.verb_end + 1)
        return g.into is not None and g.into.kind == "CARD" and g.into.value == cat.AMOEBA and after in _AFTER_FORM

    def _names_someone(self, t: Token) -> bool:
        """A target that is a player's name, a seat, the sender, or a gap that may be a misspelt player."""
        return t.kind != "GAP" or self.looks_like_name(t, self.resolve_target(t))

    def _input(self, r: _OneGroup, span: tuple[int, int], **said: str | None) -> dict:
        """One input of the group: its card and privilege, what was said (target, pronoun), its words' span, an aimed
        shot's position (checked before) and whether it changes an earlier act."""
        item = dict(r.base, **said)
        item["_span"] = span
        if r.use == _AIMED and r.g.pos is not None:
            item["position"] = r.g.pos.value
        if r.change:
            item["change"] = True
        return item

    def _pronoun(self, r: _OneGroup) -> bool:
        """A 他 / 她 as the target of an act on others: the only player the message names, else a refusal naming
        the players it may mean."""
        pronoun = next((t for t in r.targets if t.kind == "PRON"), None)
        if pronoun is None or r.use in al.SELF_USES:
            return False
        who = self.candidates_before(pronoun.start)
        said = self.display(pronoun.start, pronoun.end) or pronoun.text
        if self._only_one_meant(r, who):
            # "王五昨天一直针对我,很可疑。今晚禁锢他。": the only player the message names; the preview says
            # whom the pronoun was read as
            span = (min(r.g.first(r.change_at), pronoun.start), max(r.g.last(), pronoun.end))
            r.out.inputs.append(self._input(r, span, target=who[0], pronoun=said))
            r.out.attack = r.use in al.ATTACK_USES
            return True
        if who:
            why = f"“{said}”指的是谁?前面提到的是:{'、'.join(who)};请写名字(如“{r.use} {who[0]}”),或由天神确认"
        else:
            why = f"“{said}”指的是谁?请写名字(如“{r.use} 某某”)"
        r.out.refusals.append(r.unsure(why, who))
        return True

    def _only_one_meant(self, r: _OneGroup, who: list[str]) -> bool:
        """The pronoun can mean one player only: the message names no one else, the group names no one, and it
        gives one input (not repeated, no alternative, an aimed shot with a valid position)."""
        named = [t for t in r.targets if t.kind != "PRON"]
        aimed_badly = r.use == _AIMED and self._position_problem(r.g.pos) is not None
        one_act = r.g.repeat == 1 and not r.g.alt and not aimed_badly
        return len(who) == 1 and self.named() == set(who) and not named and one_act

    def _refused_position(self, r: _OneGroup) -> bool:
        """Only an aimed shot has a position, and it needs a valid one."""
        why: str | None = None
        if r.g.pos is not None and r.use != _AIMED:
            why = f"只有瞄准狙击能指定第几张牌;“{r.use}”不用写位置"
        elif r.use == _AIMED:
            why = self._position_problem(r.g.pos)
        if why:
            r.out.refusals.append(why)
            return True
        return False

    def _self_use(self, r: _OneGroup) -> bool:
        """A privilege on the sender only: one input, refused when another player is written as its target."""
        if r.use not in al.SELF_USES:
            return False
        others = [x for x in map(self.resolve_target, (t for t in r.targets if t.kind != "GAP")) if x.name]
        if any(x.name != self.book.sender for x in others):
            r.out.refusals.append(f"{r.use}只能对自己使用,不用写目标")
            return True
        r.out.inputs.append(r.base | ({"change": True} if r.change else {}) | {"_span": (r.g.first(), r.g.last())})
        return True

    def _players(self, r: _OneGroup) -> None:
        """The players written as targets: an input for each (as many as the count says), a refusal for each name
        after the privilege word that is no player; or one refusal when it is unclear whom the act is for."""
        g, out = r.g, r.out
        resolved = self._resolved(r)
        good = _once_each(resolved)
        bad = [(t, x) for t, x in resolved if not x.name]
        if g.alt and len(good) > 1:
            who = [x.name for _, x in good if x.name]
            out.refusals.append(r.unsure(f"写了{'或'.join(who)},{r.use}要写明对其中哪一个用;不会替你选", who))
            return
        if not good:
            self._nobody(r, bad)
            return
        for t, x in good:
            # (a card or count written after the targets goes with the last one's span)
            hi = g.hi if t is good[-1][0] else 0
            span = (
                min(g.first(r.change_at), t.start),
                max(g.verb_end, t.end, g.pos.end if g.pos is not None else 0, hi),
            )
            item = self._input(r, span, target=x.name)
            out.inputs.extend(dict(item) for _ in range(g.repeat))
        out.attack = r.use in al.ATTACK_USES
        for t, x in bad:
            if t.start >= g.verb_end:  # chatter before the privilege word is ignored
                out.refusals.append(r.unsure(*_split(self.name_problem(t, x))))

    def _resolved(self, r: _OneGroup) -> list[tuple[Token, Resolution]]:
        """Each target with whom it names, up to the chatter after the last player: after an attack, the start of
        that chatter is the 杀人宣言 (N-kill)."""
        resolved: list[tuple[Token, Resolution]] = []
        for t in r.targets:
            x = self.resolve_target(t)
            if not x.name and any(y.name for _, y in resolved) and not self.looks_like_name(t, x):
                if r.use in al.ATTACK_USES:
                    r.out.tail = _manifesto_start(r.g, resolved, t)
                    break
                continue  # chatter after the target
            resolved.append((t, x))
        return resolved

    def _nobody(self, r: _OneGroup, bad: list[tuple[Token, Resolution]]) -> None:
        """No player among the targets: ask whom the act is for, naming the first name after the privilege word."""
        if not bad:
            r.out.refusals.append(f"{r.use}要写明对谁用(如“{r.use} 某某”)")
            return
        after = [(t, x) for t, x in bad if t.start >= r.g.verb_end] or bad
        t, x = after[0]
        r.out.refusals.append(r.unsure(*_split(self.name_problem(t, x))))
        r.out.near_miss = any(self.looks_like_name(t, x) for t, x in bad)

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
