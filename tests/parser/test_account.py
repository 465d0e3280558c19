"""Every word of a message is accounted for (docs/parser.md, "nothing dropped"): cut into the parts the preview shows,
each character of the text is in exactly one part — an input, the 杀人宣言 an attack publishes, a refusal or a note
whose reason says in words what the parser took it for — on generated messages and on random text."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moderator.parser import account, parse_pm, parse_vote
from moderator.parser.account import PART_KINDS, blank
from tests.parser import generator
from tests.world import PLAYERS

SENDER = generator.SENDER
HAND = generator.NIGHT_HAND
SHOOTER = generator.SHOOTER_HAND


def parts_of(text: str, data: dict):
    return account(text, inputs=data["inputs"], refusals=data["refusals"], notes=data["notes"])


def assert_accounted(text: str, data: dict) -> list:
    """Each character in exactly one part, the parts in the order written, each of a kind the preview shows, each
    note and refusal with a reason in words."""
    parts = parts_of(text, data)
    if not text:
        assert parts == []
        return parts
    assert parts[0].start == 0 and parts[-1].end == len(text), (text, parts)
    for before, after in itertools.pairwise(parts):
        assert before.end == after.start, (text, parts)
    assert "".join(p.text for p in parts) == text
    for p in parts:
        assert p.start < p.end and p.text == text[p.start : p.end]
        if p.kind == "blank":
            assert len(parts) == 1 and blank(text), (text, parts)  # a text of no word at all
            continue
        assert p.kind in PART_KINDS, (text, p, data)  # never "unread": every word is an input, a refusal or a note
        entry = (data["inputs"] if p.kind in ("input", "manifesto") else data[p.kind + "s"])[p.index]
        if p.kind in ("refusal", "note"):
            reason = entry["reason"]
            assert reason and "{" not in reason and "_" not in reason, (text, entry)
    return parts


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(min_value=0, max_value=2**32))
def test_every_character_of_a_generated_message_is_in_exactly_one_part_the_preview_shows(seed):
    message = generator.generate(random.Random(seed))
    data = parse_pm(message.text, sender=SENDER, players=PLAYERS, hand=message.hand, phase=message.phase).to_json()
    assert_accounted(message.text, data)


WORDS = [
    *PLAYERS,
    "束魂",
    "诅咒",
    "庇佑",
    "禁锢",
    "治疗",
    "狙击",
    "瞄准狙击",
    "杀",
    "攻击",
    "宣言:",
    "倒数第2张",
    "第三张",
    "投",
    "改投",
    "我觉得",
    "如果",
    "说:",
    "他",
    "吗",
    "不",
    "天神好",
    "谢谢",
    "PS:",
    "—— ",
    "哦不对,",
    "丢牌顺序:",
    "庶民",
    "巫医",
    "(",
    ")",
    "“",
    "”",
    "[quote]",
    "[/quote]",
    "> ",
    "[b]",
    "😀",
    ",",
    "。",
    "\n",
    " ",
    "?",
    "～",
    "ａ",
    "1",
    "的",
    "了",
]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.lists(st.sampled_from(WORDS), max_size=30),
    st.sampled_from(["night", "day"]),
    st.sampled_from([HAND, SHOOTER]),
)
def test_every_character_of_random_words_is_in_exactly_one_part_the_preview_shows(words, phase, hand):
    text = "".join(words)
    assert_accounted(text, parse_pm(text, sender=SENDER, players=PLAYERS, hand=hand, phase=phase).to_json())


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.text(max_size=60))
def test_every_character_of_any_text_is_in_exactly_one_part_of_a_pm_and_of_a_vote_post(text):
    assert_accounted(text, parse_pm(text, sender=SENDER, players=PLAYERS, hand=HAND).to_json())
    assert_accounted(text, parse_vote(text, sender=SENDER, players=PLAYERS).to_json())


def shown(text: str, hand=HAND, phase: str = "night") -> list[tuple[str, str, str]]:
    """(kind, the words, what the preview says of them) for each part."""
    data = parse_pm(text, sender=SENDER, players=PLAYERS, hand=hand, phase=phase).to_json()
    out = []
    for p in assert_accounted(text, data):
        entry = (data["inputs"] if p.kind in ("input", "manifesto") else data[p.kind + "s"])[p.index]
        out.append((p.kind, p.text.strip(), entry.get("reason", "")))
    return out


def test_a_guess_beside_an_input_is_a_note_and_the_input_is_read():
    parts = shown("束魂张三。我觉得王五是杀手吧")
    assert parts[0][:2] == ("input", "束魂张三。")
    kind, words, reason = parts[1]
    assert (kind, words) == ("note", "我觉得王五是杀手吧")
    assert "猜测或闲聊" in reason and "“王五”" in reason  # the player it names is named in the reason


@pytest.mark.parametrize(
    "text,words,said",
    [
        ("天神晚上好~\n诅咒张三", "天神晚上好~", "问候"),
        ("hi 天神\n诅咒张三", "hi 天神", "问候"),
        ("诅咒张三。好像王五是杀手", "好像王五是杀手", "猜测或闲聊"),  # 好 here is no greeting
        ("诅咒张三\nGM辛苦了!", "GM辛苦了!", "写给天神"),
        ("诅咒张三\nPS:天神辛苦了", "PS:天神辛苦了", "附言、签名或写给天神的话"),
        ("诅咒张三(她白天一直带节奏)", "(她白天一直带节奏)", "括号里的旁白"),
        ("[quote]狙击李四[/quote]\n诅咒张三", "[quote]狙击李四[/quote]", "引用的文字"),
        ("王五说:禁锢赵六。诅咒张三", "王五说:禁锢赵六。", "转述"),
        ("诅咒张三\n天神,我的行动点还够吗?", "天神,我的行动点还够吗?", "写给天神"),
        ("治疗张三,哦不对,治疗李四", "治疗张三,", "被后面的更正取代"),
    ],
)
def test_a_part_beside_an_input_is_shown_with_what_it_was_taken_for(text, words, said):
    parts = shown(text)
    assert any(kind == "input" for kind, _, _ in parts), parts
    assert any(kind == "note" and w == words and said in reason for kind, w, reason in parts), parts


def test_a_signature_after_a_manifesto_is_a_note_and_the_manifesto_its_own_part():
    text = f"杀王五。宣言:长夜漫漫,今晚轮到你了\n—— {SENDER} 留"
    parts = shown(text, hand=SHOOTER)
    assert [k for k, _, _ in parts] == ["input", "note", "manifesto", "note"], parts
    assert parts[2][1] == "长夜漫漫,今晚轮到你了"
    assert parts[3][1] == f"—— {SENDER} 留" and "签名" in parts[3][2] and f"“{SENDER}”" in parts[3][2]


def test_a_few_words_of_an_input_s_own_clause_are_shown_with_the_input():
    assert shown("今晚给自己治疗一下") == [("input", "今晚给自己治疗一下", "")]


def test_the_notes_of_a_long_message_are_bounded_and_still_hold_every_word():
    text = "。".join(f"我觉得{PLAYERS[k % 7]}是杀手" for k in range(400)) + "。诅咒张三"
    data = parse_pm(text, sender=SENDER, players=PLAYERS, hand=HAND).to_json()
    assert len(data["notes"]) <= 60
    assert_accounted(text, data)
    assert [i["use"] for i in data["inputs"]] == ["诅咒"]


KILLER = ["庶民", "杀手", "束魂", "诅咒/庇佑", "阿米巴"]


@pytest.mark.parametrize(
    "text,hand,phase",
    [
        ("今晚用杀手普通攻击王五。", KILLER, "night"),  # the card phrase before the privilege
        ("用杀手牌杀王五", KILLER, "night"),
        ("杀手王五", KILLER, "night"),  # a card alone is its privilege
        ("今晚用束魂牌束魂王五", HAND, "night"),
        ("束魂牌束魂王五", HAND, "night"),
        ("用诅咒/庇佑牌诅咒王五", HAND, "night"),
        ("诅咒王五用诅咒牌", HAND, "night"),  # … and after the player
        ("束魂王五,用束魂牌", HAND, "night"),  # … or in a clause of its own
        ("用巫医救王五", HAND, "night"),
        ("用防弹衣牌穿防弹衣", SHOOTER, "night"),
        ("狙击手瞄准狙击王五第3张", SHOOTER, "night"),
        ("倒数第2张 瞄准狙击王五", SHOOTER, "night"),  # a position before the privilege
        ("瞄准狙击 位置:倒数第2张 对象:王五", SHOOTER, "night"),  # labels
        ("阿米巴变形成巫医", KILLER, "night"),
        ("用阿米巴牌变身巫医", KILLER, "night"),
        ("更换束魂目标为王五", HAND, "night"),  # a change word before the privilege
        ("刚才的束魂改给王五", HAND, "night"),
        ("诅咒张三两次", HAND, "night"),  # a count after the player
        ("刀张三一击必杀", KILLER, "night"),  # a second privilege word that names the first
        ("杀手,共赢", SHOOTER, "night"),  # a bare side with the stance's mode
        ("王五,束魂他", HAND, "night"),  # the name the pronoun right after it is read as
        ("改投王五", HAND, "day"),
        ("投票:王五", HAND, "day"),
        ("投王五一票", HAND, "day"),  # a vote word after the player
        ("投给王五这一票", HAND, "day"),
    ],
)
def test_every_word_an_input_was_read_from_is_that_input_s_part(text, hand, phase):
    """The card phrase, position, change word, count or label an input was read from is part of that input as the
    preview shows it, never a note saying nothing was read ("今晚用杀手": “这里提到了杀手,但没有读出要做的事”)."""
    assert shown(text, hand=hand, phase=phase) == [("input", text, "")]


@pytest.mark.parametrize(
    "text,inputs",
    [
        ("把王五禁锢了。治疗孙八", ["把王五禁锢了。", "治疗孙八"]),  # 了 is the first input's, not the second's
        ("把赵六禁锢了,用巫医救赵六", ["把赵六禁锢了,", "用巫医救赵六"]),
        ("诅咒李四 今晚束魂王五", ["诅咒李四", "今晚束魂王五"]),
        ("禁锢赵六\n今晚束魂王五", ["禁锢赵六", "今晚束魂王五"]),
    ],
)
def test_the_few_words_between_two_inputs_go_with_the_input_of_their_clause(text, inputs):
    assert shown(text) == [("input", words, "") for words in inputs]


def test_a_correction_is_read_with_its_card_phrase_and_the_marker_is_a_note():
    parts = shown("用巫医救李四。更正:用巫医救王五")
    assert [(kind, words) for kind, words, _ in parts] == [
        ("note", "用巫医救李四。"),
        ("note", "更正:"),
        ("input", "用巫医救王五"),
    ]
    assert "被后面的更正取代" in parts[0][2] and "更正的话" in parts[1][2]


def test_a_bracketed_aside_after_an_input_is_its_own_note():
    parts = shown("把孙八禁锢了(她白天一直带节奏)")
    assert parts[0][:2] == ("input", "把孙八禁锢了")
    assert parts[1][:2] == ("note", "(她白天一直带节奏)") and "括号里的旁白" in parts[1][2]


def test_the_span_of_an_input_covers_its_card_phrase_and_a_leading_filler_goes_with_it():
    data = parse_pm(
        "今晚用杀手普通攻击乙。", sender="甲", players=["甲", "乙", "丙"], hand=["杀手", "束魂", "庶民"]
    ).to_json()
    assert data["inputs"] == [{"card": "杀手", "use": "普通攻击", "target": "乙", "span": [2, 10]}]
    assert data["notes"] == [
        {"text": "今晚", "span": [0, 2], "reason": "“今晚”是这条指令里的其他字,不改变读法", "with_input": True}
    ]


def test_a_card_after_an_input_that_does_not_grant_its_privilege_is_refused_not_joined():
    parts = shown("束魂王五,用诅咒牌")
    assert [(kind, words) for kind, words, _ in parts] == [("input", "束魂王五,"), ("refusal", "用诅咒牌")]


def test_a_name_alone_is_refused_when_the_pronoun_after_it_is_not_read_as_him():
    parts = shown("王五,束魂他 李四")
    assert [kind for kind, _, _ in parts] == ["refusal", "refusal"] and "只写了“王五”" in parts[0][2]
    assert [kind for kind, _, _ in shown("王五。束魂他")] == ["refusal", "input"]  # another sentence: not joined
