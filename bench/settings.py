"""Settings for `python -m bench.pages`: the project's, served as in production (DEBUG off), plus a trivial view.

BENCH_CACHE=dummy turns the page-body cache off (every request replays and renders: the uncached figures).
"""

import os

from moderator.settings import *  # noqa: F403

DEBUG = False
ROOT_URLCONF = "bench.urls"
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.dummy.DummyCache"
        if os.environ.get("BENCH_CACHE") == "dummy"
        else "django.core.cache.backends.locmem.LocMemCache"
    }
}
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
