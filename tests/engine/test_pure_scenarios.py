"""Every scenario also passes through the pure engine alone (moderator.rules.scenario.play): the simulator's shrunk
scenarios are re-run that way, so the pure runner must agree with the services' runner on the whole rulebook."""

from pathlib import Path

import pytest
import yaml

from moderator.rules.scenario import ScenarioError, load, play

HERE = Path(__file__).resolve().parent.parent / "scenarios"
FILES = sorted(HERE.rglob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_it_passes_through_the_pure_engine(path):
    problems = play(load(yaml.safe_load(path.read_text(encoding="utf-8"))))
    assert not problems, "\n".join(problems)


def test_t5_it_refuses_a_scenario_with_an_input_after_the_early_end():
    data = {
        "name": "x",
        "players": [{"name": "甲", "camp": "杀手", "hand": ["杀手"]}, {"name": "乙", "camp": "平民", "hand": ["巫医"]}],
        "phases": [{"day": 1, "ended_early_at": "12:30", "votes": [{"by": "甲", "for": "乙", "at": "12:31"}]}],
        "start": "day 1",
    }
    with pytest.raises(ScenarioError, match=r"ended early at 12:30, but day 1 votes\[0\] come after it"):
        load(data)
