"""The kit around the code: the lock file installs what pyproject.toml asks for, `make clean` never deletes the games
without asking, and pre-commit runs what `make lint` runs."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def _pins(lock: Path) -> dict[str, str]:
    pins = {}
    for line in lock.read_text().splitlines():
        if "==" in line and not line.lstrip().startswith("#"):
            name, version = line.split("==", 1)
            pins[canonicalize_name(name.split("[")[0].strip())] = version.split()[0]
    return pins


def test_the_lock_files_pin_every_dependency_of_pyproject_at_a_version_it_accepts():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for lock, wanted in (
        ("base.txt", project["dependencies"]),
        ("dev.txt", project["dependencies"] + project["optional-dependencies"]["dev"]),
    ):
        pins = _pins(ROOT / "requirements" / lock)
        for spec in map(Requirement, wanted):
            name = canonicalize_name(spec.name)
            assert name in pins, f"{spec.name} is in pyproject.toml but not in requirements/{lock}: run make lock"
            assert spec.specifier.contains(pins[name], prereleases=True), (
                f"requirements/{lock} pins {spec.name}=={pins[name]}, pyproject.toml asks {spec}: run make lock"
            )
    dev = _pins(ROOT / "requirements" / "dev.txt")
    assert dev["ruff"] == "0.17.6" and "==" in next(d for d in project["optional-dependencies"]["dev"] if "ruff" in d)


def _make(target: str, cwd: Path, answer: str | None = None) -> str:
    run = subprocess.run(
        ["make", "-s", target],
        cwd=cwd,
        input=answer,
        stdin=None if answer is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def test_make_clean_keeps_the_sqlite_database_and_clean_db_deletes_it_only_on_yes(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / ".venv").mkdir()
    (tmp_path / "var" / "static").mkdir(parents=True)
    db = tmp_path / "var" / "db.sqlite3"
    db.write_text("the games")
    assert "is kept" in _make("clean", tmp_path)
    assert db.read_text() == "the games"
    assert not (tmp_path / ".venv").exists() and not (tmp_path / "var" / "static").exists()

    assert "kept" in _make("clean-db", tmp_path)  # no answer at all (CI, a script): kept
    assert "kept" in _make("clean-db", tmp_path, answer="y\n")
    assert db.exists()
    assert "deleted" in _make("clean-db", tmp_path, answer="yes\n")
    assert not db.exists()


def test_pre_commit_runs_make_lint():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    assert [h["entry"] for h in hooks] == ["make lint"]
    makefile = (ROOT / "Makefile").read_text()
    lint = makefile.split("\nlint:")[1].split("\n\n")[0]
    assert "ruff check ." in lint and "ruff format --check ." in lint and "mypy" in lint


def test_no_two_test_files_share_a_name():
    """The test folders are not packages (pytest imports each file by its base name): two `test_x.py` in different
    folders make the second one fail to import, an error only a whole run shows."""
    names: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        names.setdefault(path.name, []).append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in names.items() if len(paths) > 1} == {}
