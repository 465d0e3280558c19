"""The shipped ways to run the clock without containers: the Procfile's worker and beat, and the systemd units of
deploy/systemd that run exactly those commands and restart them whatever ends them. (The Procfile's own processes
outliving a Redis restart with nobody restarting them: test_faults_broker.py.)"""

from __future__ import annotations

import configparser
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNITS = {
    "worker": ROOT / "deploy" / "systemd" / "direnjie-worker.service",
    "beat": ROOT / "deploy" / "systemd" / "direnjie-beat.service",
}


def _procfile() -> dict[str, list[str]]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return {k: shlex.split(v) for k, v in (line.split(": ", 1) for line in lines if line and not line.startswith("#"))}


def _unit(path: Path) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(interpolation=None, strict=False)
    unit.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys are case-sensitive
    unit.read_string(path.read_text())
    return unit


@pytest.mark.parametrize("name", sorted(UNITS))
def test_each_systemd_unit_runs_the_procfiles_command_and_restarts_it_for_ever(name):
    unit = _unit(UNITS[name])
    service = unit["Service"]
    command = shlex.split(service["ExecStart"])
    assert Path(command[0]).name == "celery" and command[1:] == _procfile()[name][1:]
    assert service["Restart"] == "always"  # a clean exit, a crash, a kill: started again
    assert unit["Unit"]["StartLimitIntervalSec"] == "0"  # never given up after a burst of restarts
    assert service["WorkingDirectory"] and service["EnvironmentFile"]  # relative paths (var/) are the site's own


def test_the_systemd_units_are_valid_for_systemd(tmp_path):
    """systemd-analyze verify, with the paths pointed at this checkout (the units' /srv/direnjie is an example)."""
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze (Debian's systemd package) checks the units"
    env_file = tmp_path / "env"
    env_file.write_text("SECRET_KEY=x\n")
    for path in UNITS.values():
        text = path.read_text().replace("/srv/direnjie/.venv/bin/celery", str(Path(sys.executable).parent / "celery"))
        text = text.replace("/srv/direnjie/.env", str(env_file)).replace("/srv/direnjie", str(ROOT))
        text = text.replace("User=direnjie", "User=root")
        (tmp_path / path.name).write_text(text)
    run = subprocess.run(
        [analyze, "verify", *(str(tmp_path / p.name) for p in UNITS.values())], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
