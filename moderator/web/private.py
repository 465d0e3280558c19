"""Pages reached by a secret link (a seat's, a table's) and the 404 that says nothing."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def private_page(response: HttpResponse) -> HttpResponse:
    """The token is in the URL: no proxy may keep the page, no link may carry it away in a Referer, no engine may
    index it. Every page reached by a secret link (a seat's, a table's) goes through here."""
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def not_found(request: HttpRequest, private_link: bool = False) -> HttpResponse:
    """A 404 that says nothing: not whether the game, the token or the seat exists. At a private link's address
    (`private_link`) it says what a player can do: a link the 天神 replaced (or a seat taken by a substitute) no
    longer works, ask the 天神 for the new one — the same words for every such address, existing or not."""
    return render(request, "public/not_found.html", {"private_link": private_link}, status=404)
