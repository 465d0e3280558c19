"""The PM parser's API, name matching, normalisation and properties (docs/parser.md; docs/rules.md O1, O2, B3,
D3, S4)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards import catalogue
from moderator.parser import ParseResult, parse_pm, parse_vote
from moderator.parser.names import NameBook, edit_distance
from moderator.parser.text import normalise_word, prepare, to_simplified
from tests.world import PLAYERS

# Forum IDs beside the plain names: a line of verse, Latin letters and digits, and one written in 繁體.
FORUM_IDS = ("月下独酌", "kevin2014", "狗狗静电", "實習警花")
FORUM_PLAYERS = (*PLAYERS[:3], *FORUM_IDS)
SNIPER_HAND = ["庶民", "狙击手", "保镖", "庶民", "杀手"]
ROOT = Path(__file__).resolve().parents[2]


def bare(data: dict) -> dict:
    """The parser's output object without its additions (span, candidates)."""
    return {
        "inputs": [{k: v for k, v in i.items() if k != "span"} for i in data["inputs"]],
        "refusals": [{k: v for k, v in r.items() if k in ("text", "reason")} for r in data["refusals"]],
    }


def night(text: str, hand=SNIPER_HAND, players=FORUM_PLAYERS, sender="月下独酌") -> dict:
    return bare(parse_pm(text, sender=sender, players=players, hand=hand).to_json())


# ------------------------------------------------------------------------------------------------ the API


def test_the_result_is_a_frozen_dataclass_whose_json_has_the_parser_md_keys_plus_span_candidates_and_notes():
    result = parse_pm("狙击 小明", sender="张三", players=FORUM_PLAYERS, hand=SNIPER_HAND)
    assert isinstance(result, ParseResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.inputs = ()  # type: ignore[misc]
    data = result.to_json()
    assert set(data) == {"inputs", "refusals", "notes"}
    assert all(
        {"text", "reason"} <= set(r) <= {"text", "reason", "span", "candidates", "input"} for r in data["refusals"]
    )
    assert all({"text", "reason", "span"} <= set(n) <= {"text", "reason", "span", "with_input"} for n in data["notes"])
    json.dumps(data, ensure_ascii=False)


def test_the_parser_package_imports_no_django():
    code = "import sys, moderator.parser; sys.exit(any(m.split('.')[0] == 'django' for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_it_rejects_an_unknown_phase_and_an_unknown_card_in_the_hand():
    with pytest.raises(ValueError):
        parse_pm("狙击 张三", sender="李四", players=FORUM_PLAYERS, hand=SNIPER_HAND, phase="dusk")
    with pytest.raises(ValueError):
        parse_pm("狙击 张三", sender="李四", players=FORUM_PLAYERS, hand=["大炮"])


def test_it_accepts_a_hand_written_with_card_aliases():
    data = night("反狙击", hand=["庶民", "禁锢/反狙击手"])
    assert data["inputs"] == [{"card": "禁锢/反狙击", "use": "反狙击"}]


def test_parse_vote_reads_only_the_vote_of_a_post_d1():
    result = parse_vote("投王五。他昨晚肯定狙击了李四", sender="张三", players=FORUM_PLAYERS)
    assert bare(result.to_json()) == {"inputs": [{"for": "王五"}], "refusals": []}


def test_parse_vote_refuses_a_conditional_vote_d3():
    result = parse_vote("如果王五不跳就投王五", sender="张三", players=FORUM_PLAYERS).to_json()
    assert result["inputs"] == []
    assert "D3" in result["refusals"][0]["reason"]


def test_parse_vote_says_what_is_accepted_when_there_is_no_vote():
    result = parse_vote("大家好", sender="张三", players=FORUM_PLAYERS).to_json()
    assert result["inputs"] == [] and "投" in result["refusals"][0]["reason"]


# ------------------------------------------------------------------------------------------------ names


def test_it_matches_a_name_exactly_then_by_a_unique_prefix_then_fuzzily():
    book = NameBook(FORUM_PLAYERS, "张三")
    assert book.resolve("李四").how == "exact"
    assert book.resolve("狗狗").name == "狗狗静电"
    assert book.resolve("月下独酒").name == "月下独酌"
    assert book.resolve("月下独酒").how == "fuzzy"


def test_it_does_not_pick_a_player_by_one_character():
    book = NameBook(["光头强", "李四"], "x")
    assert book.resolve("光").name is None
    assert night("杀光", players=["光头强", "李四"])["inputs"] == []


def test_it_refuses_a_guess_when_two_names_are_equally_close():
    book = NameBook(["张三丰", "张三风"], "x")
    res = book.resolve("张三峰")
    assert res.name is None
    assert set(res.candidates) == {"张三丰", "张三风"}
    assert "最接近的是:" in book.refusal("张三峰", res)


def test_the_refusal_for_an_unknown_player_names_the_closest_ones():
    data = night("狙击 张山")
    assert data["refusals"] == [{"text": "狙击 张山", "reason": "没有叫“张山”的玩家;最接近的是:张三"}]


def test_a_traditional_chinese_player_name_matches_both_ways():
    assert night("狙击 實習警花")["inputs"][0]["target"] == "實習警花"
    assert night("狙击 实习警花")["inputs"][0]["target"] == "實習警花"
    assert night("狙击 李四", players=["李四", "張三"])["inputs"][0]["target"] == "李四"
    assert night("狙擊張三", players=["李四", "张三"])["inputs"][0]["target"] == "张三"


def test_an_edit_distance_counts_a_swap_of_neighbours_as_one():
    assert edit_distance("张三", "三张") == 1
    assert edit_distance("kevin", "kevni") == 1
    assert edit_distance("", "abc") == 3


def test_a_latin_name_is_not_found_inside_a_longer_word():
    book = NameBook(["bob", "李四"], "x")
    assert book.match_at("bobby", 0) is None
    assert book.match_at("狙击bob", 2) == (3, "bob")


# ------------------------------------------------------------------------------------------------ normalisation


def test_it_converts_traditional_chinese_with_opencc_and_full_width_with_nfkc():
    assert to_simplified("瞄準狙擊張三的倒數第二張") == "瞄准狙击张三的倒数第二张"
    assert normalise_word("ＫＥＶＩＮ２０１４") == "kevin2014"
    assert normalise_word("禁錮／反狙擊手") == "禁锢/反狙击手"


def test_it_removes_nested_quotes_and_keeps_the_players_own_characters():
    text = prepare("[quote]a[quote]狙击张三[/quote]b[/quote]殺人宣言：誰也逃不過")
    assert "狙击" not in text.norm and "张三" not in text.norm
    assert text.fragment(0, len(text.norm)) == "殺人宣言：誰也逃不過"


def test_it_ignores_lines_quoted_with_yinyong():
    data = parse_pm(
        "引用第3楼张三于2014-05-22发表的:狙击李四\n狙击王五", sender="x", players=FORUM_PLAYERS, hand=SNIPER_HAND
    ).to_json()
    assert [i["target"] for i in data["inputs"]] == ["王五"]


# ------------------------------------------------------------------------------------------------ rules at the edge


def test_an_aimed_shot_at_the_bottom_card_is_left_to_the_engine_but_a_sixth_card_is_refused_b3():
    assert night("瞄准狙击 张三 倒数第一张")["inputs"][0]["position"] == -1
    assert night("瞄准狙击 张三 第5张")["inputs"][0]["position"] == 5
    refused = night("瞄准狙击 张三 倒数第六张")
    assert refused["inputs"] == [] and "超出了手牌数" in refused["refusals"][0]["reason"]


def test_the_hand_size_is_a_setting_b3():
    result = parse_pm("瞄准狙击 张三 第6张", sender="x", players=FORUM_PLAYERS, hand=SNIPER_HAND, hand_size=6)
    assert result.inputs[0]["position"] == 6


def test_a_commoner_bottom_card_is_left_to_the_engine_o2():
    data = night("丢牌顺序:杀手、保镖、狙击手、庶民、庶民")
    assert data["inputs"] == [{"order": ["杀手", "保镖", "狙击手", "庶民", "庶民"]}]


def test_a_one_commoner_order_keeps_the_second_commoner_next_to_it_o1():
    data = night("丢牌顺序:保镖、庶民、狙击手、杀手")
    assert data["inputs"] == [{"order": ["保镖", "庶民", "庶民", "狙击手", "杀手"]}]


def test_the_self_chosen_choice_has_no_card_s4():
    data = night("立场:杀手,一山不容二虎", hand=["庶民", "阿米巴"])
    assert data["inputs"] == [{"use": "立场", "side": "杀手", "mode": "独赢"}]


def test_a_stance_naming_both_sides_is_refused_s4():
    data = night("我选杀手和狼人,共赢", hand=["庶民", "阿米巴"])
    assert data["inputs"] == [] and "S4" in data["refusals"][0]["reason"]


def test_an_edited_vote_is_not_the_parsers_business_but_a_change_post_is_marked_d3():
    data = bare(parse_pm("改投 李四", sender="张三", players=FORUM_PLAYERS, hand=[], phase="day").to_json())
    assert data["inputs"] == [{"change": "李四"}]


# ------------------------------------------------------------------------------------------------ properties

SAFE_NAME_CHARS = (
    "王李赵钱孙周吴郑冯陈褚卫蒋沈韩杨朱秦尤许何吕施孔曹严华金魏陶姜明红丽伟芳娜敏静磊洋勇艳涛超張陳劉黃楊趙"
)
NAME = st.text(alphabet=SAFE_NAME_CHARS + "abcdefghijkmnopqrstuvwyzABCDEFGHJKLMN0123456789_", min_size=2, max_size=8)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300), st.lists(st.text(max_size=10), max_size=10), st.sampled_from(["night", "day"]))
def test_it_never_raises_on_arbitrary_text_and_always_answers(text, players, phase):
    result = parse_pm(text, sender="张三", players=players, hand=SNIPER_HAND, phase=phase)
    data = result.to_json()
    json.dumps(data, ensure_ascii=False)
    assert data["inputs"] or data["refusals"]
    if not data["inputs"]:
        assert all(r["reason"] for r in data["refusals"])


VOCABULARY = [
    *"狙击张三李四杀刀束魂治疗第二张倒数投票改如果或宣言:：，。、\n/> 0123456789號殺",
    *("[quote]", "[/quote]", "杀人宣言", "丢牌顺序", "瞄准狙击", "一击必杀", "共赢", "一山不容二虎", "改投", "自投"),
    *("底牌", "庶民", "阿米巴", "变形成", "其余随意", "x2", "两次", "3号", "自己", "引用", "理由"),
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(VOCABULARY), max_size=40).map("".join),
    st.lists(st.one_of(NAME, st.sampled_from(["张三", "杀手", "狙击", "3号", "", " "])), max_size=8),
    st.lists(st.sampled_from(list(catalogue.CARD_NAMES)), max_size=6),
    st.sampled_from(["night", "day"]),
)
def test_it_never_raises_on_messages_made_of_game_words(text, players, hand, phase):
    data = parse_pm(text, sender="张三", players=players, hand=hand, phase=phase).to_json()
    assert data["inputs"] or data["refusals"]
    for item in data["inputs"]:
        assert set(item) <= {"card", "use", "target", "position", "into", "side", "mode", "manifesto", "change"} | {
            "order",
            "for",
            "pass",
            "manifesto_spans",
            "span",
            "pronoun",  # the notes the preview shows (to_json's docstring)
            "inferred_use",
            "correction",
        }
        if "use" in item:
            assert item["use"] in catalogue.USES
        if "card" in item:
            assert item["card"] in hand
        if "order" in item:
            assert sorted(item["order"]) == sorted(hand)


@settings(max_examples=200, deadline=None)
@given(st.lists(NAME, min_size=1, max_size=8), st.data())
def test_any_player_name_written_exactly_or_in_simplified_chinese_is_found(names, data):
    keys = [normalise_word(n) for n in names]
    names = [n for n, k in zip(names, keys, strict=True) if keys.count(k) == 1]
    if not names:
        return
    name = data.draw(st.sampled_from(names))
    written = data.draw(st.sampled_from([name, to_simplified(name), name.upper()]))
    result = bare(parse_pm(f"狙击 {written}", sender="x", players=names, hand=["狙击手"]).to_json())
    assert result["inputs"] == [{"card": "狙击手", "use": "普通狙击", "target": name}]


@settings(max_examples=200, deadline=None)
@given(st.permutations(["庶民", "狙击手", "保镖", "庶民", "杀手"]), st.sampled_from(["、", ",", "，", " ", "→", ">"]))
def test_an_order_listing_the_whole_hand_comes_back_exactly_o1(order, sep):
    data = night("丢牌顺序:" + sep.join(order))
    assert data["inputs"] == [{"order": list(order)}]


# ------------------------------------------------------------------------------------------------ chatter

TABLE = ["王五", "赵六", "钱七", "孙八", "周九", "月下独酌", "狗狗静电"]
HANDS = {
    "killer": ["庶民", "狙击手", "保镖", "庶民", "杀手"],
    "wolf": ["庶民", "狼人", "束魂", "巫医", "庶民"],
    "cursed": ["庶民", "诅咒/庇佑", "禁锢/反狙击", "绝杀/特赦", "纵火/圣人"],
    "amoeba": ["庶民", "阿米巴", "束魂", "保镖", "庶民"],
    "none": [],
}
ORDERS = [
    ("狙击王五", "killer", "night"),
    ("瞄准狙击赵六倒数第二张", "killer", "night"),
    ("刀孙八,宣言:你们都得死", "killer", "night"),
    ("束魂孙八", "wolf", "night"),
    ("治疗自己", "wolf", "night"),
    ("诅咒周九两次", "cursed", "night"),
    ("禁锢赵六", "cursed", "night"),
    ("阿米巴变成绝杀", "amoeba", "night"),
    ("丢牌顺序:庶民、保镖、庶民、狙击手、杀手", "killer", "night"),
    ("投王五", "none", "day"),
    ("改投赵六", "none", "day"),
    ("诅咒孙八", "cursed", "day"),
]
# Sentences a player writes around an order that hold no privilege or vote of their own for the 天神.
CHATTER = [
    "王五肯定是狼人,大家别信他",
    "看了赵六投王五的理由,不太同意",
    "我怀疑周九会束魂孙八",
    "今晚不束魂赵六了",
    "『投王五』那帖我不认",
    "楼上说投孙八",
    "王五说:束魂孙八",
    "赵六太可疑了",
    "孙八晚安",
    "天神辛苦了",
    "大家投孙八吧",
    "周九你也小心点",
    "第一夜好紧张",
    "他昨天诅咒了我",
    "孙八说自己是狙击手",
    "王五诅咒了赵六两次",
    "「禁锢王五」这种话谁信",
    "狗狗静电昨晚被束魂了吧",
    "别咬我啊王五",
    "我是巫医,之前治疗过王五",
    "有人让我绝杀月下独酌",
    "赵六和周九谁是杀手?",
    "趙六肯定是殺手",
]


def _meant(data: dict) -> Counter:
    """The inputs as a multiset, without the span and the 杀人宣言 (chatter after an attack is its manifesto)."""
    return Counter(
        repr(sorted((k, v) for k, v in i.items() if k not in ("span", "manifesto", "manifesto_spans")))
        for i in data["inputs"]
    )


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(ORDERS),
    st.lists(st.sampled_from(CHATTER), max_size=3),
    st.lists(st.sampled_from(CHATTER), max_size=3),
    st.sampled_from(["。", "\n", "!", ";"]),
)
def test_sentences_that_order_nothing_never_add_an_input(order, before, after, sep):
    text, hand, phase = order
    alone = parse_pm(text, sender="钱七", players=TABLE, hand=HANDS[hand], phase=phase).to_json()
    mixed_text = sep.join([*before, text, *after])
    mixed = parse_pm(mixed_text, sender="钱七", players=TABLE, hand=HANDS[hand], phase=phase).to_json()
    assert not _meant(mixed) - _meant(alone), (mixed_text, mixed["inputs"])


def test_the_parse_pm_command_prints_spans_and_candidates_only_when_asked():
    def run(*flags: str) -> dict:
        args = [
            "manage.py",
            "parse_pm",
            "--players",
            "王五,赵六,钱七",
            "--sender",
            "钱七",
            "--hand",
            "庶民,禁锢/反狙击",
        ]
        done = subprocess.run(
            [sys.executable, *args, *flags, "赵六和王五太可疑了,今晚禁锢他"], cwd=ROOT, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    assert run()["refusals"][0].keys() == {"text", "reason"}
    refusal = run("--spans")["refusals"][0]
    assert refusal["candidates"] == ["王五", "赵六"] and refusal["span"] == [10, 15]
