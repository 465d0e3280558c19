"""The public game page and the players' private pages: GET only, secret-safe, cheap.

Each page takes a snapshot of the game (two queries), renders the small live part (the countdown) every time and
takes the body from the cache under the snapshot's key; only a change in the game replays it (selectors).
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_safe

from moderator.public import selectors

BODY_SECONDS = 300  # a body lives until its game changes, and at most this long (an edit in the admin is not seen)


def _body(key: str, build: Callable[[], str]) -> SafeString:
    """The page body from the cache, or built and stored; bodies are rendered with autoescaping and never depend
    on the request, so the same HTML is right for everyone who may see it."""
    html = cache.get(key)
    if html is None:
        html = build()
        cache.set(key, html, BODY_SECONDS)
    return mark_safe(html)  # rendered by our own autoescaping templates


def _private(response: HttpResponse) -> HttpResponse:
    """The token is in the URL: no proxy may keep the page, no link may carry it away in a Referer."""
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def not_found(request: HttpRequest) -> HttpResponse:
    """A 404 that says nothing: not whether the game, the token or the seat exists."""
    return render(request, "public/not_found.html", status=404)


@require_safe
def game_public(request: HttpRequest, game_id: int) -> HttpResponse:
    snap = selectors.game_snapshot(game_id)
    if snap is None:
        return not_found(request)
    body = _body(
        f"pages:game:{snap.key}",
        lambda: render_to_string("public/_game_body.html", selectors.public_view(snap)),
    )
    response = render(request, "public/game.html", {"game": snap.game, "clock": selectors.clock(snap), "body": body})
    patch_cache_control(response, no_cache=True)  # the countdown and the tally move: revalidate every time
    if request.user.is_authenticated:
        patch_cache_control(response, private=True)  # the header then carries the GM's name and a CSRF token
    return response


@require_safe
def seat_private(request: HttpRequest, token: str) -> HttpResponse:
    found = selectors.seat_by_token(token)
    if found is None:
        return _private(not_found(request))
    seat, snap = found
    body = _body(
        f"pages:seat:{seat.pk}:{snap.key}",
        lambda: render_to_string("public/_seat_body.html", selectors.seat_view(seat, snap)),
    )
    context = {"game": snap.game, "seat": seat, "clock": selectors.clock(snap), "body": body}
    return _private(render(request, "public/seat.html", context))
