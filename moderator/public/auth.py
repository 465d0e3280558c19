"""The 天神's sign-in with a throttle: repeated failures for one username, or from one address, lock further
attempts for a while — checked before the password is, so a locked-out guesser learns nothing even when right.

Counts live in Django's cache (fixed windows). With several server processes the cache must be shared (Redis or the
database cache) for the limits to hold across processes; the per-process default only slows a guesser down.
"""

from __future__ import annotations

import hashlib

from django.contrib.auth.views import LoginView
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

WINDOW_SECONDS = 15 * 60
LIMIT_PER_USERNAME = 5
LIMIT_PER_ADDRESS = 20


def _key(kind: str, value: str) -> str:
    return f"login-fail:{kind}:{hashlib.sha256(value.encode()).hexdigest()[:32]}"


def _keys(request: HttpRequest) -> list[tuple[str, int]]:
    username = request.POST.get("username", "").strip().casefold()
    address = request.META.get("REMOTE_ADDR", "")
    return [(_key("user", username), LIMIT_PER_USERNAME), (_key("addr", address), LIMIT_PER_ADDRESS)]


def throttled(request: HttpRequest) -> bool:
    counts = cache.get_many([key for key, _ in _keys(request)])
    return any(counts.get(key, 0) >= limit for key, limit in _keys(request))


def failure_record(request: HttpRequest) -> None:
    for key, _ in _keys(request):
        cache.add(key, 0, WINDOW_SECONDS)  # the window starts at the first failure
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, WINDOW_SECONDS)


class ThrottledLoginView(LoginView):
    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if throttled(request):
            minutes = WINDOW_SECONDS // 60
            return render(request, "public/login_throttled.html", {"minutes": minutes}, status=429)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        failure_record(self.request)
        return super().form_invalid(form)

    def form_valid(self, form):
        cache.delete(_keys(self.request)[0][0])  # the right password clears its username's count, not the address's
        return super().form_valid(form)
