"""The trace says what the engine did, under the clause RULES.md gives for it, and only that: a lost 阿米巴 does not
transform (M1); a 巫医 catch is N8; vote modifiers are arithmetic with who sent each (N13); an execution mentions the
保镖 only when the player holds one (B4); hits on a 保镖 that fell say so (B2); a pending execution card produces no
AP (AP2); a death by yesterday's execution shows the camp as a day death (V5); each 杀人宣言 has its own step (A2)."""

from __future__ import annotations

import yaml

from moderator.rules.scenario import load, trace
from votes.count import modify, modify_said

MANIFESTO = "月黑风高夜,杀人放火天。" * 9


def _trace(text: str) -> list[str]:
    return trace(load(yaml.safe_load(text)))


def test_m1_an_amoeba_lost_before_its_transformation_is_done_does_not_transform():
    lines = _trace(
        """
name: 阿米巴在变形完成前被处决丢掉
players:
  - {name: 甲, camp: 平民, hand: [阿米巴, 庶民, 庶民, 束魂]}
  - {name: 乙, camp: 杀手, hand: [庶民, 庶民, 杀手]}
  - {name: 丙, camp: 平民, hand: [庶民, 防弹衣/狼毒, 巫医]}
  - {name: 丁, camp: 狼人, hand: [庶民, 庶民, 庶民, 狼人]}
phases:
  - night: 1
    actions:
      - {by: 甲, card: 阿米巴, use: 变形, into: 巫医}
  - day: 1
    votes: [{by: 甲, for: 甲}, {by: 乙, for: 甲}, {by: 丙, for: 甲}, {by: 丁, for: 甲}]
  - night: 2
"""
    )
    m1 = [line for line in lines if line.startswith("M1 变形:")]
    assert m1 == ["M1 变形:甲变为巫医的阿米巴在变形完成之前已经丢掉,没有变形"], m1


def test_n8_a_healing_that_catches_a_werewolf_attack_is_n8_and_the_saved_line_too():
    lines = _trace(
        f"""
name: 巫医接住狼人的普通攻击
players:
  - {{name: 甲, camp: 平民, hand: [庶民, 巫医]}}
  - {{name: 乙, camp: 平民, hand: [庶民, 束魂]}}
  - {{name: 丁, camp: 狼人, hand: [庶民, 狼人]}}
phases:
  - night: 1
    actions:
      - {{by: 丁, card: 狼人, use: 普通攻击, target: 乙, manifesto: "{MANIFESTO}"}}
      - {{by: 甲, card: 巫医, use: 治疗, target: 乙}}
"""
    )
    caught = [line for line in lines if "抓到了" in line]
    assert caught and all(line.startswith("N8 ") for line in caught), caught
    assert "N8 救活:乙昨夜被救活,公布;今天可以讨论,不能投票(D1)" in lines


def test_n13_modifiers_are_shown_as_arithmetic_with_who_sent_each():
    mods = [("恶毒诅咒", "李朗"), ("虔诚庇佑", "东来"), ("诅咒", "阿飞")]
    assert modify_said(9, mods) == "9 ×2(李朗 恶毒诅咒)= 18 → ÷2(东来 虔诚庇佑)= 9 → +1(阿飞 诅咒)= 10"
    assert modify(9, [u for u, _ in mods]) == 10
    assert modify_said(1, [("庇佑", "甲"), ("庇佑", "乙")]) == "1 −1(甲 庇佑)= 0 → −1(乙 庇佑)= -1 → 不低于 0:0"
    assert modify(1, ["庇佑", "庇佑"]) == 0


def test_n13_a_night_curse_is_counted_the_next_day_under_the_name_of_who_sent_it():
    lines = _trace(
        """
name: 夜里的诅咒计入明天
players:
  - {name: 甲, camp: 平民, hand: [庶民, 诅咒/庇佑]}
  - {name: 乙, camp: 杀手, hand: [庶民, 庶民, 杀手]}
  - {name: 丙, camp: 平民, hand: [庶民, 巫医]}
phases:
  - night: 1
    actions:
      - {by: 甲, card: 诅咒/庇佑, use: 恶毒诅咒, target: 乙}
  - day: 1
    votes: [{by: 甲, for: 乙}, {by: 乙, for: 丙}, {by: 丙, for: 乙}]
"""
    )
    assert "N13 修正:乙得票 4 ×2(甲 恶毒诅咒)= 8 票" in lines, [x for x in lines if x.startswith("N13")]


def test_b4_an_execution_names_the_bodyguard_only_for_a_player_who_holds_one():
    lines = _trace(
        """
name: 处决与保镖
start: day 1
players:
  - {name: 甲, camp: 平民, hand: [庶民, 保镖, 巫医]}
  - {name: 乙, camp: 杀手, hand: [庶民, 庶民, 杀手]}
  - {name: 丙, camp: 平民, hand: [庶民, 巫医, 束魂]}
  - {name: 丁, camp: 平民, hand: [庶民, 束魂, 巫医]}
phases:
  - day: 1
    votes: [{by: 甲, for: 丙}, {by: 乙, for: 甲}, {by: 丙, for: 甲}, {by: 丁, for: 丙}]
"""
    )
    d6 = {line.split("丢掉")[0]: line for line in lines if line.startswith("D6 处决:")}
    assert "保镖" in d6["D6 处决:甲"] and "B4" in d6["D6 处决:甲"]
    assert "保镖" not in d6["D6 处决:丙"] and "B4" not in d6["D6 处决:丙"]


def test_b2_the_hit_that_helped_fell_the_bodyguard_is_not_said_to_be_stopped_by_it():
    lines = _trace(
        f"""
name: 两种攻击打倒保镖
players:
  - {{name: 甲, camp: 杀手, hand: [庶民, 狙击手, 杀手]}}
  - {{name: 乙, camp: 平民, hand: [保镖, 庶民, 束魂]}}
  - {{name: 丁, camp: 狼人, hand: [庶民, 狼人]}}
phases:
  - night: 1
    actions:
      - {{by: 甲, card: 杀手, use: 普通攻击, target: 乙, manifesto: "{MANIFESTO}"}}
      - {{by: 丁, card: 狼人, use: 普通攻击, target: 乙, manifesto: "{MANIFESTO}"}}
"""
    )
    assert not any("保镖挡住,或牌已丢完" in line for line in lines)
    about = [line for line in lines if line.startswith(("B1 ", "B2 ")) and "乙" not in line.split(":")[0]]
    assert any(line.startswith("B2 保镖:") and "打倒了保镖" in line for line in about), lines


def test_ap2_and_v5_a_pending_execution_card_gives_no_ap_and_its_death_at_dawn_shows_the_camp():
    lines = _trace(
        """
name: 最后一张牌被处决
start: day 1
players:
  - {name: 甲, camp: 杀手, hand: [庶民, 杀手]}
  - {name: 乙, camp: 平民, hand: [巫医]}
  - {name: 丙, camp: 平民, hand: [庶民, 庶民, 巫医]}
  - {name: 丁, camp: 狼人, hand: [庶民, 狼人]}
phases:
  - day: 1
    votes: [{by: 甲, for: 乙}, {by: 乙, for: 乙}, {by: 丙, for: 乙}, {by: 丁, for: 乙}]
  - night: 2
"""
    )
    assert any(line.startswith("AP2 行动点数:乙昨天被处决丢掉的巫医") and "不产生行动点数" in line for line in lines)
    death = next(line for line in lines if line.startswith("V5 死亡:乙"))
    assert "仍算白天死亡,公布身份:平民" in death


def test_a2_each_manifesto_has_its_own_step_naming_its_author():
    lines = _trace(
        f"""
name: 两篇杀人宣言
players:
  - {{name: 甲, camp: 杀手, hand: [庶民, 庶民, 杀手]}}
  - {{name: 乙, camp: 平民, hand: [庶民, 庶民, 束魂]}}
  - {{name: 丁, camp: 狼人, hand: [庶民, 庶民, 狼人]}}
phases:
  - night: 1
    actions:
      - {{by: 甲, card: 杀手, use: 普通攻击, target: 乙, manifesto: "{MANIFESTO}"}}
      - {{by: 丁, card: 狼人, use: 普通攻击, target: 甲, manifesto: "{MANIFESTO}"}}
"""
    )
    a2 = [line for line in lines if line.startswith("A2 ")]
    assert len(a2) == 2 and "甲的普通攻击(对 乙)" in a2[0] and "丁的普通攻击(对 甲)" in a2[1], a2
