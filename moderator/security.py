"""Error reports never show a secret setting (issue 16.4)."""

from __future__ import annotations

import re

from django.views.debug import SafeExceptionReporterFilter


class SecretSettingsFilter(SafeExceptionReporterFilter):
    """Django hides settings named like API, TOKEN, KEY, SECRET, PASS, SIGNATURE; ours also put passwords in URLs
    (CELERY_BROKER_URL, REDIS_URL, a cache's LOCATION, DATABASE_URL-style strings)."""

    hidden_settings = re.compile(
        "API|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|URL|BROKER|BACKEND_URL|LOCATION|DSN", flags=re.I
    )
