"""A vote corrected by writing it again after a correction marker (docs/parser.md, "Corrections and changes in one
message"): the corrected vote counts, the preview says which words it replaced; two votes with no marker between
them are still refused naming both (D3)."""

from __future__ import annotations

import pytest

from moderator.parser import parse_pm, parse_vote
from tests.world import PLAYERS


def vote(text: str) -> dict:
    return parse_vote(text, sender="钱七", players=PLAYERS).to_json()


def seen(got: dict) -> tuple[list[dict], list[str]]:
    return [{k: v for k, v in i.items() if k != "span"} for i in got["inputs"]], [r["reason"] for r in got["refusals"]]


@pytest.mark.parametrize(
    "text,replaced",
    [
        ("投赵六,哦不对,投李四", "投赵六"),
        ("这票投赵六,哦不对,这票投李四", "这票投赵六"),
        ("我投赵六。更正:我投李四", "我投赵六"),
        ("投票:赵六,哦不对,投票:李四", "投票:赵六"),
        ("票给赵六。更正:票给李四", "票给赵六"),
    ],
)
def test_a_vote_written_again_after_a_correction_is_the_vote_and_the_words_it_replaced_are_shown(text, replaced):
    got = vote(text)
    assert seen(got) == ([{"for": "李四", "correction": replaced}], [])
    assert {"text": replaced, "reason": f"“{replaced}”被后面的更正取代,没有录入"} in [
        {k: n[k] for k in ("text", "reason")} for n in got["notes"]
    ]


def test_a_misspelt_vote_corrected_by_a_vote_for_a_player_is_that_vote():
    assert seen(vote("投赵八,哦不对,投李四")) == ([{"for": "李四", "correction": "投赵八"}], [])


def test_two_votes_with_no_correction_between_them_are_still_refused_naming_both():
    assert seen(vote("投赵六,投李四")) == ([], ["这条投票指向了好几个人:赵六、李四;投票只能明确投一个人(D3)"])


def test_a_correction_followed_by_someone_elses_vote_replaces_nothing():
    inputs, _ = seen(vote("投赵六,哦不对,王五说投李四"))
    assert {"for": "李四"} not in [{k: v for k, v in i.items() if k != "correction"} for i in inputs]


def test_a_day_post_reads_a_corrected_vote_as_the_vote_reader_does():
    got = parse_pm("投赵六,哦不对,投李四", sender="钱七", players=PLAYERS, hand=["庶民"], phase="day").to_json()
    assert seen(got) == ([{"for": "李四", "correction": "投赵六"}], [])


@pytest.mark.parametrize("text", ["投张三,不对,是李四,王五", "投张三,哦不对,投李四,王五", "投张三,不对,李四、王五"])
def test_a_name_left_over_after_a_corrected_vote_refuses_it_naming_both_readings(text):
    got = vote(text)
    assert [i for i in got["inputs"] if "for" in i] == []
    refusal = next(r for r in got["refusals"] if r.get("candidates"))
    assert (refusal["candidates"], refusal["input"]) == (["李四", "王五"], {"for": None})
    assert refusal["reason"].startswith("更正后写了李四,后面又写了王五:投的是哪一个不清楚")


def test_a_corrected_vote_followed_by_talk_about_another_player_is_the_corrected_vote():
    assert seen(vote("投张三,不对,是李四,王五很可疑")) == ([{"for": "李四", "correction": "投张三"}], [])


def test_a_name_left_over_after_a_corrected_privilege_refuses_it_naming_both_readings():
    got = parse_pm("束魂张三,不对,是李四,王五", sender="钱七", players=PLAYERS, hand=["束魂", "巫医"]).to_json()
    assert got["inputs"] == []
    assert [(r["candidates"], r["input"]) for r in got["refusals"]] == [
        (["李四", "王五"], {"card": "束魂", "use": "束魂", "target": None})
    ]


def test_a_corrected_privilege_followed_by_an_act_on_another_player_keeps_both():
    got = parse_pm("束魂张三,不对,是李四,治疗王五", sender="钱七", players=PLAYERS, hand=["束魂", "巫医"]).to_json()
    assert [(i["use"], i["target"]) for i in got["inputs"]] == [("束魂", "李四"), ("治疗", "王五")]
    assert got["refusals"] == []


def test_a_tally_after_a_corrected_privilege_leaves_the_correction_as_it_is():
    got = parse_pm("治疗李四,哦不对,治疗王五,孙八、赵六各一票", sender="钱七", players=PLAYERS, hand=["巫医"]).to_json()
    assert [(i["use"], i["target"]) for i in got["inputs"]] == [("治疗", "王五")] and got["refusals"] == []


SNIPER = ["狙击手", "杀手", "庶民"]


@pytest.mark.parametrize("position,value", [("第一张", 1), ("倒数第五张", -5)])
def test_a_correction_marker_ends_the_clause_of_an_aimed_shots_position_after_a_comma(position, value):
    text = f"瞄准狙击李四,{position}啊不对打错了,是王五"
    got = parse_pm(text, sender="钱七", players=PLAYERS, hand=SNIPER).to_json()
    assert seen(got) == (
        [
            {
                "card": "狙击手",
                "use": "瞄准狙击",
                "target": "王五",
                "position": value,
                "correction": f"瞄准狙击李四,{position}",
            }
        ],
        [],
    )


def test_a_correction_marker_after_an_attack_is_never_published_as_its_manifesto():
    got = parse_pm("杀王五 你的死期到了 啊不对打错了,是李四", sender="钱七", players=PLAYERS, hand=SNIPER).to_json()
    assert [(i["target"], i["manifesto"]) for i in got["inputs"]] == [("李四", "你的死期到了")]


def test_a_position_clause_that_says_more_than_a_correction_still_does_not_join_the_shot():
    got = parse_pm("瞄准狙击李四,第一张好像不对", sender="钱七", players=PLAYERS, hand=SNIPER).to_json()
    assert got["inputs"] == []


def test_a_vote_for_a_misspelt_name_corrected_by_a_bare_player_is_the_vote_for_that_player():
    assert seen(vote("投票:赵八,不对,是李四")) == ([{"for": "李四", "correction": "投票:赵八"}], [])


def test_a_signature_after_a_corrected_privilege_leaves_the_correction_as_it_is():
    got = parse_pm("禁锢孙八,哦不对,禁锢王五\n—— 钱七", sender="钱七", players=PLAYERS, hand=["禁锢/反狙击"]).to_json()
    assert [(i["use"], i["target"]) for i in got["inputs"]] == [("禁锢", "王五")]
    assert not any(r.get("candidates") for r in got["refusals"])


def test_a_name_on_the_line_after_a_corrected_vote_is_no_reading_of_the_correction():
    assert seen(vote("投张三,不对,是李四\n王五")) == ([{"for": "李四", "correction": "投张三"}], [])
