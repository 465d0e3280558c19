"""The production kit. Containers cannot run on these machines, so compose.yaml is checked by loading it: one service
per Procfile process running exactly the Procfile's command, on the PostgreSQL and Redis services it declares; the
Celery tasks have time limits; `collectstatic` writes the compressed, content-hashed files WhiteNoise serves."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip() and not line.startswith("#"))


def _command(service: dict) -> str:
    command = service["command"]
    if command[:2] == ["sh", "-c"]:
        return command[2].replace("$$", "$")  # compose's escape of a $ the container's shell expands
    return shlex.join(command)


def test_compose_runs_every_procfile_process_with_its_command_on_postgres_and_redis():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert {"web", "worker", "beat", "postgres", "redis"} <= set(services)
    procfile = _procfile()
    assert set(procfile) == {"web", "worker", "beat", "release"}
    for name, command in procfile.items():
        assert _command(services[name]) == command, name
    for name in procfile:
        env = services[name]["environment"]
        assert "postgres://" in env["DATABASE_URL"] and "@postgres:" in env["DATABASE_URL"], name  # a default of .env's
        assert "redis://redis:" in env["REDIS_URL"], name
        assert env["SECRET_KEY"].startswith("${SECRET_KEY:?"), name  # no key, no start: never a default one
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy", name
        assert services[name]["build"] == "."
    for name in ("web", "worker", "beat"):  # after the migration finished
        assert services[name]["depends_on"]["release"]["condition"] == "service_completed_successfully"
    assert services["web"]["environment"]["PORT"] == "8000" and "/healthz" in str(services["web"]["healthcheck"])
    assert services["postgres"]["image"].startswith("postgres:") and services["redis"]["image"].startswith("redis:")
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "requirements/base.txt" in dockerfile and "collectstatic" in dockerfile


def test_compose_is_safe_by_default_secrets_from_an_uncommitted_env_file_local_port_a_health_check_each():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    text = (ROOT / "compose.yaml").read_text()
    # no secret written in the file: the key and the database password come from .env (compose reads it)
    assert services["postgres"]["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")
    assert "${POSTGRES_PASSWORD:?" in services["web"]["environment"]["DATABASE_URL"]
    assert "direnjie:direnjie@" not in text
    example = (ROOT / ".env.example").read_text()
    assert re.search(r"^SECRET_KEY=$", example, re.M) and re.search(r"^POSTGRES_PASSWORD=$", example, re.M)
    for ignore in (".gitignore", ".dockerignore"):
        assert ".env" in (ROOT / ignore).read_text().split(), ignore
    # the plain-HTTP port is published on the loopback interface unless the operator says otherwise
    (port,) = services["web"]["ports"]
    assert port.startswith("${WEB_BIND:-127.0.0.1}:"), port
    # every service that keeps running says whether it is healthy; release runs once and exits
    for name, service in services.items():
        if name != "release":
            assert service["healthcheck"]["test"], name
    assert services["release"]["restart"] == "no"
    # beat writes its schedule in the site's own var/ (the image's user's), not in the root-owned /app, nor in a /tmp
    # file that two sites on one host would share
    assert "--schedule var/" in _procfile()["beat"]
    # every request in gunicorn's access log
    assert "--access-logfile -" in _procfile()["web"] and "--access-logfile -" in (ROOT / "Dockerfile").read_text()


def test_celery_tasks_have_a_soft_and_a_hard_time_limit():
    from moderator.celery import app

    assert 0 < app.conf.task_soft_time_limit < app.conf.task_time_limit


def test_collectstatic_writes_hashed_compressed_files_and_pages_link_the_hashed_names(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DEBUG", "STATIC_MANIFEST")} | {
        "STATIC_ROOT": str(tmp_path),
        "SECRET_KEY": "x" * 50,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db'}",
    }
    run = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, capture_output=True
    )
    assert run.returncode == 0, run.stderr
    manifest = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    hashed = manifest["moderator/site.js"]
    assert hashed != "moderator/site.js" and (tmp_path / hashed).exists() and (tmp_path / f"{hashed}.gz").exists()
    link = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from django.templatetags.static import static;print(static('moderator/site.js'))",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert link.stdout.strip().splitlines()[-1] == f"/static/{hashed}", link.stderr
