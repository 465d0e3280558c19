"""A 他 / 她 with exactly one antecedent player named before it in the message is that player (the input carries
"pronoun" for the preview); with two or more candidates it is refused naming them (docs/parser.md, "Pronouns")."""

from __future__ import annotations

import pytest

from moderator.parser import parse_pm
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
