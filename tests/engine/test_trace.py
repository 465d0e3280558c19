"""The trace of a close (moderator/game/trace.py): the same pipeline, told step by step. Tracing changes nothing —
every scenario of the rulebook closes to the same state and result with a tracer as without — and the example
scenarios' traces are pinned word for word (tests/golden/traces/, regenerated like the golden posts)."""

from pathlib import Path

import pytest
import yaml

from moderator.game.trace import Trace
from moderator.rules import codec
from moderator.rules.engine import end_phase, open_phase, start_game, submit_message
from moderator.rules.scenario import SeatSpec, by_message, load, trace
from tests.golden.golden import HEADER, updating

HERE = Path(__file__).resolve().parent.parent
FILES = sorted((HERE / "scenarios").rglob("*.yaml"))
SHARED = sorted((HERE / "scenarios" / "shared").glob("*.yaml"))
TRACES = HERE / "golden" / "traces"


def _closes(path: Path, traced: bool) -> list[tuple[str, object]]:
    scenario = load(yaml.safe_load(path.read_text(encoding="utf-8")))
    seats = [SeatSpec(p["name"], p["camp"], p["hand"]) for p in scenario.players]
    tracer = Trace() if traced else None
    state = start_game(seats, ap=scenario.ap, start=scenario.start, tracer=tracer)
    out: list[tuple[str, object]] = []
    for _plan in scenario.phases:
        for message in by_message(_plan.steps):
            state, verdicts = submit_message(state, [s.inp for s in message])
            out.append(("verdicts", verdicts))
        state, result = end_phase(state, tracer)
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
    assert "N7 攻击:甲用杀手牌普通攻击 丙无效(被束魂抓到,这张牌今夜的普通攻击全部无效)" in lines


def test_b5_the_trace_says_the_bodyguard_order_is_the_best_one():
    lines = trace(load(yaml.safe_load((HERE / "scenarios/shared/02_bodyguard_needs_two_kinds.yaml").read_text())))
    assert any(line.startswith("B5 最优顺序:这个顺序打掉 2 张") and "穷举" in line and "一致" in line for line in lines)
    assert any(line.startswith("O4 丢牌:") and "B2" in line for line in lines)


# --- docs/clauses.md: where each deciding clause appears in a traced test ------------------------------------------

DOC = HERE.parent / "docs" / "clauses.md"
BEGIN = "<!-- traced: begin (written by tests/engine/test_trace.py with UPDATE_GOLDEN=1; do not edit by hand) -->"
END = "<!-- traced: end -->"
# Every clause that can decide an outcome: a verdict (refusals name their clause) or a step of a close.
DECIDING = (
    *("O1", "O2", "O3", "O4", "AP1", "AP3", "AP4", "AP5", "S4", "T3", "T7", "N-kill"),
    *(f"N{i}" for i in range(1, 15)),
    *("M1", "M2", "M3", "M4"),
    *(f"B{i}" for i in range(1, 7)),
    *(f"D{i}" for i in range(1, 9)),
    *(f"V{i}" for i in range(1, 6)),
)


def _where_traced() -> dict[str, list[str]]:
    """clause -> the scenarios whose trace shows it (as the step's clause or named in its sentence), the pinned
    example scenarios first."""
    from moderator.game.trace import CLAUSE

    found: dict[str, list[str]] = {}
    ordered = SHARED + [p for p in FILES if p not in SHARED]
    for path in ordered:
        for line in trace(load(yaml.safe_load(path.read_text(encoding="utf-8")))):
            if line.startswith("=="):
                continue
            for clause in {line.split(" ", 1)[0], *CLAUSE.findall(line)}:
                where = found.setdefault(clause, [])
                if path.stem not in where:
                    where.append(path.stem)
    return found


def _table(found: dict[str, list[str]]) -> str:
    pinned = {p.stem for p in SHARED}
    rows = ["| clause | in the traces of (pinned word for word: **bold**, `tests/golden/traces/`) |", "|---|---|"]
    for clause in DECIDING:
        where = found.get(clause, [])
        shown = [f"**{s}**" if s in pinned else f"`{s}`" for s in where[:4]]
        more = f" and {len(where) - 4} more" if len(where) > 4 else ""
        rows.append(f"| {clause} | {'<br>'.join(shown) + more if shown else 'not traced'} |")
    return "\n".join(rows)


def test_every_deciding_clause_appears_in_a_traced_test_and_docs_clauses_md_lists_where():
    found = _where_traced()
    missing = [c for c in DECIDING if c not in found]
    assert missing == [], f"no traced scenario shows {missing}"
    doc = DOC.read_text(encoding="utf-8")
    section = f"{BEGIN}\n{_table(found)}\n{END}"
    if updating():
        head, _, rest = doc.partition(BEGIN)
        _, _, tail = rest.partition(END)
        doc = f"{head}{section}{tail}" if rest else f"{doc.rstrip()}\n\n## Clauses in the traces\n\n{section}\n"
        DOC.write_text(doc, encoding="utf-8")
    assert section in doc, "docs/clauses.md: the traced-clauses table is out of date (UPDATE_GOLDEN=1 rewrites it)"


def test_without_a_tracer_the_close_calls_nothing_of_the_trace():
    """The clock's close (no tracer) builds no sentence and runs no check of its own: not one call into the trace's
    helpers, nor the exhaustive B5 check; with a tracer the same close calls them (so the count can fail)."""
    import sys

    watched = {"said", "_trace_losses", "_trace_open", "names", "brute_force", "input_step", "hit_said", "__call__"}

    def count(tracer) -> int:
        calls = 0
        path = HERE / "scenarios/shared/02_bodyguard_needs_two_kinds.yaml"
        scenario = load(yaml.safe_load(path.read_text(encoding="utf-8")))
        seats = [SeatSpec(p["name"], p["camp"], p["hand"]) for p in scenario.players]
        state = start_game(seats, ap=scenario.ap, start=scenario.start)
        for message in by_message(scenario.phases[0].steps):
            state, _ = submit_message(state, [s.inp for s in message])

        def profile(frame, event, _arg):
            nonlocal calls
            if event == "call" and frame.f_code.co_name in watched:
                calls += 1

        sys.setprofile(profile)
        try:
            end_phase(state, tracer)
            open_phase(end_phase(state, tracer)[0], tracer)
        finally:
            sys.setprofile(None)
        return calls

    assert count(None) == 0
    assert count(Trace()) > 10
