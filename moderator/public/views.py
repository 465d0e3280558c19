"""The public game page and the players' private pages: GET only, secret-safe, cheap.

For a visitor who is not signed in (base.html's header then holds no name and no CSRF token, so the page is the same
for every such visitor) the whole page and its deadline come from the cache under the game's page version, without a
database query while the game has not changed (moderator.public.pagecache); only the countdown is rendered per
request. Otherwise a request takes a snapshot of the game (one query, moderator.public.snapshot) and the rest comes
from the cache under the snapshot's fingerprint — the page body, and for a visitor not signed in the whole page with
its deadline. Only a change in the game replays it and renders it again (moderator.public.bodies).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_safe

from moderator.models import Seat
from moderator.public import bodies, pagecache
from moderator.public.snapshot import (
    MAX_TOKEN_CHARS,
    MIN_TOKEN_CHARS,
    Snapshot,
    clock_html,
    deadline,
    game_snapshot,
    seat_by_token,
)
from moderator.web.private import not_found, private_page

CACHE_SECONDS = 300  # an entry lives until its game changes, and at most this long (an edit in the admin is not seen)
CLOCK = "<!--clock-->"  # where the live countdown goes: escaped text can never contain "<!--"


def _cache_get(key: str):
    try:
        return cache.get(key)
    except Exception:  # a cache that does not answer: render from the database
        return None


def _cache_set(key: str, value) -> None:
    with contextlib.suppress(Exception):
        cache.set(key, value, CACHE_SECONDS)


def _cached(key: str, build: Callable[[], str]) -> SafeString:
    """Rendered HTML from the cache, or built and stored. Everything cached is rendered by our autoescaping
    templates and depends on the game only, never on the request."""
    html = _cache_get(key)
    if html is None:
        html = build()
        _cache_set(key, html)
    return mark_safe(html)


def _anonymous_page(request: HttpRequest, key: str, template: str, context: Callable[[], dict], snap: Snapshot):
    """The whole page for a visitor not signed in, the countdown left out, and its deadline."""
    page_key = f"{key}:page:{getattr(request, 'LANGUAGE_CODE', '')}"
    entry = _cache_get(page_key)
    if entry is None:
        html = render_to_string(template, {**context(), "clock": mark_safe(CLOCK)}, request)
        entry = (html, deadline(snap))
        _cache_set(page_key, entry)
    return entry


def _with_clock(entry) -> HttpResponse:
    html, due = entry
    return HttpResponse(html.replace(CLOCK, clock_html(due), 1))


def _signed_in_page(request: HttpRequest, template: str, context: Callable[[], dict], snap: Snapshot) -> HttpResponse:
    """The header carries the user's name and a CSRF token: rendered each time around the cached body."""
    live = clock_html(deadline(snap))
    return HttpResponse(render_to_string(template, {**context(), "clock": mark_safe(live)}, request))


def _latest_phase(snap: Snapshot) -> int | None:
    """The newest phase the page shows: the new-phase notice polls for a newer one (public/_phase_watch.html)."""
    return max((p.pk for p in snap.phases), default=None)


def _public_context(snap: Snapshot) -> Callable[[], dict]:
    def context() -> dict:
        body = _cached(
            f"pages:game:{snap.key}", lambda: render_to_string("public/_game_body.html", bodies.game_body(snap))
        )
        return {"game": snap.game, "body": body, "latest_phase": _latest_phase(snap)}

    return context


def _seat_context(seat: Seat, snap: Snapshot) -> Callable[[], dict]:
    def context() -> dict:
        key = f"pages:seat:{seat.pk}:{snap.key}"
        body = _cached(key, lambda: render_to_string("public/_seat_body.html", bodies.seat_body(seat, snap)))
        return {"game": snap.game, "seat": seat, "body": body, "latest_phase": _latest_phase(snap)}

    return context


@require_safe
def game_public(request: HttpRequest, game_id: int) -> HttpResponse:
    if request.user.is_authenticated:
        snap = game_snapshot(game_id)
        if snap is None:
            return not_found(request)
        response = _signed_in_page(request, "public/game.html", _public_context(snap), snap)
        patch_cache_control(response, private=True)
    else:

        def fingerprint():
            snap = game_snapshot(game_id)
            return None if snap is None else (snap.key, snap)

        def build(snap: Snapshot):
            key = f"pages:game:{snap.key}"
            return _anonymous_page(request, key, "public/game.html", _public_context(snap), snap)

        lang = getattr(request, "LANGUAGE_CODE", "")
        entry = pagecache.page(f"game:{game_id}:{lang}", game_id, fingerprint, build)
        if entry is None:
            return not_found(request)
        response = _with_clock(entry)
    patch_cache_control(response, no_cache=True)  # the countdown and the tally move: revalidate every time
    return response


def _game_of(found: tuple[Seat, Snapshot]) -> int:
    return found[1].game.pk


@require_safe
def seat_private(request: HttpRequest, token: str) -> HttpResponse:
    if not MIN_TOKEN_CHARS <= len(token) <= MAX_TOKEN_CHARS:  # cannot be a link: no query, no cache
        return private_page(not_found(request, private_link=True))
    if request.user.is_authenticated:
        found = seat_by_token(token)
        if found is None:
            return private_page(not_found(request, private_link=True))
        seat, snap = found
        return private_page(_signed_in_page(request, "public/seat.html", _seat_context(seat, snap), snap))

    def fingerprint():
        found = seat_by_token(token)
        return None if found is None else (found[1].key, found)

    def build(found: tuple[Seat, Snapshot]):
        seat, snap = found
        key = f"pages:seat:{seat.pk}:{snap.key}"
        return _anonymous_page(request, key, "public/seat.html", _seat_context(seat, snap), snap)

    # The page is kept under the link (a digest of it), never under the seat: a rotated or replaced link finds nothing.
    lang = getattr(request, "LANGUAGE_CODE", "")
    entry = pagecache.page(f"seat:{pagecache.token_key(token)}:{lang}", _game_of, fingerprint, build)
    if entry is None:
        return private_page(not_found(request, private_link=True))
    return private_page(_with_clock(entry))
