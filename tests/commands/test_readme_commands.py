"""Every command of the README's list works exactly as written (issue 26): the `manage.py` ones are run as written,
in order, on a fresh SQLite file (no tables yet, no DEBUG, no SECRET_KEY in the environment: a fresh clone); the
benchmarks, which take minutes, answer `--help` (each was run as written when this test was made; README
"Benchmarks" has their figures). `bench_clock` needs a worker, beat and Redis (tests/clock), and `backup` writes into
var/ (tests/commands/test_backup.py runs it on a temporary file)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOT_HERE = ("bench_clock", "backup")


def _commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Commands", 1)[1].split("```\n", 2)[1]
    return [line.split("   #")[0].strip() for line in block.splitlines() if line.strip()]


def _env(tmp_path: Path, words: list[str]) -> tuple[dict[str, str], list[str]]:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DEBUG")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    while "=" in words[0]:  # VAR=value before the program, as a shell reads it
        name, value = words.pop(0).split("=", 1)
        env[name] = value
    return env, words


def test_the_readme_lists_its_commands_with_the_virtualenvs_python():
    commands = _commands()
    assert len(commands) >= 10
    for command in commands:
        assert re.match(r"^(\w+=\S+ )*\.venv/bin/python (manage\.py|-m bench\.)", command), command


def test_every_manage_py_command_of_the_readme_runs_as_written_in_a_fresh_clone(tmp_path):
    ran = []
    for command in _commands():
        words = shlex.split(command)
        if "manage.py" not in words or any(w in words for w in NOT_HERE):
            continue
        env, words = _env(tmp_path, words)
        run = subprocess.run(words, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, f"{command}\n{run.stdout}\n{run.stderr}"
        ran.append((command, run.stdout))
    said = dict(ran)
    assert len(ran) >= 5
    assert any(out.strip().endswith("12 passed, 0 failed") for cmd, out in said.items() if " scenario " in cmd)
    assert any('"target": "狄仁杰"' in out for cmd, out in said.items() if "--game 1" in cmd)  # the demo's game


def test_every_benchmark_of_the_readme_answers_help(tmp_path):
    for command in _commands():
        words = shlex.split(command)
        if "-m" not in words:
            continue
        env, words = _env(tmp_path, words)
        module = words[words.index("-m") + 1]
        run = subprocess.run(
            [*words[: words.index("-m") + 2], "--help"], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert run.returncode == 0 and "usage:" in run.stdout, f"{module}\n{run.stderr}"
