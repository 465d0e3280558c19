"""Safe settings by default. DEBUG is off unless asked for; without DEBUG a SECRET_KEY is required;
`check --deploy` is clean under the production environment of the README; error pages hide the broker's password;
every page carries a Content-Security-Policy; the demo GM (published password) exists only under `make run`."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import RequestFactory, override_settings
from django.views.debug import technical_500_response

ROOT = settings.BASE_DIR
# The production environment the README documents (a TLS-terminating proxy in front, PostgreSQL and Redis behind).
PRODUCTION = {
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "direnjie.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://direnjie.example.org",
    "TRUSTED_PROXY": "true",
    "DATABASE_URL": "postgres://direnjie:pw@db/direnjie",  # as documented: hosts of no service here, never reached
    "REDIS_URL": "redis://:broker-pw@redis:6379/0",
    "CACHE_IN_REDIS": "true",
}


def _django(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL")}
    env = {**keep, "DJANGO_SETTINGS_MODULE": "moderator.settings", **env}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_under_the_documented_production_environment():
    done = _django(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_without_debug_or_a_secret_key_the_site_refuses_to_start():
    done = _django(["-c", "import django; django.setup()"], {})
    assert done.returncode != 0 and "SECRET_KEY must be set when DEBUG is off" in done.stderr
    published = _django(
        ["-c", "import django; django.setup()"], {"SECRET_KEY": "dev-only-insecure-key-do-not-use-in-production"}
    )
    assert published.returncode != 0 and "SECRET_KEY must be set" in published.stderr


def test_debug_is_off_unless_asked_for():
    code = "import django; django.setup(); from django.conf import settings as s; print(s.DEBUG, s.SECURE_SSL_REDIRECT)"
    assert _django(["-c", code], {"SECRET_KEY": "k" * 50}).stdout.split() == ["False", "True"]
    assert _django(["-c", code], {"DEBUG": "true"}).stdout.split() == ["True", "False"]


def _error_page() -> str:
    """The DEBUG technical page of an error raised here (no secret in this frame or in this file's source)."""
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        return technical_500_response(RequestFactory().get("/"), *sys.exc_info()).content.decode()


def test_the_debug_error_page_hides_the_brokers_password():
    password = secrets.token_hex(8)
    url = f"redis://:{password}@10.0.0.5:6379/0"
    cache = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}}
    with override_settings(DEBUG=True, CELERY_BROKER_URL=url, REDIS_URL=url, CACHES=cache):
        page = _error_page()
    assert "CELERY_BROKER_URL" in page and password not in page


@pytest.mark.django_db
def test_every_page_carries_a_content_security_policy_without_inline_scripts(client):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy and response["X-Frame-Options"] == "DENY"


@pytest.mark.django_db
@override_settings(DEMO_ACCOUNT=False)
def test_the_demo_gm_is_never_made_outside_make_run():
    from django.contrib.auth import get_user_model

    with pytest.raises(CommandError, match="只用于 `make run`"):
        call_command("demo")
    assert not get_user_model().objects.filter(username="tianshen").exists()
