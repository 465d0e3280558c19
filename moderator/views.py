"""The site's own pages: the home page (the games listed on it) and the favicon."""

from pathlib import Path

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import cache_control

from moderator.models import Game
from moderator.services.transfer import listed_on_home

FAVICON = Path(__file__).resolve().parent / "static" / "moderator" / "favicon.svg"


@cache_control(max_age=86400, public=True)
def favicon(request):
    """/favicon.ico, which browsers and feed readers ask for whatever the page's <link rel="icon"> says."""
    return HttpResponse(FAVICON.read_bytes(), content_type="image/svg+xml")


def home(request):
    games = listed_on_home(Game.objects.order_by("-created_at"))[:50]
    return render(request, "home.html", {"games": games})
