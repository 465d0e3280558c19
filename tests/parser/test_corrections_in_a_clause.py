"""A correction that names only a player (PARSER.md, "self-correction inside one message": the corrected reading
counts and the first is dropped) is read from its own clause, so an act written after it — after a comma or a full
stop — is an act of its own and never keeps the first target; in a vote post the corrected vote counts. Its
counter-example: a correction written as a whole act, and 不对 that is someone's opinion (他说的不对), stay as they
are."""

from __future__ import annotations

import pytest

from moderator.parser import parse_pm, parse_vote

PLAYERS = ["张三", "李四", "王五", "赵六", "钱七"]
HAND = ["束魂", "巫医", "诅咒/庇佑", "庶民", "庶民"]
BIND = {"card": "束魂", "use": "束魂"}
HEAL = {"card": "巫医", "use": "治疗"}


def read(text: str, phase: str = "night") -> list[dict]:
    if phase == "vote":
        got = parse_vote(text, sender="钱七", players=PLAYERS).to_json()
    else:
        got = parse_pm(text, sender="钱七", players=PLAYERS, hand=HAND, phase=phase).to_json()
    assert not got["refusals"], got["refusals"]
    return [{k: v for k, v in i.items() if k not in ("span", "correction")} for i in got["inputs"]]


@pytest.mark.parametrize(
    "text",
    [
        "束魂张三,不对,是李四,治疗王五",
        "束魂张三,不对,是李四。治疗王五",
        "束魂张三啊不对打错了,是李四,治疗王五",
        "束魂张三,不对,是李四\n治疗王五",
    ],
)
def test_a_correction_naming_a_player_replaces_the_first_target_when_an_act_follows_it(text):
    assert read(text) == [{**BIND, "target": "李四"}, {**HEAL, "target": "王五"}]


@pytest.mark.parametrize(
    "text,phase",
    [
        ("投张三,不对,是李四", "vote"),
        ("投张三。不对,是李四", "vote"),
        ("投张三,不对,是李四,天神辛苦啦", "vote"),
        ("我投张三啊不对打错了,是李四", "vote"),
        ("投张三,不对,是李四,天神辛苦啦", "day"),
    ],
)
def test_a_correction_in_a_vote_post_gives_the_corrected_vote(text, phase):
    assert read(text, phase) == [{"for": "李四"}]


def test_a_correction_written_as_a_whole_act_and_an_act_after_it_stay_as_they_are():
    assert read("治疗张三,哦不对,治疗李四,束魂王五") == [{**HEAL, "target": "李四"}, {**BIND, "target": "王五"}]


def test_a_correction_whose_words_were_not_read_refuses_what_it_corrects_whatever_follows_it():
    got = parse_pm("束魂张三,不对,李四\n治疗王五", sender="钱七", players=PLAYERS, hand=HAND).to_json()
    assert [{k: v for k, v in i.items() if k != "span"} for i in got["inputs"]] == [{**HEAL, "target": "王五"}]
    assert any("“束魂张三”没有录入" in r["reason"] for r in got["refusals"]), got["refusals"]


def test_no_correction_where_not_right_is_someone_elses_opinion():
    assert read("束魂张三,他说的不对,治疗李四") == [{**BIND, "target": "张三"}, {**HEAL, "target": "李四"}]
