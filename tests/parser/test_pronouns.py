"""A 他 / 她 with exactly one antecedent player named before it in the message is that player (the input carries
"pronoun" for the preview), in a PM and a vote post (D1) alike; with two or more candidates it is refused naming them
(docs/parser.md, "Pronouns")."""

from __future__ import annotations

import pytest

from moderator.parser import parse_pm, parse_vote
from tests.world import PLAYERS

JAILER = ["庶民", "禁锢/反狙击", "巫医", "束魂", "庶民"]


def night(text: str) -> dict:
    return parse_pm(text, sender="钱七", players=PLAYERS, hand=JAILER).to_json()


def seen(got: dict) -> tuple[list[dict], list[tuple[str, list[str]]]]:
    """The inputs and the refusals (with their candidates) the 天神 sees."""
    inputs = [{k: v for k, v in i.items() if k != "span"} for i in got["inputs"]]
    return inputs, [(r["text"], r.get("candidates", [])) for r in got["refusals"]]


@pytest.mark.parametrize("connective", ["所以", "但", "但是", "因此", "可是", "不过"])
def test_a_connective_at_the_start_of_the_clause_leaves_the_pronoun_its_one_antecedent(connective):
    got = night(f"王五很可疑,{connective}今晚禁锢他")
    assert seen(got) == ([{"card": "禁锢/反狙击", "use": "禁锢", "target": "王五", "pronoun": "他"}], [])


def test_after_a_connective_a_pronoun_with_two_antecedents_is_still_refused_naming_both():
    inputs, refusals = seen(night("王五和赵六都很可疑,所以今晚禁锢他"))
    assert inputs == [] and refusals == [("所以今晚禁锢他", ["赵六", "王五"])]


def vote(text: str) -> dict:
    return parse_vote(text, sender="钱七", players=PLAYERS).to_json()


@pytest.mark.parametrize("text", ["赵六太可疑了,投他", "我怀疑赵六,我投他", "赵六发言前后矛盾,所以这票投他"])
def test_a_vote_for_a_pronoun_with_one_antecedent_is_the_vote_for_that_player_and_says_so(text):
    assert seen(vote(text)) == ([{"for": "赵六", "pronoun": "他"}], [])


def test_a_change_of_vote_to_a_pronoun_with_one_antecedent_is_the_change_to_that_player():
    assert seen(vote("赵六一直在带节奏,改投他")) == ([{"change": "赵六", "pronoun": "他"}], [])


def test_a_vote_for_a_pronoun_with_two_antecedents_is_refused_naming_both_with_the_vote_choosing_one_gives():
    got = vote("赵六和孙八都很可疑,投他")
    assert seen(got) == ([], [("赵六和孙八都很可疑,投他", ["孙八", "赵六"])])
    assert got["refusals"][0]["input"] == {"for": None}
    assert "“他”指的是谁?前面提到的是:孙八、赵六" in got["refusals"][0]["reason"]


@pytest.mark.parametrize("text", ["投他", "投他,赵六很可疑", "赵六太可疑了,投他。孙八也可疑"])
def test_a_vote_for_a_pronoun_with_no_antecedent_or_another_player_named_is_refused(text):
    inputs, refusals = seen(vote(text))
    assert inputs == [] and len(refusals) == 1 and "“他”指的是谁?" in vote(text)["refusals"][0]["reason"]


def test_a_day_post_reads_the_vote_for_a_pronoun_as_the_vote_reader_does():
    got = parse_pm("我怀疑赵六,投他", sender="钱七", players=PLAYERS, hand=JAILER, phase="day").to_json()
    assert seen(got) == ([{"for": "赵六", "pronoun": "他"}], [])
