"""Response headers for the pages reached by a secret link (a seat's, the host's, the links shown once at creation)."""

from __future__ import annotations

from django.http import HttpResponse


def secret_link_headers(response: HttpResponse) -> HttpResponse:
    """The token is in the URL: no proxy may keep the page, no link may carry it away in a Referer, no engine may
    index it."""
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
