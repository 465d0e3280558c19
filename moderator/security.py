"""Error reports never show a secret setting."""

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
    """The last line under every form: a number or a text that the database cannot hold never becomes
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


class _FormPostMiddleware:
    """A middleware that looks at the POSTs to this site's own forms (the views of moderator/) before the view runs:
    `checked` answers for the view (a page) or lets it run (None)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method != "POST" or not getattr(view_func, "__module__", "").startswith("moderator."):
            return None
        return self.checked(request, view_kwargs)

    def checked(self, request, view_kwargs):
        raise NotImplementedError


class OnceMiddleware(_FormPostMiddleware):
    """Every POST to one of this site's forms carries a token the server signed for that form (services/once.py):
    checked here before the view runs, without a query. A forged, expired or foreign token (another form, game,
    phase, seat link or account) gets a page saying why (400/403) and reaches no view; a valid one reaches the view as
    its nonce and the phase it was signed for: `spend` refuses it under the game lock if that phase is no longer the open one (a stale
    page, said on the page itself), else marks it spent."""

    def checked(self, request, view_kwargs):
        token = request.POST.get("once", "")
        if not token:
            return None  # no token: the service refuses it ("缺少一次性令牌"), as before
        from django.shortcuts import render

        from moderator.services import once

        game_id = view_kwargs.get("game_id")
        try:
            body = once.check(
                token,
                kind=once.kind_of(request.resolver_match),
                game_id=game_id if isinstance(game_id, int) else None,
                who=once.who_of(request),
                any_game=isinstance(view_kwargs.get("token"), str),  # a seat's link names its game: `who` binds it
            )
        except once.TokenRefused as exc:
            return render(request, "once_refused.html", {"reason": str(exc)}, status=exc.status)
        post = request.POST.copy()
        post["once"] = body["n"]
        post["phase"] = "" if body.get("p") is None else str(body["p"])
        post._mutable = False
        request.POST = post
        return None


class RateLimitMiddleware(_FormPostMiddleware):
    """POSTs to this site's forms, counted per seat's private link and per 天神 account (django-ratelimit on the
    cache, settings.RATELIMIT_SEAT / RATELIMIT_GM): past the limit a page says when to try again (HTTP 429) and the
    view never runs, so nothing past the limit is stored."""

    def checked(self, request, view_kwargs):
        from django.conf import settings
        from django.shortcuts import render
        from django_ratelimit.core import is_ratelimited

        from moderator.services.once import who_of

        who = who_of(request)
        if who == "-":
            return None  # nobody signed in and no seat link: the sign-in page (django-axes) and the login redirect
        seat = who.startswith("s:")
        rate = settings.RATELIMIT_SEAT if seat else settings.RATELIMIT_GM
        if not is_ratelimited(request, group="posts", key=lambda _group, _request: who, rate=rate, increment=True):
            return None
        count, _, unit = rate.partition("/")
        span = {"s": "每秒", "m": "每分钟", "h": "每小时", "d": "每天"}.get(unit[-1:], "每段时间")
        whose = "这个私人链接" if seat else "这个天神账号"
        response = render(
            request,
            "rate_limited.html",
            {"reason": f"{whose}提交得太频繁了({span}最多 {count} 次)。这一次没有保存任何内容,请稍后再试。"},
            status=429,
        )
        response["Retry-After"] = "60"
        return response
