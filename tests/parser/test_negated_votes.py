"""A vote post whose vote word casts no vote (不投X, 别投X, 没投X, 投了X, 大家投X) is no vote for X (D1; PARSER.md,
"a vote post with reasons": refuse only where the post's own vote is unclear). Its counter-example: a post that is
only a name is a vote for that player, and the sender's own vote beside a negated one stands."""

from __future__ import annotations

import pytest

from moderator.parser import parse_vote

PLAYERS = ["张三", "李四", "王五", "赵六", "钱七"]


def read(text: str) -> dict:
    got = parse_vote(text, sender="钱七", players=PLAYERS).to_json()
    return {"inputs": [{k: v for k, v in i.items() if k != "span"} for i in got["inputs"]], "refusals": got["refusals"]}


@pytest.mark.parametrize(
    "text", ["不投张三", "别投张三", "今天不投张三", "不要投张三", "没投张三", "投了张三", "大家投张三"]
)
def test_a_name_after_a_vote_word_that_casts_no_vote_is_refused_never_a_vote_for_it(text):
    got = read(text)
    assert got["inputs"] == []
    assert len(got["refusals"]) == 1 and "不是投票" in got["refusals"][0]["reason"], got["refusals"]
    assert "投 某某" in got["refusals"][0]["reason"]  # what would be accepted


@pytest.mark.parametrize("text", ["张三", "张三!", "张三吧"])
def test_a_post_that_is_only_a_name_is_still_a_vote_for_that_player(text):
    assert read(text) == {"inputs": [{"for": "张三"}], "refusals": []}


@pytest.mark.parametrize("text", ["不投张三,投李四", "别投张三。投李四"])
def test_the_senders_own_vote_beside_a_negated_one_stands(text):
    assert read(text) == {"inputs": [{"for": "李四"}], "refusals": []}
