"""The project's URLs plus the trivial view the pages are measured against."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def trivial(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("bench/trivial/", trivial, name="bench_trivial"),
    path("", include("moderator.urls")),
]
