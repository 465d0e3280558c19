"""A tally of others' votes (阿飞、王五各一票) is one clause: not the sender's vote and no privilege's target, whichever
mark joins it to an act (PARSER.md, "a tally or report of other players' votes is not the sender's vote; the sender's
own vote in the same post still counts"). Its counter-examples: names after a privilege with no tally word are still
its targets, and a vote count after 票型 runs to the end of its sentence."""

from __future__ import annotations

import pytest

from moderator.parser import parse_pm, parse_vote

PLAYERS = ["张三", "李四", "王五", "赵六", "钱七"]
HAND = ["束魂", "巫医", "庶民", "庶民", "庶民"]
BIND = {"card": "束魂", "use": "束魂"}


def read(text: str, phase: str = "night") -> dict:
    if phase == "vote":
        got = parse_vote(text, sender="钱七", players=PLAYERS).to_json()
    else:
        got = parse_pm(text, sender="钱七", players=PLAYERS, hand=HAND, phase=phase).to_json()
    return {"inputs": [{k: v for k, v in i.items() if k != "span"} for i in got["inputs"]], "refusals": got["refusals"]}


@pytest.mark.parametrize("joint", [",", "。"])
@pytest.mark.parametrize("order", ["act first", "tally first"])
def test_a_tally_beside_a_privilege_adds_no_refusal_and_no_target_whichever_mark_joins_them(joint, order):
    parts = ["束魂张三", "李四、王五各一票"]
    text = joint.join(parts if order == "act first" else parts[::-1])
    assert read(text) == {"inputs": [{**BIND, "target": "张三"}], "refusals": []}


@pytest.mark.parametrize("phase", ["day", "vote"])
@pytest.mark.parametrize("text", ["李四、王五各一票,投张三", "李四、王五各一票。投张三", "投张三,李四、王五各一票"])
def test_the_senders_vote_beside_a_tally_counts(text, phase):
    assert read(text, phase) == {"inputs": [{"for": "张三"}], "refusals": []}


def test_a_message_that_is_only_a_tally_says_so():
    got = read("李四、王五各一票")
    assert got["inputs"] == [] and [r["reason"] for r in got["refusals"]] == [
        "“李四、王五各一票”是在数别人的票,不是投票,也不是指令"
    ]


def test_names_after_a_privilege_with_no_tally_word_are_still_its_targets():
    assert read("束魂张三,李四")["inputs"] == [{**BIND, "target": "张三"}, {**BIND, "target": "李四"}]


@pytest.mark.parametrize("phase", ["day", "vote"])
def test_a_vote_count_after_piaoxing_runs_to_the_end_of_its_sentence(phase):
    assert read("票型:李四投王五,张三投李四", phase)["inputs"] == []
