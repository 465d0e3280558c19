"""为什么 on the played game and on small closes: each step names who held the seat at that phase (S5); a line is
explained by the steps behind what it says (a pardon by N12, a quoted 杀人宣言 by its own step); each step's clause
is one docs/rules.md gives, and the clause that defines what the step is about (S4, N8, N14, O1/O3)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from played import played

from moderator.game.trace import CLAUSE, Trace
from moderator.models import Input, Phase
from moderator.rules.engine import end_phase, open_phase, start_game, submit_message
from moderator.rules.scenario import SeatSpec, by_message, load
from moderator.services import explain

pytestmark = pytest.mark.django_db
HERE = Path(__file__).resolve().parent.parent
RULES = HERE.parent / "docs" / "rules.md"  # the project's own statement of the rules, clause by clause
IDS = set(CLAUSE.findall(RULES.read_text(encoding="utf-8")))  # every clause ID the rules define or cite
MANIFESTO_A = "月黑风高夜,杀人放火天。" * 9
MANIFESTO_B = "长安城外夜色深沉,今夜必有人血溅当场。" * 6


def _closes(text: str) -> list[Trace]:
    """The trace of each close of a small scenario (the engine alone, as the 为什么 page replays it)."""
    scenario = load(yaml.safe_load(text))
    seats = [SeatSpec(p["name"], p["camp"], p["hand"]) for p in scenario.players]
    state = start_game(seats, ap=scenario.ap, start=scenario.start)
    out = []
    for plan in scenario.phases:
        for message in by_message(plan.steps):
            state, _ = submit_message(state, [s.inp for s in message])
        tracer = Trace()
        state, _result = end_phase(state, tracer)
        out.append(tracer)
        state, _ = open_phase(state, None)
    return out


def test_s5_every_why_page_names_the_player_who_held_the_seat_at_that_phase():
    game = played()
    night1 = game.phases.get(kind=Phase.Kind.NIGHT, number=1)
    trace = explain.phase_trace(game, night1)
    assert not any("小狸" in s.sentence or "小狸" in s.players for s in trace.steps)
    saved = next(w for w in explain.phase_why(game, trace) if w.text.startswith("李朗昨夜被救活了"))
    assert saved.steps and all("李朗" in s.players for s in saved.steps)
    assert any(s.clause == "N8" and "对 李朗" in s.sentence for s in saved.steps)
    night2 = explain.phase_trace(game, game.phases.get(kind=Phase.Kind.NIGHT, number=2))
    assert any("小狸丢掉庶民" in s.sentence for s in night2.close)
    user = get_user_model().objects.create_user("tianshen-why", password="direnjie-demo-pw")
    game.gms.add(user)
    client = Client()
    client.force_login(user)
    page = client.get(reverse("console_why", args=[game.pk, night1.pk])).content.decode()
    assert "对 李朗" in page and "对 小狸" not in page


def test_a_pardon_line_shows_the_pardon_not_the_pardoned_players_other_acts_n12():
    text = """
name: 特赦与绝杀
start: day 1
players:
  - {name: 东来, camp: 平民, hand: [庶民, 绝杀/特赦, 巫医]}
  - {name: 乙, camp: 杀手, hand: [庶民, 庶民, 杀手]}
  - {name: 丙, camp: 平民, hand: [庶民, 庶民, 束魂]}
ap: {东来: 4}
phases:
  - day: 1
    votes: [{by: 东来, for: 东来}, {by: 乙, for: 东来}, {by: 丙, for: 东来}]
  - night: 2
    actions:
      - {by: 东来, card: 绝杀/特赦, use: 特赦, target: 东来}
      - {by: 东来, card: 绝杀/特赦, use: 绝杀, target: 乙}
"""
    steps = list(_closes(text)[-1])
    (line,) = explain.why("第2夜结束\n东来被特赦,取回了昨天被处决时丢掉的牌。", steps, ["东来", "乙", "丙"])[1:]
    assert line.steps and all(s.clause in ("N12", "D6") for s in line.steps), [s.line for s in line.steps]
    assert not any("绝杀" in s.sentence and "特赦" not in s.sentence for s in line.steps)


def test_a_quoted_manifesto_line_shows_its_own_step_naming_its_author_a2():
    text = f"""
name: 两篇宣言
players:
  - {{name: 甲, camp: 杀手, hand: [庶民, 庶民, 杀手]}}
  - {{name: 乙, camp: 平民, hand: [庶民, 庶民, 束魂]}}
  - {{name: 丁, camp: 狼人, hand: [庶民, 庶民, 狼人]}}
phases:
  - night: 1
    actions:
      - {{by: 甲, card: 杀手, use: 普通攻击, target: 乙, manifesto: "{MANIFESTO_A}"}}
      - {{by: 丁, card: 狼人, use: 普通攻击, target: 甲, manifesto: "{MANIFESTO_B}"}}
"""
    steps = list(_closes(text)[0])
    lines = explain.why(f"第1夜结束\n> {MANIFESTO_A}\n> {MANIFESTO_B}", steps, ["甲", "乙", "丁"])
    first, second = lines[1], lines[2]
    assert [s.players for s in first.steps] == [("甲",)] and [s.players for s in second.steps] == [("丁",)]
    assert "甲的普通攻击" in first.steps[0].sentence and "丁的普通攻击" in second.steps[0].sentence


def test_every_step_of_the_played_game_cites_a_clause_of_the_rules():
    game = played()
    for trace in explain.game_trace(game):
        for step in trace.steps:
            parts = re.split(r"[/–]", step.clause)
            assert all(p in IDS or p.isdigit() for p in parts), step.line


def test_an_input_step_cites_the_clause_that_defines_it_s4_n8_n14_o1_o3():
    game = played()
    night1 = game.phases.get(kind=Phase.Kind.NIGHT, number=1)
    day1 = game.phases.get(kind=Phase.Kind.DAY, number=1)
    seat = game.seats.first()

    def clause(kind, payload, phase):
        return explain._input_clause(Input(game=game, phase=phase, seat=seat, kind=kind, payload=payload), phase)

    assert clause(Input.Kind.ACTION, {"use": "立场", "side": "杀手", "mode": "共赢"}, night1) == "S4"
    assert clause(Input.Kind.ACTION, {"use": "纵火", "card": "纵火/圣人", "target": 1}, night1) == "N14"
    assert clause(Input.Kind.ACTION, {"use": "治疗", "card": "巫医", "target": 1}, night1) == "N8"
    assert clause(Input.Kind.ACTION, {"use": "普通攻击", "card": "狼人", "target": 1}, night1) == "N3"
    assert clause(Input.Kind.ORDER, {"order": ["庶民", "杀手"]}, night1) == "O1"
    assert clause(Input.Kind.ORDER, {"order": ["庶民", "杀手"]}, day1) == "O3"
    catch = [s for s in explain.phase_trace(game, night1).close if "巫医抓到" in s.sentence or "治疗抓到" in s.sentence]
    assert catch and all(s.clause == "N8" for s in catch), [s.line for s in catch]


def test_the_start_page_of_a_running_game_says_it_has_started_and_links_the_dashboard():
    game = played()
    user = get_user_model().objects.create_user("tianshen-start", password="direnjie-demo-pw")
    game.gms.add(user)
    client = Client()
    client.force_login(user)
    page = client.get(reverse("console_start", args=[game.pk])).content.decode()
    assert "这局游戏已经开始了" in page and reverse("console_dashboard", args=[game.pk]) in page
    assert "<form" not in page.split("<main", 1)[-1] or 'name="at"' not in page
