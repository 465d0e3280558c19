"""Benchmarks: `python -m bench.NAME` prints figures (docs/benchmarks.md)."""

import os
import secrets


def local_settings() -> None:
    """A benchmark runs the project in-process on a throwaway database: like `manage.py`'s commands it gets a fresh
    random signing key for this process (never the published dev key), plain HTTP (the Django test client talks
    to it directly) and static files by their plain names, unless the environment sets them. Logging from WARNING up
    only: the figures are the output, not the sign-in throttle's INFO lines of the test client's logins."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "moderator.settings")
    os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_urlsafe(40))
    os.environ.setdefault("HTTPS", "false")
    os.environ.setdefault("STATIC_MANIFEST", "false")  # pages render without collectstatic first
    os.environ.setdefault("LOG_LEVEL", "WARNING")
