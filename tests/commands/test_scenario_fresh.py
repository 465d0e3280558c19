"""The README's `.venv/bin/python manage.py scenario tests/scenarios/shared` works in a fresh clone: its database has no tables
yet (make run has not migrated it), so the command migrates first and says so; the scenarios leave no data."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "tests" / "scenarios" / "shared"


def test_the_scenario_command_runs_on_a_database_without_tables(tmp_path):
    files = sorted(SCENARIO.glob("*.yaml"))[:2]
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DEBUG")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    run = subprocess.run(
        [sys.executable, "manage.py", "scenario", *map(str, files)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip().endswith("2 passed, 0 failed")
    assert "先执行 migrate" in run.stderr
    again = subprocess.run(
        [sys.executable, "manage.py", "scenario", str(files[0])], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert again.stdout.strip().endswith("1 passed, 0 failed") and "migrate" not in again.stderr
