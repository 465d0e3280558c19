"""Each compose service's command line, run as the image's non-root user in a copy of the image's layout — no Docker
here, so this is how a crash loop is caught before a deployment.

The layout is the Dockerfile's: the project copied (less what .dockerignore leaves out) into a directory the user may
read but not write, `var/` (the static files, the SQLite file here) the user's own, HOME the application directory, no
bytecode written. The user: this machine's Python lives under /root, which no other account may enter, so the
commands run as uid 0 stripped of every capability (`setpriv --bounding-set=-all`: no permission check is skipped) and
the application directory belongs to another account (uid 1) — exactly the relation of the image's user `app` to its
root-owned /app. Each runs on this test's own redis-server; once they are up, each service's compose health check is
run the same way and must pass. A world-writable directory of the test's own stands in for the container's private /tmp; beat keeps its
schedule in the site's own var/. The old beat command, which wrote its
schedule into the application directory, is run too: it must crash here, or this test could not catch it."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml

from tests.servers import free_port

pytestmark = pytest.mark.redis
ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def _shell(command: list[str]) -> str:
    """A compose command (exec form) as the line a shell runs."""
    if command[:2] == ["sh", "-c"]:
        return command[2].replace("$$", "$")  # compose's escape of a $ the container's shell expands
    return shlex.join(command)


def _commands() -> dict[str, str]:
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    return {name: _shell(services[name]["command"]) for name in ("release", "web", "worker", "beat")}


def _healthchecks() -> dict[str, str]:
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    checks = {}
    for name in ("web", "worker", "beat"):
        kind, *command = services[name]["healthcheck"]["test"]
        assert kind == "CMD", name
        checks[name] = _shell(command)
    return checks


@pytest.fixture(scope="module")
def image():
    """The application directory as the image has it, and a private /tmp; removed afterwards."""
    if not shutil.which("setpriv") or os.geteuid() != 0:
        pytest.skip("needs setpriv and root (to run the commands without any capability in another's directory)")
    top = Path(tempfile.mkdtemp(prefix="direnjie-image-"))
    top.chmod(0o755)
    app = top / "app"
    ignored = [line.strip().removeprefix("**/").split("/")[-1] for line in (ROOT / ".dockerignore").read_text().split()]
    shutil.copytree(ROOT, app, ignore=shutil.ignore_patterns(*ignored, "test-results"))
    for path in [app, *app.rglob("*")]:  # another account's (as root's in the image), readable by all
        path.chmod(0o755 if path.is_dir() else 0o644)
        os.chown(path, 1, 1, follow_symlinks=False)
    (app / "var" / "static").mkdir(parents=True)
    for path in [app / "var", app / "var" / "static"]:
        os.chown(path, 0, 0)  # chown -R app /app/var: the user's own
    private_tmp = top / "tmp"
    private_tmp.mkdir()
    private_tmp.chmod(0o1777)
    yield app, private_tmp
    shutil.rmtree(top, ignore_errors=True)


def _env(app: Path, own_redis, port: int) -> dict[str, str]:
    return {
        "PATH": f"{VENV_BIN}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(app),
        "PYTHONPATH": str(app),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
        "PORT": str(port),
        "SECRET_KEY": "container-test-" + "x" * 40,
        "DATABASE_URL": f"sqlite:///{app}/var/db.sqlite3",
        "REDIS_URL": own_redis.url,
        "CACHE_IN_REDIS": "true",
        "HTTPS": "false",
        "HOSTNAME": socket.gethostname(),  # as Docker sets it in a container (the worker's node name)
    }


def _start(app: Path, command: str, own_redis, port: int, log: Path) -> subprocess.Popen:
    env = _env(app, own_redis, port)
    without_capabilities = ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "sh", "-c", command]
    return subprocess.Popen(
        without_capabilities, cwd=app, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True
    )


def _until(proc: subprocess.Popen, log: Path, done, limit: float = 90) -> str:
    """Waits until `done(output)` holds or the process exits (or `limit` seconds pass); returns the output."""
    deadline = time.monotonic() + limit
    while proc.poll() is None and not done(log.read_text()) and time.monotonic() < deadline:
        time.sleep(0.2)
    return log.read_text()


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)  # the process group this test started
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def test_every_service_runs_as_the_images_user_in_the_images_layout(image, own_redis, tmp_path):
    app, private_tmp = image
    commands = _commands()
    assert "--schedule var/" in commands["beat"]  # the site's own directory, the user's (never a shared /tmp file)

    log = tmp_path / "release.log"  # first, as in compose: the others start once it succeeded
    proc = _start(app, commands["release"], own_redis, 0, log)
    assert proc.wait(300) == 0, log.read_text()

    port = free_port()
    started = {}
    try:
        for name in ("web", "worker", "beat"):
            started[name] = _start(app, commands[name], own_redis, port, tmp_path / f"{name}.log")

        def healthz(_out: str) -> bool:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            except urllib.error.HTTPError:
                return True  # it answered (503 while the clock has not swept yet)
            except OSError:
                return False
            return True

        signs = {
            "web": lambda out: healthz(out) and "/healthz" in (tmp_path / "web.log").read_text(),
            "worker": lambda out: " ready." in out,
            "beat": lambda out: "Sending due task sweep-phases" in out,
        }
        for name, sign in signs.items():
            out = _until(started[name], tmp_path / f"{name}.log", sign)
            assert started[name].poll() is None, f"{name} exited:\n{out}"
            assert sign(out), f"{name} did not get going:\n{out}"
        assert any((app / "var").glob("celerybeat-schedule*"))  # beat's schedule, where the user may write
        assert not any(app.glob("celerybeat-schedule*")) and not any(private_tmp.glob("celerybeat-schedule*"))
        web_log = (tmp_path / "web.log").read_text()
        assert '"GET /healthz HTTP/1.1"' in web_log  # gunicorn's access log

        # each service's own health check, run as compose runs it inside that service's container
        for name, check in _healthchecks().items():
            check = check.replace("/tmp/", f"{private_tmp}/").replace("127.0.0.1:8000", f"127.0.0.1:{port}")
            run = subprocess.run(
                ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "sh", "-c", check],
                cwd=app,
                env=_env(app, own_redis, port),
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert run.returncode == 0, f"{name}: {check}\n{run.stdout}\n{run.stderr}"
    finally:
        for proc in started.values():
            _stop(proc)


def test_the_old_beat_command_crashes_in_that_layout_so_this_test_would_catch_it(image, own_redis, tmp_path):
    app, _ = image
    log = tmp_path / "old-beat.log"
    proc = _start(app, "celery -A moderator beat --loglevel INFO", own_redis, 0, log)
    try:
        out = _until(proc, log, lambda out: "Sending due task" in out)
        assert proc.poll() is not None and proc.returncode != 0, out
        assert "Permission denied" in out or "PermissionError" in out, out
    finally:
        _stop(proc)
