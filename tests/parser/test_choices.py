"""A refusal about whom a privilege is for carries the input choosing a candidate would give (the 天神's
one-click choice); the raw text is never rewritten, and nothing is chosen by the parser."""

from __future__ import annotations

from moderator.parser import parse_pm
from tests.world import TABLE_NAMES

KILLER = ["庶民", "庶民", "狙击手", "保镖", "杀手"]
MANIFESTO = "夜色如墨,长安城里灯火渐熄,我的刀已经出鞘,今夜必有一人付出代价。" * 4


def refusals(text: str) -> list[dict]:
    data = parse_pm(text, sender="甲", players=TABLE_NAMES, hand=KILLER).to_json()
    assert data["inputs"] == []
    return data["refusals"]


def test_a_pronoun_refusal_carries_the_attack_it_would_be_and_its_manifesto_n_kill():
    [r] = refusals(f"乙和丙都很可疑,今晚杀他。杀人宣言:{MANIFESTO}")
    assert r["candidates"] == ["丙", "乙"]
    assert r["input"] == {"card": "杀手", "use": "普通攻击", "target": None, "manifesto": MANIFESTO}


def test_one_of_two_names_carries_the_shot_and_an_aimed_shot_keeps_its_position_b3():
    [alt] = refusals("狙击乙或丙")
    assert alt["input"] == {"card": "狙击手", "use": "普通狙击", "target": None}
    [aimed] = refusals("乙和丙很烦。瞄准狙击他 第2张")
    assert aimed["input"] == {"card": "狙击手", "use": "瞄准狙击", "target": None, "position": 2}


def test_a_refusal_without_candidates_or_without_a_privilege_carries_no_input():
    assert "input" not in refusals("瞄准狙击他 第2张")[0]  # nobody named before 他
    assert all("input" not in r for r in refusals("乙"))  # a name, no privilege


def test_a_clear_attack_keeps_its_manifesto_when_an_unclear_one_comes_first_n_kill():
    """Review finding: the 宣言 went to the refused shot's input, and the clear attack on 乙 was then judged with
    none (N-kill would refuse it although the player wrote one)."""
    data = parse_pm(f"普通狙击丙或丁。宣言:{MANIFESTO}\n普通攻击乙。", sender="甲", players=TABLE_NAMES, hand=KILLER)
    [attack] = data.to_json()["inputs"]
    assert attack["target"] == "乙" and attack["manifesto"] == MANIFESTO
    [shot] = data.to_json()["refusals"]
    assert shot["candidates"] == ["丙", "丁"] and "manifesto" not in shot["input"]


def test_a_privilege_written_after_an_attack_is_shown_not_swallowed_by_its_manifesto():
    """The free text after an attack is its 杀人宣言; a second privilege there whose target is unclear was taken as
    宣言 and silently dropped. It is still counted as 宣言 (as written) but refused with its candidates."""
    data = parse_pm("普通攻击乙。普通狙击丙或丁。", sender="甲", players=TABLE_NAMES, hand=KILLER).to_json()
    assert [i["target"] for i in data["inputs"]] == ["乙"]
    [r] = data["refusals"]
    assert r["candidates"] == ["丙", "丁"] and "已算作杀人宣言" in r["reason"]
    assert r["input"] == {"card": "狙击手", "use": "普通狙击", "target": None}
