"""The trace of a close (moderator/rules/trace.py): the same pipeline, told step by step. Tracing changes nothing —
every scenario of the rulebook closes to the same state and result with a tracer as without — and the example
scenarios' traces are pinned word for word (tests/golden/traces/, regenerated like the golden posts)."""

from pathlib import Path

import pytest
import yaml

from moderator.rules import codec
from moderator.rules.engine import close_phase, new_game, open_phase, submit_message
from moderator.rules.scenario import SeatSpec, load, messages, trace
from moderator.rules.trace import Trace
from tests.golden.golden import HEADER, updating

HERE = Path(__file__).resolve().parent.parent
FILES = sorted((HERE / "scenarios").rglob("*.yaml"))
SHARED = sorted((HERE / "scenarios" / "shared").glob("*.yaml"))
TRACES = HERE / "golden" / "traces"


def _closes(path: Path, traced: bool) -> list[tuple[str, object]]:
    scenario = load(yaml.safe_load(path.read_text(encoding="utf-8")))
    seats = [SeatSpec(p["name"], p["camp"], p["hand"]) for p in scenario.players]
    tracer = Trace() if traced else None
    state = new_game(seats, ap=scenario.ap, start=scenario.start, tracer=tracer)
    out: list[tuple[str, object]] = []
    for _plan in scenario.phases:
        for message in messages(_plan.steps):
            state, verdicts = submit_message(state, [s.inp for s in message])
            out.append(("verdicts", verdicts))
        state, result = close_phase(state, tracer)
        out.append((codec.state_dump(state), result))
        if result.winner:
            break
        state, events = open_phase(state, tracer)
        out.append((codec.state_dump(state), events))
    return out


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_tracing_changes_no_verdict_state_or_result(path):
    assert _closes(path, traced=True) == _closes(path, traced=False)


@pytest.mark.parametrize("path", SHARED, ids=[p.stem for p in SHARED])
def test_the_example_scenarios_traces_are_pinned_word_for_word(path):
    """Each line: the clause, then one sentence naming the inputs it used (N7 束魂:… B5 最优顺序:… D5 处决:…)."""
    lines = trace(load(yaml.safe_load(path.read_text(encoding="utf-8"))))
    text = HEADER + "\n".join(lines) + "\n"
    golden = TRACES / f"{path.stem}.txt"
    if updating():
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"{golden} is missing: regenerate with UPDATE_GOLDEN=1 and review it"
    assert golden.read_text(encoding="utf-8") == text


def test_n7_the_trace_says_which_attack_a_binding_caught():
    lines = trace(
        load(yaml.safe_load((HERE / "scenarios/shared/01_binding_voids_all_normal_attacks.yaml").read_text()))
    )
    assert "N7 束魂:乙的束魂抓到了甲的杀手牌的普通攻击(对 乙),这张牌今夜的普通攻击全部无效,乙被救活" in lines
    assert "N7 攻击:甲用杀手牌普通攻击 丙无效(被束魂/巫医抓到,这张牌今夜的普通攻击全部无效)" in lines


def test_b5_the_trace_says_the_bodyguard_order_is_the_best_one():
    lines = trace(load(yaml.safe_load((HERE / "scenarios/shared/02_bodyguard_needs_two_kinds.yaml").read_text())))
    assert any(line.startswith("B5 最优顺序:这个顺序打掉 2 张") and "穷举" in line and "一致" in line for line in lines)
    assert any(line.startswith("O4 丢牌:") and "B2" in line for line in lines)
