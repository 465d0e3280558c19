"""Settings for `python -m bench.pages`: the project's, served as in production (DEBUG off), plus a trivial view.

BENCH_CACHE: dummy (the cache off: every request replays and renders), locmem, or a redis:// URL.
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
_cache = os.environ.get("BENCH_CACHE", "locmem")  # dummy | locmem | a redis:// URL (bench.pages starts its own)
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    if _cache == "dummy"
    else {"BACKEND": "moderator.cache.RedisCache", "LOCATION": _cache}
    if _cache.startswith("redis://")
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}
# No write during a run: each worker's memory cache is as current as a shared one (PAGES_REVALIDATE_SECONDS=0: the
# check of every request, the `checked` variant).
PAGES_REVALIDATE_SECONDS = float(os.environ.get("PAGES_REVALIDATE_SECONDS", "30"))
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
