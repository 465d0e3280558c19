"""The public game page and the players' private pages: GET only, secret-safe, cheap.

A request takes a snapshot of the game (one query, moderator.public.snapshot) and renders the countdown; the rest
comes from the cache under the snapshot's fingerprint — the page body, and for a visitor who is not signed in the
whole page with its deadline (base.html's header then holds no name and no CSRF token, so it is the same for every
such visitor). Only a change in the game replays it and renders it again (selectors).
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
from moderator.public.snapshot import Snapshot, clock_html, deadline, game_snapshot, seat_by_token

CACHE_SECONDS = 300  # an entry lives until its game changes, and at most this long (an edit in the admin is not seen)
CLOCK = "<!--clock-->"  # where the live countdown goes: escaped text can never contain "<!--"


def _cached(key: str, build: Callable[[], str]) -> SafeString:
    """Rendered HTML from the cache, or built and stored. Everything cached is rendered by our autoescaping
    templates and depends on the game only, never on the request."""
    html = cache.get(key)
    if html is None:
        html = build()
        cache.set(key, html, CACHE_SECONDS)
    return mark_safe(html)


def _page(request: HttpRequest, key: str, template: str, context: Callable[[], dict], snap: Snapshot) -> HttpResponse:
    if request.user.is_authenticated:  # the header carries the user's name and a CSRF token: render it each time
        live = clock_html(deadline(snap))
        return HttpResponse(render_to_string(template, {**context(), "clock": mark_safe(live)}, request))
    page_key = f"{key}:page:{getattr(request, 'LANGUAGE_CODE', '')}"
    entry = cache.get(page_key)
    if entry is None:
        html = render_to_string(template, {**context(), "clock": mark_safe(CLOCK)}, request)
        entry = (html, deadline(snap))
        cache.set(page_key, entry, CACHE_SECONDS)
    html, due = entry
    return HttpResponse(html.replace(CLOCK, clock_html(due), 1))


def _latest_phase(snap: Snapshot) -> int | None:
    """The newest phase the page shows: the new-phase notice polls for a newer one (public/_phase_watch.html)."""
    return max((p.pk for p in snap.phases), default=None)


def private_page(response: HttpResponse) -> HttpResponse:
    """The token is in the URL: no proxy may keep the page, no link may carry it away in a Referer, no engine may
    index it. Every page reached by a secret link (a seat's, a table's) goes through here."""
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def not_found(request: HttpRequest) -> HttpResponse:
    """A 404 that says nothing: not whether the game, the token or the seat exists."""
    return render(request, "public/not_found.html", status=404)


@require_safe
def game_public(request: HttpRequest, game_id: int) -> HttpResponse:
    snap = game_snapshot(game_id)
    if snap is None:
        return not_found(request)
    key = f"pages:game:{snap.key}"

    def context() -> dict:
        body = _cached(key, lambda: render_to_string("public/_game_body.html", selectors.public_view(snap)))
        return {"game": snap.game, "body": body, "latest_phase": _latest_phase(snap)}

    response = _page(request, key, "public/game.html", context, snap)
    patch_cache_control(response, no_cache=True)  # the countdown and the tally move: revalidate every time
    if request.user.is_authenticated:
        patch_cache_control(response, private=True)
    return response


@require_safe
def seat_private(request: HttpRequest, token: str) -> HttpResponse:
    found = seat_by_token(token)
    if found is None:
        return private_page(not_found(request))
    seat, snap = found
    key = f"pages:seat:{seat.pk}:{snap.key}"

    def context() -> dict:
        body = _cached(key, lambda: render_to_string("public/_seat_body.html", selectors.seat_view(seat, snap)))
        return {"game": snap.game, "seat": seat, "body": body, "latest_phase": _latest_phase(snap)}

    return private_page(_page(request, key, "public/seat.html", context, snap))
