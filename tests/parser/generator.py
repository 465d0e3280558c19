"""Messages composed from known inputs wrapped in filler, with the ground truth known: what `python -m bench.parser
--generated N` scores and the Hypothesis property of tests/parser/test_generated.py checks.

Each message holds one to three inputs (every privilege that names a player or none, aimed shots, attacks with a
杀人宣言, discard orders, votes, changes of vote, stances, passes) and fillers of sixteen kinds around them:
greetings, strategy talk naming players, reported speech, hypotheticals, [quote] blocks, `>` lines, bracketed asides
with pronouns, PS lines, signatures, notes and questions to the 天神, self-corrections, reasons after votes, 繁體,
full-width letters and digits, IME typos, emoji and BBCode. The property: the parser reads exactly the known inputs,
or refuses naming the words it did not read — never a different input; and the words each input it read is written
in (`said`: its card phrase, privilege, player, position) are that input's part of the preview, never a note."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field

from moderator.parser import parse_pm
from tests.world import PLAYERS

SENDER = "钱七"
OTHERS = [p for p in PLAYERS if p != SENDER]
NIGHT_HAND = ["庶民", "束魂", "诅咒/庇佑", "禁锢/反狙击", "巫医"]
SHOOTER_HAND = ["庶民", "杀手", "防弹衣/狼毒", "狙击手", "巫医"]
IGNORED = ("manifesto", "pronoun", "span", "manifesto_spans", "correction", "inferred_use")


@dataclass
class Generated:
    text: str
    hand: list[str]
    phase: str
    inputs: list[dict]
    kinds: list[str]  # the fillers used
    manifesto: str | None = None  # the 杀人宣言 the attack publishes, word for word
    # [start, end) of the words each input is written in (its card phrase, privilege, player, position), in the
    # order of `inputs`: what the preview must show as that input's part (docs/parser.md, "nothing dropped")
    said: list[tuple[int, int]] = field(default_factory=list)


def key(item: dict) -> str:
    return json.dumps({k: v for k, v in sorted(item.items()) if k not in IGNORED}, ensure_ascii=False)


# ------------------------------------------------------------------------------------------------ inputs
def _night_input(rnd: random.Random, hand: list[str], used: set[str]) -> tuple[str, dict] | None:
    x = rnd.choice(OTHERS)
    choices: list[tuple[str, dict]] = []
    # (the card named before or after the privilege — 用束魂牌…, 狙击手狙击…, …用诅咒牌 — is part of its words)
    if "束魂" in hand:
        spellings = ["束魂{x}", "束魂 {x}", "今晚束魂{x}", "用束魂牌束魂{x}", "今晚用束魂牌束魂{x}", "束魂牌束魂{x}"]
        choices.append((rnd.choice(spellings), {"use": "束魂", "card": "束魂"}))
    if "诅咒/庇佑" in hand:
        spellings = ["诅咒{x}", "诅咒 {x}", "用诅咒/庇佑牌诅咒{x}", "诅咒{x}用诅咒牌"]
        choices.append((rnd.choice(spellings), {"use": "诅咒", "card": "诅咒/庇佑"}))
        choices.append(
            (rnd.choice(["庇佑{x}", "给{x}庇佑", "用诅咒/庇佑牌庇佑{x}"]), {"use": "庇佑", "card": "诅咒/庇佑"})
        )
    if "禁锢/反狙击" in hand:
        spellings = ["禁锢{x}", "禁锢 {x}", "把{x}禁锢了", "用禁锢牌禁锢{x}"]
        choices.append((rnd.choice(spellings), {"use": "禁锢", "card": "禁锢/反狙击"}))
    if "巫医" in hand:
        spellings = ["治疗{x}", "治疗 {x}", "用巫医救{x}", "巫医治疗{x}", "今晚用巫医牌治疗{x}"]
        choices.append((rnd.choice(spellings), {"use": "治疗", "card": "巫医"}))
    if "杀手" in hand:
        spellings = ["用杀手普通攻击{x}", "今晚用杀手牌攻击{x}", "杀手牌杀{x}"]
        choices.append((rnd.choice(spellings), {"use": "普通攻击", "card": "杀手"}))
    if "狙击手" in hand:
        spellings = ["狙击{x}", "普通狙击 {x}", "用狙击手牌狙击{x}", "狙击手狙击{x}"]
        choices.append((rnd.choice(spellings), {"use": "普通狙击", "card": "狙击手"}))
        n = rnd.randint(1, 4)
        spellings = [f"瞄准狙击{{x}}倒数第{n}张", f"倒数第{n}张 瞄准狙击{{x}}", f"瞄准狙击{{x}},倒数第{n}张"]
        choices.append((rnd.choice(spellings), {"use": "瞄准狙击", "card": "狙击手", "position": -n}))
    if "防弹衣/狼毒" in hand:
        spellings = ["穿防弹衣", "用防弹衣牌穿防弹衣"]
        choices.append((rnd.choice(spellings), {"use": "防弹衣", "card": "防弹衣/狼毒", "notarget": True}))
    choices = [c for c in choices if c[1]["use"] not in used]
    if not choices:
        return None
    template, item = rnd.choice(choices)
    item = dict(item)
    used.add(item["use"])
    if item.pop("notarget", False):
        return template, item
    item["target"] = x
    return template.replace("{x}", x), item


def _order(rnd: random.Random, hand: list[str]) -> tuple[str, dict]:
    order = list(hand)
    rnd.shuffle(order)
    sep = rnd.choice(["、", ">", " → ", ","])
    return "丢牌顺序:" + sep.join(order), {"order": order}


# ------------------------------------------------------------------------------------------------ fillers
def _names(rnd: random.Random) -> tuple[str, str]:
    y, z = rnd.sample(OTHERS, 2)
    return y, z


def _before(rnd: random.Random, kind: str) -> str:
    y, z = _names(rnd)
    return {
        "greeting": rnd.choice(["天神晚上好~", "GM辛苦了!", "hi 天神"]),
        "strategy": f"我觉得{y}是杀手,{z}白天也很可疑。",
        "report": f"{y}说:禁锢{z}。",
        "hypothetical": f"如果{y}明天还不说话,我就诅咒他。",
        "quote": f"[quote]诅咒{y}[/quote]",
        "gtline": f"> 束魂{y}\n",
        "note": "天神请问今晚几点截止?",
        "emoji": "😀😀",
        "bbcode": "[b]今晚行动[/b]",
    }[kind]


def _after(rnd: random.Random, kind: str) -> str:
    y, z = _names(rnd)
    return {
        "aside": "(她白天一直带节奏)",
        "ps": "\nPS:天神辛苦了",
        "signature": f"\n—— {SENDER}",
        "question": "\n天神,我的行动点还够吗?",
        "emoji": "~ 😀",
        "strategy": f"\n{y}昨天的发言前后矛盾,大家小心。",
        "strategy-action": f"\n我猜{y}今晚会禁锢我。",
        "report-after": f"\n{y}说过要诅咒{z}。",
        "hypothetical-after": f"\n要是{y}明天跳杀手,我再考虑束魂他。",
        "quote-after": f"\n[quote]狙击{y}[/quote]这种写法不对",
        "past": f"\n昨晚我已经诅咒过{y}了。",
    }[kind]


BEFORE = ("greeting", "strategy", "report", "hypothetical", "quote", "gtline", "note", "emoji", "bbcode")
AFTER = (
    "aside",
    "ps",
    "signature",
    "question",
    "emoji",
    "strategy",
    "strategy-action",
    "report-after",
    "hypothetical-after",
    "quote-after",
    "past",
)
# After a 杀人宣言, words with no action word in them may be the declaration's own (an emoji, an aside, talk): the
# contract excludes signatures, PS lines, words to the 天神 and clauses with action words.
MAY_BE_DECLARED = frozenset({"emoji", "aside", "strategy", "quote-after"})
TRAD = {"诅咒": "詛咒", "禁锢": "禁錮", "治疗": "治療", "狙击": "狙擊", "丢牌顺序": "丟牌順序", "投票": "投票"}
TYPOS = {"束魂": "束婚", "诅咒": "祖咒"}
FULL = str.maketrans({chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F) if chr(c).isalnum()})


def generate(rnd: random.Random) -> Generated:
    kinds: list[str] = []
    shape = rnd.choice(["night", "night", "night", "order", "vote", "change", "pass", "correction", "attack"])
    phase = "night"
    hand = rnd.choice([NIGHT_HAND, SHOOTER_HAND])
    clauses: list[str] = []
    inputs: list[dict] = []
    where: list[tuple[int, int, int]] = []  # (clause, start, end) of each input's words in its clause
    manifesto: str | None = None
    if shape == "night":
        used: set[str] = set()
        for _ in range(rnd.randint(1, 3)):
            got = _night_input(rnd, hand, used)
            if got:
                where.append((len(clauses), 0, len(got[0])))
                clauses.append(got[0])
                inputs.append(got[1])
    elif shape == "correction":
        got = _night_input(rnd, hand, set())
        assert got is not None
        text, item = got
        if "target" in item:
            wrong = rnd.choice([p for p in OTHERS if p != item["target"]])
            first = text.replace(item["target"], wrong) + rnd.choice([",哦不对,", "。更正:"])
            clauses.append(first + text)
            where.append((0, len(first), len(first) + len(text)))
            kinds.append("self-correction")
        else:
            clauses.append(text)
            where.append((0, 0, len(text)))
        inputs.append(item)
    elif shape == "order":
        text, item = _order(rnd, hand)
        clauses.append(text)
        where.append((0, 0, len(text)))
        inputs.append(item)
    elif shape == "attack":
        hand = SHOOTER_HAND
        x = rnd.choice(OTHERS)
        manifesto = "长夜漫漫,烛火将尽,今夜轮到你了"
        clauses.append(f"杀{x}。宣言:{manifesto}")
        where.append((0, 0, 1 + len(x)))
        inputs.append({"use": "普通攻击", "card": "杀手", "target": x})
    elif shape in ("vote", "change"):
        phase = "day"
        x = rnd.choice(OTHERS)
        word = "投" if shape == "vote" else "改投"
        clauses.append(rnd.choice([f"{word}{x}", f"{word} {x}", f"{word}票:{x}" if shape == "vote" else f"改投{x}"]))
        where.append((0, 0, len(clauses[-1])))
        inputs.append({"for": x} if shape == "vote" else {"change": x})
        if rnd.random() < 0.5:
            y = rnd.choice([p for p in OTHERS if p != x])
            clauses[-1] += rnd.choice([f"。理由:{y}昨天说她是杀手,我信", ",理由是她昨天的逻辑不通"])
            kinds.append("reason")
    else:
        clauses.append(rnd.choice(["今晚不行动", "今晚空过", "pass"]))
        where.append((0, 0, len(clauses[-1])))
        inputs.append({"pass": True})
    joint = rnd.choice([",", "\n", "。"])
    body = joint.join(clauses)
    starts = [sum(len(c) + len(joint) for c in clauses[:k]) for k in range(len(clauses))]
    if rnd.random() < 0.6:
        k = rnd.choice(BEFORE)
        kinds.append(k)
        before = _before(rnd, k) + ("\n" if k not in ("gtline",) else "")
        body = before + body
        starts = [at + len(before) for at in starts]
    said = [(starts[c] + a, starts[c] + b) for c, a, b in where]  # (every change below keeps each length)
    if rnd.random() < 0.6:
        k = rnd.choice(AFTER)
        kinds.append(k)
        body = body + _after(rnd, k)
        if k in MAY_BE_DECLARED:
            manifesto = None  # prose with no action word may be the declaration's own: either reading is right
    if rnd.random() < 0.15:
        kinds.append("traditional")
        for a, b in TRAD.items():
            body = body.replace(a, b)
    if rnd.random() < 0.1:
        kinds.append("typo")
        for a, b in TYPOS.items():
            body = body.replace(a, b, 1)
    if rnd.random() < 0.1:
        kinds.append("full-width")
        body = body.translate(FULL)
    if manifesto is not None and ("traditional" in kinds or "full-width" in kinds or "typo" in kinds):
        manifesto = None  # published as written: its converted words are not compared
    return Generated(body, hand, phase, inputs, kinds, manifesto, said)


@dataclass
class Score:
    wrong: int  # inputs read that the message does not hold
    missed: int  # inputs the message holds that were not read
    refused_missed: int  # of those, how many came with a refusal (shown to the 天神)
    manifesto_wrong: int = 0  # attacks whose 杀人宣言 to publish is not the declaration alone


def score(g: Generated) -> tuple[Score, dict]:
    got_json = parse_pm(g.text, sender=SENDER, players=PLAYERS, hand=g.hand, phase=g.phase).to_json()
    got = Counter(key(i) for i in got_json["inputs"])
    want = Counter(key(i) for i in g.inputs)
    wrong = sum((got - want).values())
    missed = sum((want - got).values())
    refused = missed if got_json["refusals"] else 0
    published = [i.get("manifesto") for i in got_json["inputs"] if i.get("use") == "普通攻击"]
    bad_manifesto = sum(p != g.manifesto for p in published) if g.manifesto is not None else 0
    return Score(wrong, missed, refused, bad_manifesto), got_json
