"""The 天神's sign-in under attack, on django-axes: failed attempts are rows in the database (shared by every web
process), the admin's sign-in is covered like ours, and a lock is a cool-off, not a hard lock.

What this module adds to axes:
- `username_key`: the name as Django reads it at sign-in (NFKC, so ｔｉａｎｓｈｅｎ is tianshen), casefolded, so that
  styled variants of one name share one record.
- `client_ip`: REMOTE_ADDR, or behind `TRUSTED_PROXY` the address our outermost proxy appended to X-Forwarded-For
  (never a client-written one).
- `SerialSignInMiddleware`: sign-in POSTs for one name or from one address run one after the other, so a burst of
  concurrent guesses is counted before each check instead of all passing the check together.
"""

from __future__ import annotations

import hashlib
import ipaddress
import unicodedata

from axes.helpers import get_cool_off
from django.conf import settings
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse


def username_key(request: HttpRequest, credentials: dict | None) -> str:
    """AXES_USERNAME_CALLABLE: one key for every spelling of one name that signs in as the same account."""
    name = (credentials or {}).get("username")
    if name is None:
        name = request.POST.get("username", "") if request is not None else ""
    return unicodedata.normalize("NFKC", str(name)).strip().casefold()[:150]


def client_ip(request: HttpRequest) -> str:
    """AXES_CLIENT_IP_CALLABLE and RATELIMIT_IP_META_KEY (the table-creation limit). Without a trusted proxy
    X-Forwarded-For is the client's own words: ignored. Behind PROXY_COUNT trusted proxies, each appended the address
    it saw; the outermost one's entry is the client (an entry that is no address at all: REMOTE_ADDR)."""
    remote = request.META.get("REMOTE_ADDR", "")
    if not settings.TRUSTED_PROXY:
        return remote
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    if len(hops) < settings.PROXY_COUNT:
        return remote
    try:
        return str(ipaddress.ip_address(hops[-settings.PROXY_COUNT]))
    except ValueError:
        return remote


def lockout_response(request: HttpRequest, original_response=None, credentials: dict | None = None) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the Chinese page, with the cool-off in minutes."""
    cool_off = get_cool_off(request)
    minutes = int(cool_off.total_seconds() // 60) if cool_off else 15
    return render(request, "public/login_throttled.html", {"minutes": minutes}, status=429)


def _sign_in_paths() -> set[str]:
    return {reverse("login"), reverse("admin:login")}


def _lock_key(kind: str, value: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{kind}:{value}".encode()).digest()[:8], "big", signed=True)


class SerialSignInMiddleware:
    """Sign-in POSTs take a transaction-scoped lock on their name and their address (PostgreSQL advisory locks, in a
    fixed order; SQLite's write transactions are serial already), so axes counts each failure before the next
    attempt on that name or address is checked. Everything else passes untouched."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST" or request.path_info not in _sign_in_paths():
            return self.get_response(request)
        with transaction.atomic():
            if connection.vendor == "postgresql":
                keys = sorted({_lock_key("name", username_key(request, None)), _lock_key("addr", client_ip(request))})
                with connection.cursor() as cursor:
                    for key in keys:
                        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
            return self.get_response(request)
