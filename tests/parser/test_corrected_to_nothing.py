"""A correction marker right after an act, with no correction read after it ("治疗赵六,哦不对"): the sender took the
act back without saying what it should be, so it is not entered (a privilege, or a vote: D1); it is refused naming
the act, for the 天神 to ask. A correction that is read, a cancel after the marker, or a marker in a later sentence
about something else keep their own readings (docs/parser.md, "Corrections and changes in one message")."""

from __future__ import annotations

import pytest

from moderator.parser import parse_pm, parse_vote
from tests.world import PLAYERS

HAND = ["庶民", "巫医", "庶民", "庶民", "庶民"]


def night(text: str) -> dict:
    return parse_pm(text, sender="钱七", players=PLAYERS, hand=HAND).to_json()


def vote(text: str) -> dict:
    return parse_vote(text, sender="钱七", players=PLAYERS).to_json()


def targets(got: dict) -> list[str | None]:
    return [i.get("target") or i.get("for") for i in got["inputs"]]


@pytest.mark.parametrize(
    "read,text,act",
    [
        (night, "治疗赵六,哦不对", "治疗赵六"),
        (night, "治疗赵六。不对。", "治疗赵六"),
        (night, "治疗赵六,哦不对,王五说治疗李四", "治疗赵六"),  # what follows is someone else's words
        (vote, "投赵六,哦不对", "投赵六"),
        (vote, "投赵六,哦不对,王五说投李四", "投赵六"),
    ],
)
def test_an_act_corrected_to_nothing_is_refused_naming_it(read, text, act):
    got = read(text)
    assert got["inputs"] == []
    (refusal,) = got["refusals"]
    assert refusal["reason"].startswith(f"“{act}”后面写了“") and f"“{act}”没有录入" in refusal["reason"]


@pytest.mark.parametrize(
    "read,text,meant",
    [
        (night, "治疗赵六,哦不对,治疗李四", ["李四"]),
        (vote, "投赵六,哦不对,投李四", ["李四"]),
        (night, "治疗赵六,哦不对,是李四", ["李四"]),
    ],
)
def test_a_correction_that_is_read_is_the_act(read, text, meant):
    got = read(text)
    assert targets(got) == meant and got["refusals"] == []


def test_a_cancel_after_the_marker_says_it_is_cancelled():
    got = vote("投赵六,哦不对,算了")
    assert got["inputs"] == [] and [r["reason"] for r in got["refusals"]] == ["“投赵六”被后面的“算了”取消了,没有录入"]


def test_a_marker_sentences_later_about_something_else_leaves_the_act():
    got = night("治疗赵六。\n昨天白天的发言很抱歉。\n我上次数票说错了,大家别介意。")
    assert targets(got) == ["赵六"]
