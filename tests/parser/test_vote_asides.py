"""Vote posts (D1) whose vote word stands beside the sender's own aside or a description of the player voted for
(docs/parser.md, "Vote posts"): the vote is read; its counter-examples (a report, a description that names someone
else or no one) are still not."""

from __future__ import annotations

import pytest

from moderator.parser import parse_vote

PLAYERS = ["实习警花", "月下独酌", "月下美人", "张三丰", "李四", "李四海", "Kiki"]


def vote(text: str) -> tuple[list[dict], list[str]]:
    got = parse_vote(text, sender="实习警花", players=PLAYERS).to_json()
    return [{k: v for k, v in i.items() if k != "span"} for i in got["inputs"]], [r["reason"] for r in got["refusals"]]


@pytest.mark.parametrize(
    "text,player",
    [
        ("说实话,投李四", "李四"),
        ("反正说什么你们都不信 这票投给李四海", "李四海"),
        ("说真的这票投Kiki", "Kiki"),
    ],
)
def test_an_aside_with_说_that_reports_no_one_leaves_the_vote_beside_it(text, player):
    assert vote(text) == ([{"for": player}], [])


def test_a_report_of_someone_elses_words_is_still_no_vote_of_the_senders():
    inputs, _ = vote("李四说投Kiki")
    assert inputs == []


@pytest.mark.parametrize(
    "text,player", [("投那个自称杀手克星的月下美人", "月下美人"), ("投这位一直划水的Kiki", "Kiki")]
)
def test_a_description_between_the_vote_word_and_the_player_is_the_vote_for_that_player(text, player):
    assert vote(text) == ([{"for": player}], [])


@pytest.mark.parametrize("text", ["投那个说要杀李四的月下美人", "投那个自称杀手克星的"])
def test_a_description_that_names_someone_else_or_no_one_is_still_refused(text):
    inputs, refusals = vote(text)
    assert inputs == [] and len(refusals) == 1


@pytest.mark.parametrize("text", ["要不要投李四?", "投李四吗?", "投李四?"])
def test_a_vote_word_in_a_question_casts_no_vote_and_says_so(text):
    inputs, refusals = vote(text)
    assert inputs == [] and len(refusals) == 1 and "是个问句,没有当作投票" in refusals[0]


@pytest.mark.parametrize("text", ["投李四,大家觉得呢?", "要不要投Kiki?我投李四", "李四怎么样?投李四"])
def test_a_question_beside_the_vote_in_a_clause_of_its_own_leaves_the_vote(text):
    assert vote(text) == ([{"for": "李四"}], [])
