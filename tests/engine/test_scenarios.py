"""Every scenario in tests/scenarios/ (the shared examples and our own, one per clause and ruling) must pass,
played through the same services that close a real phase."""

from pathlib import Path

import pytest

from moderator.scenarios import run_file

HERE = Path(__file__).resolve().parent.parent / "scenarios"
FILES = sorted(HERE.rglob("*.yaml"))


@pytest.mark.django_db(transaction=False)
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    outcome = run_file(path)
    assert outcome.passed, "\n".join([f"{outcome.path}: {outcome.name}", *outcome.problems])


def test_there_are_scenarios():
    assert len(FILES) >= 10
