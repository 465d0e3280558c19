"""Every setting of docs/operations.md's table written in `.env` reaches every process compose runs (release, web,
worker, beat): compose.yaml gives them the whole file (`env_file`), and no key of its `environment:` hides a value of
.env behind a default of its own. Compose itself cannot run here, so the test interpolates the file as compose does
(`${VAR}`, `${VAR:-default}`, `${VAR:?error}`, nested; `environment:` over `env_file`)."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.ops.test_settings_table import _table

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = ("release", "web", "worker", "beat")
FIXED = {"PORT": "8000"}  # web's: gunicorn's port inside the container, where `ports:` points (WEB_PORT: the host's)


def _interpolate(text: str, env: dict[str, str]) -> str:
    out, i = [], 0
    while i < len(text):
        if text.startswith("$$", i):
            out.append("$")
            i += 2
        elif text.startswith("${", i):
            depth, j = 1, i + 2
            while depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0) if text[j - 1 : j + 1] != "$$" else 0
                j += 1
            body = text[i + 2 : j - 1]
            name, op, rest = body, "", ""
            for candidate in (":-", ":?", "-", "?"):
                if candidate in body and body.index(candidate) == len(body.split(candidate[0], 1)[0]):
                    name, rest = body.split(candidate, 1)
                    op = candidate
                    break
            value = env.get(name)
            if op in (":-", "-") and (value is None or (op == ":-" and value == "")):
                value = _interpolate(rest, env)
            assert value is not None or op == "", f"compose would refuse to start: {body}"
            out.append(value or "")
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _environment(service: dict, dotenv: dict[str, str]) -> dict[str, str]:
    files = [f if isinstance(f, str) else f["path"] for f in service.get("env_file", [])]
    env = dict(dotenv) if ".env" in files else {}
    env |= {key: _interpolate(str(value), dotenv) for key, value in (service.get("environment") or {}).items()}
    return env


def test_every_setting_of_the_table_set_in_env_reaches_every_process():
    services = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))["services"]
    settings = _table()
    assert {"PROXY_COUNT", "CLOCK_CLOSE_PREPARED", "RATELIMIT_GM", "DATABASE_URL"} <= settings  # the reader works
    dotenv = {name: f"from-env-{name.lower()}" for name in settings}
    for name in PROCESSES:
        env = _environment(services[name], dotenv)
        lost = {s for s in settings - set(FIXED) if env.get(s) != dotenv[s]}
        assert not lost, f"{name}: these settings of .env never reach it: {sorted(lost)}"
        if name == "web":
            assert all(env[key] == value for key, value in FIXED.items())


def test_with_only_the_two_secrets_in_env_the_processes_get_compose_defaults():
    services = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))["services"]
    dotenv = {"SECRET_KEY": "k" * 50, "POSTGRES_PASSWORD": "pw"}
    for name in PROCESSES:
        env = _environment(services[name], dotenv)
        assert env["DATABASE_URL"] == "postgres://direnjie:pw@postgres:5432/direnjie"
        assert env["REDIS_URL"] == "redis://redis:6379/0" and env["CACHE_IN_REDIS"] == "true"
        assert env["HTTPS"] == "false" and env["TRUSTED_PROXY"] == "false"
