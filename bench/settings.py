"""Settings for `python -m bench.pages`: the project's, served as in production (DEBUG off), plus a trivial view.

BENCH_CACHE=dummy turns the page-body cache off (every request replays and renders: the uncached figures).
"""

import os

# Served over plain HTTP on localhost with a throwaway key; set in the environment so gunicorn's workers read it too.
os.environ.setdefault("SECRET_KEY", "bench-only-key-" + "x" * 40)
os.environ.setdefault("HTTPS", "false")
os.environ.setdefault("STATIC_MANIFEST", "false")  # static files by their plain names: no collectstatic first

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
