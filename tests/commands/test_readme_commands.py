"""Every command the README and the docs give runs as written in a fresh clone.

- README: each line of its code blocks and each `make …` it names is one this test knows how to check — a `make`
  target that `make help` lists, the env file's template, the compose services and the `manage.py` command they run,
  the health URL on the port compose publishes. A command the test does not know fails it, so a new README command
  comes with its check.
- docs/console.md: the `manage.py` commands are run as written, in order, on a fresh SQLite file (no tables yet, no
  DEBUG, no SECRET_KEY in the environment: a fresh clone). `backup` writes into var/ (tests/commands/test_backup.py
  runs it on a temporary file).
- docs/benchmarks.md: every benchmark answers `--help`, and every option its line uses is one its help lists (they
  take minutes; docs/benchmarks.md has their figures). `bench_clock` needs a worker, beat and Redis (tests/clock)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
NOT_HERE = ("bench_clock", "backup")


def _blocks(path: Path) -> list[str]:
    """The command lines of a Markdown file's code blocks (a block marked ```text is output), without their
    trailing comments."""
    text = path.read_text(encoding="utf-8")
    lines = []
    for language, block in re.findall(r"^```([a-z]*)\n(.*?)^```", text, flags=re.S | re.M):
        if language == "text":
            continue
        for line in block.splitlines():
            command = re.split(r"\s{2,}#", line)[0].strip()
            if command and not command.startswith("#"):
                lines.append(command)
    return lines


def _env(tmp_path: Path, words: list[str]) -> tuple[dict[str, str], list[str]]:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "SECRET_KEY", "DEBUG")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    while "=" in words[0]:  # VAR=value before the program, as a shell reads it
        name, value = words.pop(0).split("=", 1)
        env[name] = value
    return env, words


def _make_targets() -> set[str]:
    run = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return set(re.findall(r"^\s+make (\S+)\s", run.stdout, flags=re.M))


def test_make_help_lists_every_target_of_the_makefile():
    makefile = (ROOT / "Makefile").read_text()
    phony = set(re.search(r"^\.PHONY: (.*)$", makefile, flags=re.M).group(1).split())
    rules = set(re.findall(r"^([a-z][a-z-]*):", makefile, flags=re.M))
    assert phony == rules, "every target is .PHONY and every .PHONY name is a target"
    assert _make_targets() == rules


def test_every_command_of_the_readme_is_one_that_exists_here():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = _blocks(ROOT / "README.md")
    commands += re.findall(r"`((?:[A-Z_]+=\S+ )*make [a-z-]+)`", readme)
    targets = _make_targets()
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    checked = []
    for command in commands:
        words = shlex.split(command)
        while "=" in words[0]:
            words.pop(0)
        match words:
            case ["make", target]:
                assert target in targets, f"{command}: no such make target"
            case ["cp", ".env.example", ".env"]:
                assert (ROOT / ".env.example").is_file()
                assert ".env" in (ROOT / ".gitignore").read_text().split()
            case ["docker", "compose", "up", *options]:
                assert set(options) <= {"--build", "-d"}, command
            case ["docker", "compose", "run", "--rm", service, "python", "manage.py", name]:
                assert service in services, command
                assert _manage_py_knows(name), command
            case ["curl", url]:
                assert url == "http://127.0.0.1:8000/healthz", command
                assert services["web"]["ports"] == ["${WEB_BIND:-127.0.0.1}:${WEB_PORT:-8000}:8000"], command
            case _:
                raise AssertionError(f"the README gives a command this test does not check: {command}")
        checked.append(command)
    assert {"make run", "make test", "make help"} <= set(checked)


def _manage_py_knows(name: str) -> bool:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DEBUG")}
    run = subprocess.run(
        [sys.executable, "manage.py", "help", name], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    return run.returncode == 0 and "usage:" in run.stdout


def test_the_docs_list_their_commands_with_the_virtualenvs_python():
    for doc in ("console.md", "benchmarks.md"):
        commands = _blocks(ROOT / "docs" / doc)
        assert len(commands) >= 6, doc
        for command in commands:
            assert re.match(r"^(\w+=\S+ )*\.venv/bin/python (manage\.py|-m bench\.)", command), command
            assert not re.search(r"\s[A-Z]\b", command), f"a placeholder instead of a value: {command}"


def test_every_manage_py_command_of_the_console_doc_runs_as_written_in_a_fresh_clone(tmp_path):
    ran = []
    for command in _blocks(ROOT / "docs" / "console.md"):
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


def test_every_benchmark_of_the_docs_answers_help_and_takes_the_options_it_is_given(tmp_path):
    for command in _blocks(ROOT / "docs" / "benchmarks.md"):
        env, words = _env(tmp_path, shlex.split(command))
        if "-m" in words:
            program = words[: words.index("-m") + 2]
        else:
            program = words[: words.index("manage.py") + 2]
        run = subprocess.run([*program, "--help"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0 and "usage:" in run.stdout, f"{command}\n{run.stderr}"
        for option in (w for w in words[len(program) :] if w.startswith("--")):
            assert option in run.stdout, f"{command}: {option} is not an option of {program[-1]}"
