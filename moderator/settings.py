"""Settings, all from the environment (DATABASE_URL, REDIS_URL, SECRET_KEY, DEBUG, ALLOWED_HOSTS, PHASE_HOURS …).

Safe by default: DEBUG is off unless DEBUG=true (`make run` sets it), and then SECRET_KEY is required and the site
is HTTPS-only (HSTS, secure cookies, a Content-Security-Policy). README "Production" lists the environment under
which `python manage.py check --deploy` is clean; tests use tests/settings.py."""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
_DEV_KEY = "dev-only-insecure-key-do-not-use-in-production"


def _flag(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def _list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = _flag("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not DEBUG and SECRET_KEY in ("", _DEV_KEY):
    raise ImproperlyConfigured(
        "SECRET_KEY must be set when DEBUG is off: python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
SECRET_KEY = SECRET_KEY or _DEV_KEY
ALLOWED_HOSTS = _list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = _list("CSRF_TRUSTED_ORIGINS")  # e.g. https://direnjie.example.org (behind a proxy)

# --- HTTPS ---
# On whenever DEBUG is off; HTTPS=false turns it off (tests, a plain-HTTP benchmark on localhost).
HTTPS = _flag("HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", "31536000")) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS and _flag("HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = HTTPS and _flag("HSTS_PRELOAD", True)
# Behind a TLS-terminating proxy (nginx, a PaaS router) that sets X-Forwarded-Proto itself and drops the client's:
# TRUSTED_PROXY=true. Never without such a proxy: a client could then claim HTTPS over plain HTTP.
TRUSTED_PROXY = _flag("TRUSTED_PROXY", False)
PROXY_COUNT = max(1, int(os.environ.get("PROXY_COUNT", "1")))  # proxies in front that append to X-Forwarded-For
if TRUSTED_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
# Scripts only from our own static files; styles may be inline (style="" attributes), never from elsewhere.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# The technical 500 page (DEBUG only) hides every setting whose name says it may hold a secret: broker and cache
# URLs carry passwords (redis://:password@host) and their names do not say KEY or PASS.
DEFAULT_EXCEPTION_REPORTER_FILTER = "moderator.security.SecretSettingsFilter"
# The demo account's password is published (README): the demo command refuses to make it unless DEBUG is on.
DEMO_ACCOUNT = DEBUG
# --- end HTTPS ---

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "csp",
    "axes",
    "django_q",
    "django_htmx",
    "moderator",
    "tables",
    *[a for a in os.environ.get("EXTRA_APPS", "").split(",") if a],
]

MIDDLEWARE = [
    "moderator.health.HealthMiddleware",  # /healthz: any Host, plain HTTP (moderator/health.py)
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "moderator.security.BodyLimitMiddleware",  # a body over DATA_UPLOAD_MAX_MEMORY_SIZE: a 413 page, not a dropped connection
    "moderator.security.OutOfRangeMiddleware",
    "moderator.security.RateLimitMiddleware",  # POSTs per seat link and per 天神 account (django-ratelimit)
    "moderator.security.OnceMiddleware",  # forms' one-time tokens: signed by the server for that form, game, seat
    "moderator.public.auth.SerialSignInMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as axes asks
]

# --- sign-in throttle: django-axes, failures stored in the database ---
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = 5
# Locked per account AND address: a stranger's guesses lock that name from the stranger's address only,
# never the 天神 signing in from elsewhere; and a success on another account from the same address (reset on success)
# clears only that account's count, never the attacked one's (per address alone, 4 wrong + 1 right gave 155,000/day).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_COOLOFF_TIME = timedelta(minutes=15)  # a cool-off, then the right password works again
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # retrying while cooled off does not push the end back
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "moderator.public.auth.username_key"
AXES_CLIENT_IP_CALLABLE = "moderator.public.auth.client_ip"
AXES_LOCKOUT_CALLABLE = "moderator.public.auth.lockout_response"
AXES_VERBOSE = False
# --- end sign-in throttle ---

ROOT_URLCONF = "moderator.urls"
WSGI_APPLICATION = "moderator.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite by default so `make run` needs nothing installed; PostgreSQL in production and in CI.
DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'var' / 'db.sqlite3'}",
        # A process keeps its session (web requests; Celery tasks, see CELERY_DB_REUSE_MAX) up to CONN_MAX_AGE
        # seconds. A worker checks it before each task (moderator/celery.py); a page pays no extra round trip.
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "600")),
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    (BASE_DIR / "var").mkdir(exist_ok=True)
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    # Write transactions take the lock at BEGIN: with django-q2 writing to the same file, a close never fails with
    # "database is locked" halfway (it waits up to the timeout instead).
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [{"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"}]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"

LANGUAGE_CODE = "zh-hans"
# Chinese only: an English browser (Accept-Language: en) still gets Django's own words (the sign-in form's
# 用户名/密码, the admin) in Chinese, like every page of ours.
LANGUAGES = [("zh-hans", "简体中文")]
TIME_ZONE = "Asia/Shanghai"  # times are shown in Beijing time; stored in UTC
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "var" / "static")
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns about a missing root
# Production (DEBUG off): `collectstatic` writes each file under a content-hashed name, gzip and brotli beside it, and
# WhiteNoise serves them with a far-future expiry; pages link the hashed names. Needs collectstatic before serving
# (the image does it at build); STATIC_MANIFEST=false serves the plain names (tests, benchmarks).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG and _flag("STATIC_MANIFEST", True)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# The game clock (T1): a night or a day lasts PHASE_HOURS real hours.
PHASE_SECONDS = int(float(os.environ.get("PHASE_HOURS", "24")) * 3600)

# Production phase clock: Celery on Redis (Procfile). The embedded default is django-q2 on the ORM broker.
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
CELERY_BROKER_URL = REDIS_URL
# kombu's Redis transport, but a lost connection's clean-up never ends the worker (moderator/celery.py, Transport)
CELERY_BROKER_TRANSPORT = "moderator.celery:Transport"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
# A task stuck on a lock or a dead connection never holds a worker for good: SoftTimeLimitExceeded inside it after
# the soft limit (its transaction rolls back; a close is retried by the next sweep), the process killed at the hard one.
CELERY_TASK_SOFT_TIME_LIMIT = int(os.environ.get("CELERY_TASK_SOFT_TIME_LIMIT", "60"))
CELERY_TASK_TIME_LIMIT = int(os.environ.get("CELERY_TASK_TIME_LIMIT", "90"))
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"

# The cache holds the sign-in throttle's counts and the public pages' bodies. One process (make run, tests): memory.
# Several web processes (production): CACHE_IN_REDIS=true so that every process sees the same counts and pages.
CACHES = {
    "default": {"BACKEND": "moderator.cache.RedisCache", "LOCATION": REDIS_URL}
    if _flag("CACHE_IN_REDIS", False)
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

# The largest form a browser may send (files aside, which their own forms bound): Django's 2.5 MB, enough for a dawn's
# every 杀人宣言 and a bulk paste of 400,000 characters. Past it a 413 page says the limit (moderator.security).
DATA_UPLOAD_MAX_MEMORY_SIZE = int(float(os.environ.get("BODY_LIMIT_MB") or "2.5") * 1024 * 1024)

# Rate limits (django-ratelimit, counted in this cache: Redis in production, so every web process shares the counts):
# POSTs per seat's private link and per 天神 account. Generous for real play — a player previews and confirms a
# handful of inputs a phase; a 天神's bulk paste previews as he types —, an HTTP 429 page past them.
CACHES["ratelimit"] = {**CACHES["default"], "KEY_PREFIX": "rl"}
RATELIMIT_USE_CACHE = "ratelimit"
RATELIMIT_SEAT = os.environ.get("RATELIMIT_SEAT") or "60/h"
RATELIMIT_GM = os.environ.get("RATELIMIT_GM") or "1200/h"
# A 天神's previews (stored nothing; the bulk box sends one after each pause in typing: 32 in 96 s of real typing,
# 1,200 an hour) are counted apart, so that they never spend the writes' budget: two a second for a whole hour.
RATELIMIT_GM_PREVIEW = os.environ.get("RATELIMIT_GM_PREVIEW") or "7200/h"
# The table-creation limit counts per client address, the proxy-aware one sign-in uses (moderator.public.auth).
RATELIMIT_IP_META_KEY = "moderator.public.auth.client_ip"

# Pages without a query (docs/pages.md): a page is served from the cache under its game's version, checked
# against the database at most every PAGES_REVALIDATE_SECONDS (a lost version change is seen within that time). A
# per-process memory cache cannot see a version changed in another process (the scheduler's closes, other web
# processes): there it is 0 — one query per request, the fingerprint — unless PAGES_REVALIDATE_SECONDS says otherwise.
PAGES_CACHE = "default"
PAGES_REVALIDATE_SECONDS = float(
    os.environ.get("PAGES_REVALIDATE_SECONDS") or (30 if CACHES["default"]["BACKEND"].endswith("RedisCache") else 0)
)

Q_CLUSTER = {
    "name": "direnjie",
    "orm": "default",
    "workers": 2,  # a phase sweep (tasks.sweep_q) may hold one for up to a minute while a phase is ending
    "timeout": 90,
    "retry": 120,
    "catch_up": False,
    "poll": 1,
    "label": "阶段时钟",
}

# --- phase clock ---
# Beat sweeps every CLOCK_SWEEP_SECONDS on the `clock` queue; each sweep expires after one interval so none pile up.
CLOCK_SWEEP_SECONDS = float(os.environ.get("CLOCK_SWEEP_SECONDS", "2"))
# /healthz fails the clock when its last sweep (stamped in the database) is older than this: a dead worker or beat
# shows within two minutes. The Celery clock sweeps every 2 s, the embedded django-q2 clock at least once a minute.
CLOCK_STALE_SECONDS = float(os.environ.get("CLOCK_STALE_SECONDS", "120"))
CLOCK_SWEEP_INLINE = int(os.environ.get("CLOCK_SWEEP_INLINE", "20"))  # a sweep closes this many overdue phases itself
# and fans the rest out to the pool
CLOCK_BATCH_SIZE = int(os.environ.get("CLOCK_BATCH_SIZE", "50"))  # phases closed in one transaction (one task)
# Overdue phases one sweep reads and claims (oldest first). A backlog larger than this is fanned out over the next
# sweeps — faster than a pool drains it anyway; re-reading and re-claiming a queued backlog of 20,000 every 2 s cost
# the worker ≈ 2.8 ms per close (bench/clock.md).
CLOCK_SWEEP_LIMIT = int(os.environ.get("CLOCK_SWEEP_LIMIT", "2000"))
# The close's statements are prepared once per database session (moderator/services/closesql.py). Behind a
# transaction pooler that does not keep protocol-level prepared statements (pgbouncer before 1.22, or without
# max_prepared_statements) set CLOCK_CLOSE_PREPARED=false: docs/scaling.md "Database sessions".
CLOCK_CLOSE_PREPARED = _flag("CLOCK_CLOSE_PREPARED", True)
CLOCK_FAN_OUT_TTL_SECONDS = 30  # an overdue phase is fanned out again (if still open) after this
CLOCK_ETA_WINDOW_SECONDS = 60  # phases ending this soon also get a close_phase task with an ETA at their end
# A phase with an ETA is not fanned out until this long after its end: an ETA lost with its worker costs no more (the
# sweeps close it then), and an ETA that did run left a duplicate that finds nothing to do.
CLOCK_ETA_GRACE_SECONDS = float(os.environ.get("CLOCK_ETA_GRACE_SECONDS", "5"))
CLOCK_Q_RUN_SECONDS = 65  # a django-q2 run (every minute) also closes the phases ending within this, on time
CELERY_TASK_ROUTES = {"moderator.tasks.sweep_phases": {"queue": "clock"}}
CELERY_BEAT_SCHEDULE = {
    "sweep-phases": {
        "task": "moderator.tasks.sweep_phases",
        "schedule": CLOCK_SWEEP_SECONDS,
        "options": {"queue": "clock", "expires": CLOCK_SWEEP_SECONDS},
    }
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A close in flight when the broker goes away is cancelled and redelivered (a close is idempotent: the redelivery, or
# the next sweep, finds it done or does it once), as Celery recommends with late acks and will default to in 6.0. A
# task that finished just as Redis died is covered by CELERY_BROKER_TRANSPORT above (docs/operations.md "The clock and
# its broker"). The broker is retried for ever (BROKER_CONNECTION_MAX_RETRIES None), never given up after 100 tries.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Celery's Django fixup closes every database session before and after each task unless DB_REUSE_MAX is set (then
# once every 2 × DB_REUSE_MAX tasks): a close would open a new PostgreSQL session each time (≈ 6 ms of server CPU).
# With this the session is kept; moderator/celery.py applies CONN_MAX_AGE around each task as Django does around each
# request (close_old_connections) and checks the session's health before each task. docs/scaling.md: sessions,
# max_connections, pgbouncer.
CELERY_DB_REUSE_MAX = 1_000_000
# --- end phase clock ---

# Every line says when, how bad and from where: `2026-11-27 23:40:01,123 INFO moderator.tasks …` (standard error).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "line"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
