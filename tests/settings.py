"""Settings for pytest: the project's (DEBUG off, as in production) with a test-only key and plain HTTP.

Set in the environment, not only here, so that subprocesses the tests start (a Celery worker) read the same."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-key-" + "x" * 40)
os.environ.setdefault("HTTPS", "false")
os.environ.setdefault("STATIC_MANIFEST", "false")  # static files by their plain names: no collectstatic first

from moderator.settings import *  # noqa: F403

DEMO_ACCOUNT = True  # tests/commands loads the demo game

# One process (the live server is a thread of it): its memory cache sees every version change (issue 25.4).
PAGES_REVALIDATE_SECONDS = 30
