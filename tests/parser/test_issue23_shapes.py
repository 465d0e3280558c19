"""Issue 23 shapes the corpus checks only for their inputs: here what else the 天神 sees — no spurious "没读懂" note
beside an order read correctly, and a vote for an unknown name refused with its candidates (never guessed)."""

from __future__ import annotations

import pytest

from moderator.parser import parse_pm, parse_vote

PLAYERS = ["王五", "赵六", "钱七", "孙八", "小白兔", "月下独酌"]
HANDS = {
    "cursed": ["庶民", "诅咒/庇佑", "禁锢/反狙击", "绝杀/特赦", "纵火/圣人"],
    "killer": ["庶民", "狙击手", "保镖", "庶民", "杀手"],
    "amoeba": ["庶民", "阿米巴", "束魂", "保镖", "庶民"],
}


@pytest.mark.parametrize(
    ("hand", "text", "use"),
    [
        ("cursed", "诅咒王五。最后一张牌了", "诅咒"),
        ("cursed", "诅咒王五。唉,最后一张牌了,随缘吧", "诅咒"),
        ("cursed", "詛咒王五。最後一張牌了", "诅咒"),
        ("killer", "杀王五,明天再补一刀", "普通攻击"),
        ("amoeba", "束魂王五。变形后的阿米巴好强", "束魂"),
        ("amoeba", "束魂王五!变形后的阿米巴好强啊~", "束魂"),
    ],
)
def test_plain_chatter_beside_an_order_leaves_no_not_understood_note(hand, text, use):
    result = parse_pm(text, sender="钱七", players=PLAYERS, hand=HANDS[hand]).to_json()
    assert [(i["use"], i["target"]) for i in result["inputs"]] == [(use, "王五")]
    assert result["refusals"] == []


@pytest.mark.parametrize("text", ["投大白兔", "投票:大白兔", "vote 大白兔", "投 大白兔,理由见楼上", "ＶＯＴＥ 大白兔"])
def test_a_vote_for_an_unknown_name_is_refused_with_the_candidates_never_guessed_d1(text):
    result = parse_vote(text, sender="王五", players=PLAYERS).to_json()
    assert result["inputs"] == []
    [refusal] = result["refusals"]
    assert refusal["candidates"] == ["小白兔"] and "没有叫“大白兔”的玩家" in refusal["reason"]


def test_the_vote_reader_and_the_pm_reader_flag_the_same_unknown_name_alike():
    vote = parse_vote("投大白兔", sender="王五", players=PLAYERS).to_json()["refusals"][0]
    pm = parse_pm("诅咒大白兔", sender="钱七", players=PLAYERS, hand=HANDS["cursed"]).to_json()["refusals"][0]
    assert vote["reason"] == pm["reason"] and vote["candidates"] == pm["candidates"]
