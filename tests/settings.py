"""Settings for pytest: the project's (DEBUG off, as in production) with a test-only key and plain HTTP.

Set in the environment, not only here, so that subprocesses the tests start (a Celery worker) read the same."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-key-" + "x" * 40)
os.environ.setdefault("HTTPS", "false")
os.environ.setdefault("STATIC_MANIFEST", "false")  # static files by their plain names: no collectstatic first

# The suite never uses the Redis of the environment: REDIS_URL (and so Celery's broker, a Redis cache, the clock's
# stamps) points at a port of this process's own, where tests/conftest.py runs the guard redis-server; a test that
# reaches for "the" Redis instead of starting its own writes there and the run fails (tests/ops/test_suite_hygiene.py).
# Without redis-server nothing answers there: such a test fails instead of touching anything. A process a test starts
# (a Celery worker on the test's own redis-server, a command) keeps the REDIS_URL the test gave it.
import sys

from tests.servers import free_port

ENVIRONMENT_REDIS_URL = os.environ.get("REDIS_URL")
GUARD_REDIS_URL = os.environ.get("REDIS_URL", "")
if "pytest" in sys.modules:  # the test run itself (each xdist worker too), not a process it started
    os.environ["REDIS_URL"] = GUARD_REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"

from moderator.settings import *  # noqa: E402, F403

DEMO_ACCOUNT = True  # tests/commands loads the demo game

# One process (the live server is a thread of it): its memory cache sees every version change.
PAGES_REVALIDATE_SECONDS = 30

# The tests' own accounts get a fast hash: Django's default (PBKDF2, a million rounds) costs ≈ 0.3 s of CPU for every
# account a test creates and every sign-in, hundreds of times a run. The production hasher stays where a test needs a
# password check to take time (tests/security/test_login.py's concurrent burst).
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
