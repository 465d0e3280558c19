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


class OutOfRangeMiddleware:
    """The last line under every form (issue 16.5): a number or a text that the database cannot hold never becomes
    a 500. Forms bound their fields to their columns; anything that still slips through (an id of 23 digits in a URL
    or a POST, on SQLite an OverflowError, on PostgreSQL a DataError) is a 404 for a URL's id, else a 400 that says
    what was wrong."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        from django.db import DataError
        from django.http import Http404
        from django.shortcuts import render

        if not isinstance(exception, OverflowError | DataError):
            return None
        match = getattr(request, "resolver_match", None)
        if match and any(isinstance(v, int) and not -(2**63) <= v < 2**63 for v in match.kwargs.values()):
            raise Http404("不存在")
        return render(request, "out_of_range.html", status=400)
