"""The scenarios of tests/scenarios/ (the shared examples and our own, one per clause and ruling).

Every one of them is played through the same services that close a real phase, and must pass, in
tests/clock/test_clock_batch.py::test_every_scenario_passes_and_batched_closes_write_exactly_what_one_by_one_closes_write
(the same play also checks that batched closes write what one-by-one closes write: each scenario is entered once for
both). `manage.py scenario` (moderator.scenarios.run_file) runs them one file at a time: tests/commands/test_commands.py."""

from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "scenarios"
FILES = sorted(HERE.rglob("*.yaml"))


def test_there_are_scenarios():
    assert len(FILES) >= 10
