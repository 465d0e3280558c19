"""Messages composed from typed parts with their truth known: player mentions, privilege words, positions, vote words
and cue words, each cue with its known effect on what the message means (the rulings of PARSER.md).

A message is a list of `Piece`s joined by punctuation. A piece is one clause, or a few words bound together (an act
and the cue that repairs it), and carries the inputs it holds:

- an act: a privilege word (the catalogue's use names; the hand decides the card), its player (exact, 繁體, one
  character off a three-character name, or 他 with one antecedent in the same piece), a position (倒数第N张 / 第N张 in
  Arabic, full-width or Chinese numerals), or a vote word (投 / 票给 / 改投). An act on a name one character off a
  three-character name is no input: it is refused naming the player it is near (docs/parser.md, "a name one
  character off a 3-character name"), votes and PMs alike;
- a cue on an act, whose effect on the truth is known: negation (不 / 别 / 没: nothing), cancel (算了, 这条删掉,
  不X了, 还是不要了: nothing, or the act that replaces it), retraction (撤回, [s]…[/s]: nothing), counterfactual
  (要不是…就…了, 早知道…: nothing), correction (不对,是Y / 啊不对打错了,是Y: the corrected act), change frames
  (由X改为Y, 从X挪到Y: the act or change to Y), reason (因为…: the act as it is);
- words with no act of the sender's in the present: a condition (如果…就), a past account or a report (昨晚…,
  他说他要…), a quote ([quote]…[/quote], "> " lines), a question, words to the 天神, a tally of others' votes,
  chatter naming players.

Each cue's words are in FORMS. A message is a PM by night or by day (read with parse_pm) or a vote post in the
thread (parse_vote). `compose(rnd)` draws one; `score` compares what the parser reads with its truth. Everything is
drawn from the `random.Random` passed in, so a seed gives the same messages on every machine
(`python -m bench.parser --generated N --seed S`). The properties of tests/parser/test_properties.py draw from the
same parts."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from moderator.parser import parse_pm, parse_vote
from tests.world import PLAYERS

# Five of the world's players, a compound surname and a two-character name (each has a 繁體 and a near spelling).
MIXED_NAMES = (*PLAYERS[:5], "欧阳锋", "阿飞")
SENDER = "钱七"
OTHERS = tuple(p for p in MIXED_NAMES if p != SENDER)
# The 繁體 spelling of a player where it differs, and a spelling one character off that is near only that player: a
# three-character name one character off is refused naming that player, never read as them (docs/parser.md).
TRADITIONAL = {"张三": "張三", "赵六": "趙六", "阿飞": "阿飛", "欧阳锋": "歐陽鋒"}
FUZZY = {"欧阳锋": "欧阳峰"}
IGNORED = ("manifesto", "pronoun", "span", "manifesto_spans", "correction", "inferred_use")


def key(item: dict) -> str:
    """An input as compared: its meaning, without the preview's notes and spans."""
    return json.dumps({k: v for k, v in sorted(item.items()) if k not in IGNORED}, ensure_ascii=False)


# ------------------------------------------------------------------------------------------------ mentions
@dataclass(frozen=True)
class Mention:
    player: str  # the canonical name the mention means
    text: str  # as written
    pronoun: bool = False  # 他: its antecedent is written just before, in the same piece
    near: bool = False  # one character off a three-character name: refused, naming the player


def mention(rnd: random.Random, player: str, *, plain: bool = False) -> Mention:
    """The player as a player may write them: mostly exact, else 繁體 or one character off where only this player
    is that near."""
    if plain:
        return Mention(player, player)
    roll = rnd.random()
    if roll < 0.12 and player in TRADITIONAL:
        return Mention(player, TRADITIONAL[player])
    if roll < 0.18 and player in FUZZY:
        return Mention(player, FUZZY[player], near=True)
    return Mention(player, player)


# ------------------------------------------------------------------------------------------------ privileges
@dataclass(frozen=True)
class Use:
    use: str  # the catalogue's name of the privilege
    cards: tuple[str, ...]  # the cards that grant it (the hand holds one of them)
    spellings: tuple[str, ...]  # how it is written; {x} the player, {p} the position
    target: bool = True
    aimed: bool = False  # takes a position


USES = (
    Use("束魂", ("束魂",), ("束魂{x}", "束魂 {x}", "用束魂牌束魂{x}", "今晚束魂{x}")),
    Use("治疗", ("巫医",), ("治疗{x}", "用巫医治疗{x}", "今晚治疗{x}")),
    Use("禁锢", ("禁锢/反狙击",), ("禁锢{x}", "用禁锢牌禁锢{x}")),
    Use("诅咒", ("诅咒/庇佑",), ("诅咒{x}", "用诅咒/庇佑牌诅咒{x}")),
    Use("庇佑", ("诅咒/庇佑",), ("庇佑{x}",)),
    Use("普通攻击", ("杀手", "狼人"), ("普通攻击{x}", "攻击{x}")),
    Use("一击必杀", ("杀手", "狼人"), ("一击必杀{x}",)),
    Use("普通狙击", ("狙击手",), ("普通狙击{x}", "狙击{x}")),
    Use("瞄准狙击", ("狙击手",), ("瞄准狙击{x}{p}", "瞄准狙击{x},{p}"), aimed=True),
    Use("绝杀", ("绝杀/特赦",), ("绝杀{x}",)),
    Use("特赦", ("绝杀/特赦",), ("特赦{x}",)),
    Use("恶毒诅咒", ("诅咒/庇佑",), ("恶毒诅咒{x}",)),
    Use("虔诚庇佑", ("诅咒/庇佑",), ("虔诚庇佑{x}",)),
    Use("纵火", ("纵火/圣人",), ("纵火{x}",)),
    Use("防弹衣", ("防弹衣/狼毒",), ("穿防弹衣", "用防弹衣"), target=False),
    Use("狼毒", ("防弹衣/狼毒",), ("用狼毒",), target=False),
    Use("反狙击", ("禁锢/反狙击",), ("开反狙击", "用反狙击"), target=False),
    Use("圣人", ("纵火/圣人",), ("开圣人",), target=False),
)
HAND_CARDS = (
    "束魂", "巫医", "禁锢/反狙击", "诅咒/庇佑", "杀手", "狼人", "狙击手", "绝杀/特赦", "防弹衣/狼毒", "纵火/圣人",
)  # fmt: skip
CHINESE = "零一二三四五"
FULL_DIGITS = str.maketrans("0123456789", "０１２３４５６７８９")


def draw_hand(rnd: random.Random) -> tuple[str, ...]:
    """Five cards: two to four privilege cards (never both 杀手 and 狼人: then 普通攻击 names no single card) and 庶民."""
    cards = [c for c in HAND_CARDS]
    rnd.shuffle(cards)
    held: list[str] = []
    size = rnd.randint(2, 4)
    for card in cards:
        if len(held) == size:
            break
        if {card, *held} >= {"杀手", "狼人"}:
            continue
        held.append(card)
    return tuple(held + ["庶民"] * (5 - len(held)))


def uses_of(hand: Sequence[str]) -> list[Use]:
    return [u for u in USES if any(c in hand for c in u.cards)]


def position(rnd: random.Random) -> tuple[str, int]:
    n = rnd.randint(1, 5)
    digits = rnd.choice([str(n), str(n).translate(FULL_DIGITS), CHINESE[n]])
    if rnd.random() < 0.6:
        return f"倒数第{digits}张", -n
    return f"第{digits}张", n


@dataclass(frozen=True)
class Act:
    """One present act of the sender's: what it says and the input it is."""

    text: str
    item: dict
    verb: str  # the privilege or vote word alone (for 不X了)
    near: bool = False  # its player is written one character off a three-character name: refused, not an input

    @property
    def inputs(self) -> tuple[dict, ...]:
        """The input this act is when it is the sender's present order: none when its player must be asked."""
        return () if self.near else (self.item,)

    @property
    def refused(self) -> tuple[str, ...]:
        """The player a refusal of this act names when it is the sender's present order."""
        return (_targeted(self) or "",) if self.near else ()


def privilege_act(rnd: random.Random, use: Use, hand: Sequence[str], who: Mention | None) -> Act:
    card = next(c for c in use.cards if c in hand)
    spelling = rnd.choice(use.spellings)
    item: dict = {"card": card, "use": use.use}
    if use.target:
        assert who is not None
        spelling = spelling.replace("{x}", who.text)
        item["target"] = who.player
    if use.aimed:
        words, n = position(rnd)
        spelling = spelling.replace("{p}", words)
        item["position"] = n
    return Act(spelling, item, use.use, near=use.target and who is not None and who.near)


def vote_act(rnd: random.Random, who: Mention, *, change: bool = False) -> Act:
    if change:
        return Act(
            rnd.choice(["改投{x}", "改投 {x}", "我改投{x}"]).replace("{x}", who.text),
            {"change": who.player},
            "改投",
            near=who.near,
        )
    spelling = rnd.choice(["投{x}", "投 {x}", "我投{x}", "票给{x}", "投票:{x}", "这票投{x}"])
    return Act(spelling.replace("{x}", who.text), {"for": who.player}, "投", near=who.near)


# ------------------------------------------------------------------------------------------------ pieces
@dataclass(frozen=True, repr=False)
class Piece:
    text: str
    inputs: tuple[dict, ...]  # the sender's inputs this piece holds
    family: str
    present: bool  # holds an own present act (an input, or one that was cancelled or corrected within it)
    # the clause ends in a way that may run on into the next with a comma (a condition's consequence, reported
    # speech, a past account): then only a full stop may follow it before an act, or the next act's reading is moot
    open_end: bool = False
    repaired: tuple[dict, ...] = ()  # the acts a cue in this piece cancels, retracts or corrects
    names: tuple[str, ...] = ()  # players it mentions
    refused: tuple[str, ...] = ()  # players a refusal must name (an own act on a name one character off)

    def __repr__(self) -> str:
        return f"Piece({self.text!r}, {self.family}, truth={list(self.inputs)})"


# The words of each cue family, {a} the act, {b} the act that replaces or corrects it, {y} {z} {x} players, {u} a
# privilege, {v} the privilege or vote word alone. A property may cover fewer (Context.forms).
FORMS: dict[str, tuple[str, ...]] = {
    "pronoun": ("{x}白天一直带节奏,", "{x}发言前后矛盾,所以", "我怀疑{x},"),
    "negation": ("今晚不{a}", "别{a}", "我不{a}", "昨晚没{a}"),
    "negation-day": ("别{a}", "不{a}", "今天不{a}"),
    "negation-vote": ("别{a}", "不{a}", "今天不{a}"),
    "cancel": ("{a}。算了", "{a},这条删掉", "{a}。不{v}了", "本来想{a},还是不要了", "{a}……算了,不要了"),
    "cancel-day": ("{a}。算了", "{a},这条删掉", "{a}。不{v}了", "本来想{a},还是不要了", "{a}……算了,不要了"),
    "cancel-replace": ("{a}……算了,还是{b}", "{a}。算了。{b}"),
    "retraction": ("[s]{a}[/s] 不要了", "{a}。撤回,不作数", "{a}。收回这句,作废"),
    "condition": ("如果{y}明天还不说话,我就{a}", "如果{y}跳杀手,我就{a}"),
    "counterfactual": ("要不是{z}挡着,我今天就{a}了", "早知道就{a}了", "要是能{a}就好了"),
    "past": ("昨晚我已经{a}了", "上一晚{a}过了"),
    "past-day": ("昨天我{a}了",),
    "report": ("{y}说他要{a}", "{y}说:{a}"),
    "quote": ("[quote]{a}[/quote]", "\n> {a}\n"),
    "question": ("要不要{a}?", "大家觉得该不该{a}?"),
    "correction": ("{a},不对,是{y}", "{a}啊不对打错了,是{y}", "{a}。更正:{b}", "{a},哦不对,{b}"),
    "change-day": ("由{x}改投{y}", "投票从{x}挪到{y}", "原票{x} → 新票{y}", "票由{x}改为{y}"),
    "change": ("{u}由{x}改为{y}", "{u}对象由{x}变更为{y}", "{u}从{x}挪到{y}"),
    "reason": ("{a},因为{z}昨天说她是杀手", "{a},理由:{z}白天一直在保她"),
    "address": ("天神辛苦啦", "天神晚上好~", "GM辛苦了", "麻烦天神了"),
    "tally": ("{y}、{z}各一票", "目前{y}两票,{z}一票", "昨天{y}投了{z}"),
    "chatter": ("我觉得{y}很可疑", "{y}昨天的发言前后矛盾", "{y}和{z}是一伙的", "{y}一直不说话"),
}


@dataclass
class Context:
    rnd: random.Random
    phase: str
    hand: tuple[str, ...]
    used: set[str] = field(default_factory=set)  # privilege uses (or 投) already in the message
    # the forms drawn from, where not all of FORMS; "tally@day" names the forms of one phase ("night", "day", "vote")
    forms: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def pick(self, family: str) -> str:
        for key in (f"{family}@{self.phase}", family):
            if key in self.forms:
                return self.rnd.choice(self.forms[key])
        return self.rnd.choice(FORMS[family])

    def others(self, k: int = 1) -> list[str]:
        return self.rnd.sample(OTHERS, k)

    def free_uses(self) -> list[Use]:
        return [u for u in uses_of(self.hand) if u.use not in self.used]

    def act(self, who: str | None = None, *, plain: bool = False, vote_change: bool = False) -> Act | None:
        """A fresh act (a use not yet in the message), aimed at `who` or a random other player."""
        player = who or self.others()[0]
        m = mention(self.rnd, player, plain=plain)
        if self.phase != "night":
            if "投" in self.used:
                return None
            self.used.add("投")
            return vote_act(self.rnd, m, change=vote_change)
        free = self.free_uses()
        if not free:
            return None
        use = self.rnd.choice(free)
        self.used.add(use.use)
        return privilege_act(self.rnd, use, self.hand, m)

    def act_on(self, template: Act, player: str) -> Act:
        """The same act aimed at another player (a correction or a change frame's new target)."""
        k = next(k for k in ("target", "for", "change") if k in template.item)
        old = template.item[k]
        text = template.text
        for spelling in (old, TRADITIONAL.get(old, old), FUZZY.get(old, old)):
            text = text.replace(spelling, player)
        return Act(text, {**template.item, k: player}, template.verb)


def _targeted(act: Act) -> str | None:
    return act.item.get("target") or act.item.get("for") or act.item.get("change")


def plain(ctx: Context) -> Piece | None:
    act = ctx.act(vote_change=ctx.rnd.random() < 0.25)  # (by day: a vote, or a change of vote: 改投)
    if act is None:
        return None
    return Piece(act.text, act.inputs, "act", True, names=(_targeted(act) or "",), refused=act.refused)


def pronoun(ctx: Context) -> Piece | None:
    """The player named once in talk, then the act on 他: one antecedent."""
    x = ctx.others()[0]
    act = ctx.act(x, plain=True)
    if act is None or _targeted(act) is None:
        return None
    said = ctx.pick("pronoun").replace("{x}", x)
    return Piece(said + act.text.replace(x, "他"), (act.item,), "pronoun", True, names=(x,))


def negation(ctx: Context) -> Piece | None:
    family = "negation" if ctx.phase == "night" else f"negation-{ctx.phase}"
    act = ctx.act() if ctx.forms.get(family, FORMS[family]) else None
    if act is None:
        return None
    text = ctx.pick(family).replace("{a}", act.text)
    return Piece(text, (), "negation", True, repaired=(act.item,))


def cancel(ctx: Context) -> Piece | None:
    act = ctx.act()
    if act is None:
        return None
    text = (
        ctx.pick("cancel" if ctx.phase == "night" else "cancel-day").replace("{a}", act.text).replace("{v}", act.verb)
    )
    return Piece(text, (), "cancel", True, repaired=(act.item,))


def cancel_and_replace(ctx: Context) -> Piece | None:
    act = ctx.act()
    if act is None:
        return None
    other = ctx.act()
    if other is None:
        return None
    text = ctx.pick("cancel-replace")
    text = text.replace("{a}", act.text).replace("{b}", other.text)
    return Piece(text, other.inputs, "cancel-replace", True, repaired=(act.item,), refused=other.refused)


def retraction(ctx: Context) -> Piece | None:
    act = ctx.act()
    if act is None:
        return None
    text = ctx.pick("retraction").replace("{a}", act.text)
    return Piece(text, (), "retraction", True, repaired=(act.item,))


def condition(ctx: Context) -> Piece | None:
    y = ctx.others()[0]
    act = ctx.act(y, plain=True)
    if act is None:
        return None
    ctx.used.discard(act.verb if ctx.phase == "night" else "投")
    text = ctx.pick("condition")
    return Piece(text.replace("{a}", act.text).replace("{y}", y), (), "condition", False, open_end=True, names=(y,))


def counterfactual(ctx: Context) -> Piece | None:
    act = ctx.act()
    if act is None:
        return None
    z = ctx.rnd.choice([p for p in OTHERS if p != _targeted(act)])
    text = ctx.pick("counterfactual")
    return Piece(
        text.replace("{a}", act.text).replace("{z}", z), (), "counterfactual", True, open_end=True,
        repaired=(act.item,), names=(z,),
    )  # fmt: skip


def past(ctx: Context) -> Piece | None:
    act = ctx.act()
    if act is None:
        return None
    ctx.used.discard(act.verb if ctx.phase == "night" else "投")  # an account of the past leaves the use free
    text = ctx.pick("past" if ctx.phase == "night" else "past-day")
    return Piece(text.replace("{a}", act.text), (), "past", False, open_end=True)


def report(ctx: Context) -> Piece | None:
    y, x = ctx.others(2)
    act = ctx.act(x, plain=True)
    if act is None:
        return None
    ctx.used.discard(act.verb if ctx.phase == "night" else "投")
    text = ctx.pick("report").replace("{y}", y).replace("{a}", act.text)
    return Piece(text, (), "report", False, open_end=True, names=(x, y))


def quote(ctx: Context) -> Piece | None:
    act = ctx.act()
    if act is None:
        return None
    ctx.used.discard(act.verb if ctx.phase == "night" else "投")
    text = ctx.pick("quote").replace("{a}", act.text)
    return Piece(text, (), "quote", False)


def question(ctx: Context) -> Piece | None:
    act = ctx.act()
    if act is None:
        return None
    ctx.used.discard(act.verb if ctx.phase == "night" else "投")
    text = ctx.pick("question").replace("{a}", act.text)
    return Piece(text, (), "question", False, open_end=True)


def correction(ctx: Context) -> Piece | None:
    act = ctx.act()
    if act is None or _targeted(act) is None:
        return None
    y = ctx.rnd.choice([p for p in OTHERS if p != _targeted(act)])
    fixed = ctx.act_on(act, y)
    text = ctx.pick("correction")
    text = text.replace("{a}", act.text).replace("{y}", y).replace("{b}", fixed.text)
    return Piece(text, (fixed.item,), "correction", True, repaired=(act.item,))


def change_frame(ctx: Context) -> Piece | None:
    x, y = ctx.others(2)
    if ctx.phase != "night":
        if "投" in ctx.used:
            return None
        ctx.used.add("投")
        text = ctx.pick("change-day")
        return Piece(text.replace("{x}", x).replace("{y}", y), ({"change": y},), "change", True, names=(x, y))
    free = [u for u in ctx.free_uses() if u.target and not u.aimed]
    if not free:
        return None
    use = ctx.rnd.choice(free)
    ctx.used.add(use.use)
    card = next(c for c in use.cards if c in ctx.hand)
    text = ctx.pick("change")
    item = {"card": card, "use": use.use, "target": y, "change": True}  # docs/parser.md: a change of target
    return Piece(text.replace("{u}", use.use).replace("{x}", x).replace("{y}", y), (item,), "change", True)


def reason(ctx: Context) -> Piece | None:
    act = ctx.act()
    if act is None:
        return None
    z = ctx.rnd.choice([p for p in OTHERS if p != _targeted(act)])
    text = ctx.pick("reason")
    piece = Piece(text.replace("{a}", act.text).replace("{z}", z), act.inputs, "reason", True, open_end=True)
    return replace(piece, names=(z,), refused=act.refused)


def address(ctx: Context) -> Piece | None:
    return Piece(ctx.pick("address"), (), "address", False)


def tally(ctx: Context) -> Piece | None:
    y, z = ctx.others(2)
    text = ctx.pick("tally")
    return Piece(text.replace("{y}", y).replace("{z}", z), (), "tally", False, names=(y, z))


def chatter(ctx: Context) -> Piece | None:
    y, z = ctx.others(2)
    text = ctx.pick("chatter")
    return Piece(text.replace("{y}", y).replace("{z}", z), (), "chatter", False, names=(y, z))


Maker = Callable[[Context], Piece | None]
ACTS: dict[str, Maker] = {"act": plain, "pronoun": pronoun, "reason": reason, "change": change_frame}
REPAIRS: dict[str, Maker] = {
    "negation": negation,
    "cancel": cancel,
    "cancel-replace": cancel_and_replace,
    "retraction": retraction,
    "correction": correction,
    "counterfactual": counterfactual,
}
NO_ACT: dict[str, Maker] = {
    "condition": condition,
    "past": past,
    "report": report,
    "quote": quote,
    "question": question,
    "address": address,
    "tally": tally,
    "chatter": chatter,
}
FAMILIES: dict[str, Maker] = {**ACTS, **REPAIRS, **NO_ACT}


# ------------------------------------------------------------------------------------------------ messages
@dataclass(frozen=True, repr=False)
class Message:
    pieces: tuple[Piece, ...]
    joints: tuple[str, ...]  # between pieces (len(pieces) - 1)
    hand: tuple[str, ...]
    phase: str

    def __repr__(self) -> str:  # what a failing property prints: the message as the parser is given it
        hand = "" if self.phase != "night" else f", hand={list(self.hand)}"
        refused = f", refused naming {self.refused}" if self.refused else ""
        return f"Message({self.text!r}, {self.phase}{hand}, parts={self.families}, truth={self.inputs}{refused})"

    @property
    def text(self) -> str:
        out = self.pieces[0].text
        for joint, piece in zip(self.joints, self.pieces[1:], strict=True):
            closed = out.endswith(("\n", "?")) or piece.text.startswith("\n")
            out += ("" if closed else joint) + piece.text
        return out.strip("\n")

    @property
    def inputs(self) -> list[dict]:
        return [i for p in self.pieces for i in p.inputs]

    @property
    def refused(self) -> list[str]:
        """The players a refusal must name: each own act on a name one character off a three-character name."""
        return [r for p in self.pieces for r in p.refused]

    @property
    def families(self) -> list[str]:
        return [p.family for p in self.pieces]

    def without(self, k: int) -> Message:
        # the joint after the piece before stays (a full stop after an open clause is kept)
        joints = (
            self.joints[1:]
            if k == 0
            else self.joints[: k - 1] + self.joints[k:]
            if k == len(self.joints)
            else self.joints[:k] + self.joints[k + 1 :]
        )
        return replace(self, pieces=self.pieces[:k] + self.pieces[k + 1 :], joints=joints)


# Where a message is written: a PM by night or by day (parse_pm), or a vote post in the thread (parse_vote).
PHASES = ("night", "day", "vote")


def draw_context(rnd: random.Random) -> Context:
    phase = rnd.choices(PHASES, weights=(7, 1.5, 1.5))[0]
    return Context(rnd, phase, draw_hand(rnd) if phase == "night" else ("庶民",) * 5)


def piece(ctx: Context, family: str) -> Piece | None:
    return FAMILIES[family](ctx)


def joint_after(rnd: random.Random, before: Piece) -> str:
    return "。" if before.open_end else rnd.choice([",", "。", "\n", ",", "。"])


def compose(rnd: random.Random) -> Message:
    """One to four pieces: at most one of them a repair (it comes first among the acts, so what its cue repairs is
    never in doubt), at most one pronoun (and then no other piece names a player: only words to the 天神 stand beside it, so 他 has one antecedent)."""
    ctx = draw_context(rnd)
    pieces: list[Piece] = []
    if rnd.random() < 0.5:
        made = piece(ctx, rnd.choice(list(REPAIRS)))
        if made:
            pieces.append(made)
    for _ in range(rnd.randint(0 if pieces else 1, 2)):
        family = rnd.choice(["act", "act", "reason", "change", "pronoun"])
        if family == "pronoun" and any(p.family == "pronoun" for p in pieces):
            family = "act"  # (a second 他 would have two antecedents)
        made = piece(ctx, family)
        if made:
            pieces.append(made)
    for _ in range(rnd.randint(0, 2)):
        made = piece(ctx, rnd.choice(list(NO_ACT)))
        if made:
            at = rnd.randint(0, len(pieces))
            # a piece with no act before a repair would give its cue two candidates: keep the repair first
            pieces.insert(at if not (pieces and pieces[0].family in REPAIRS) else max(at, 1), made)
    if not pieces:
        pieces.append(address(ctx) or Piece("天神辛苦啦", (), "address", False))
    if any(p.family == "pronoun" for p in pieces):
        pieces = [p for p in pieces if p.family in ("pronoun", "address")]
    joints = tuple(joint_after(rnd, p) for p in pieces[:-1])
    return Message(tuple(pieces), joints, ctx.hand, ctx.phase)


def parse(message: Message | str, *, hand: Sequence[str] = (), phase: str = "night", players=MIXED_NAMES) -> dict:
    """What the site reads from the message: a PM with parse_pm, a vote post (phase "vote") with parse_vote."""
    if isinstance(message, Message):
        text, hand, phase = message.text, message.hand, message.phase
    else:
        text = message
    if phase == "vote":
        return parse_vote(text, sender=SENDER, players=list(players)).to_json()
    return parse_pm(text, sender=SENDER, players=list(players), hand=list(hand), phase=phase).to_json()


@dataclass(frozen=True)
class Score:
    wrong: int  # inputs read that the message does not hold (a silent misreading when nothing is refused)
    missed: int  # inputs the message holds that were not read
    refused: bool  # the parser refused something (the 天神 is shown it)
    unrefused: int = 0  # refusals the message calls for (a name one character off) that name no such player


def score(message: Message) -> tuple[Score, dict]:
    got = parse(message)
    have = Counter(key(i) for i in got["inputs"])
    want = Counter(key(i) for i in message.inputs)
    named = Counter(p for r in got["refusals"] for p in dict.fromkeys(r.get("candidates", ())))
    unrefused = sum((Counter(message.refused) - named).values())
    return Score(sum((have - want).values()), sum((want - have).values()), bool(got["refusals"]), unrefused), got


def minimal(message: Message, bad: Callable[[Message], bool]) -> Message:
    """The message with every piece removed whose removal keeps it bad: the smallest example to show."""
    k = 0
    while k < len(message.pieces) and len(message.pieces) > 1:
        smaller = message.without(k)
        if bad(smaller):
            message = smaller
        else:
            k += 1
    return message
