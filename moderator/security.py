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


DRAIN_MAX = 64 * 1024 * 1024  # a body up to this is read to its end before the 413 (see BodyLimitMiddleware)


class BodyLimitMiddleware:
    """A request body over Django's limit (DATA_UPLOAD_MAX_MEMORY_SIZE, files aside: a 杀人宣言 edit of 3 MB) gets a
    413 page in Chinese saying the limit, instead of Django's 400 over a connection closed with the body unread (the
    browser, still sending, sees a network error, never the page). The body is read to its end first (up to
    DRAIN_MAX, discarded), so the server closes a connection that has nothing left unread."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.core.exceptions import RequestDataTooBig

        if request.method in ("GET", "HEAD", "OPTIONS"):
            return self.get_response(request)
        try:
            request.POST  # noqa: B018 — parsed now, where a body too big can still be answered with a page
        except RequestDataTooBig:
            return self.too_big(request)
        return self.get_response(request)

    @staticmethod
    def too_big(request):
        from django.conf import settings
        from django.http.request import UnreadablePostError
        from django.shortcuts import render

        size = int(request.META.get("CONTENT_LENGTH") or 0)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if size <= DRAIN_MAX:
            try:
                while request.read(256 * 1024):
                    pass
            except UnreadablePostError:
                pass
        mb = f"{limit / 1024 / 1024:.1f}".removesuffix(".0")
        sent = f"{size / 1024 / 1024:.1f}".removesuffix(".0")
        response = render(request, "request_too_big.html", {"limit": mb, "size": sent}, status=413)
        if size > DRAIN_MAX:
            response["Connection"] = "close"
        return response


class _FormPostMiddleware:
    """A middleware that looks at the POSTs to this site's own forms (the views of moderator/) before the view runs:
    `checked` answers for the view (a page) or lets it run (None)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, _view_args, view_kwargs):
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
                kind=once.form_kind(request.resolver_match),
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


# The console's previews: a POST to these forms without `confirm` shows what would be stored and stores nothing (the
# bulk box sends one after each pause in typing). They are counted apart from the writes, so that no amount of
# previewing ever refuses a confirm, a close or any other write.
PREVIEW_VIEWS = frozenset(
    {"console_pm", "console_vote_post", "console_bulk", "console_correction", "console_substitute"}
)


def is_preview(request) -> bool:
    match = getattr(request, "resolver_match", None)
    return match is not None and match.url_name in PREVIEW_VIEWS and "confirm" not in request.POST


def wait_said(seconds: int) -> str:
    """A wait in words, rounded up to the minute (the limits count by the hour)."""
    return f"{max(1, -(-seconds // 60))} 分钟"


class RateLimitMiddleware(_FormPostMiddleware):
    """POSTs to this site's forms, counted per seat's private link and per 天神 account (django-ratelimit on the
    cache, settings.RATELIMIT_SEAT / RATELIMIT_GM; a 天神's previews apart, RATELIMIT_GM_PREVIEW): past the limit a
    page says how long until the count starts again, as does its Retry-After (HTTP 429), and the view never runs, so
    nothing past the limit is stored."""

    def checked(self, request, view_kwargs):
        from django.conf import settings
        from django.shortcuts import render
        from django_ratelimit.core import get_usage

        from moderator.services.once import who_of

        who = who_of(request)
        if who == "-":
            return None  # nobody signed in and no seat link: the sign-in page (django-axes) and the login redirect
        seat = who.startswith("s:")
        preview = not seat and is_preview(request)
        group, rate = (
            ("posts", settings.RATELIMIT_SEAT)
            if seat
            else ("previews", settings.RATELIMIT_GM_PREVIEW)
            if preview
            else ("posts", settings.RATELIMIT_GM)
        )
        usage = get_usage(request, group=group, key=lambda _group, _request: who, rate=rate, increment=True)
        if usage is None or not usage["should_limit"]:
            return None
        count, _, unit = rate.partition("/")
        span = {"s": "每秒", "m": "每分钟", "h": "每小时", "d": "每天"}.get(unit[-1:], "每段时间")
        whose = "这个私人链接" if seat else "这个天神账号"
        what = "预览" if preview else "提交"
        wait = max(1, int(usage["time_left"]))  # until this key's window ends: then the count starts again
        response = render(
            request,
            "rate_limited.html",
            {
                "reason": f"{whose}{what}得太频繁了({span}最多 {count} 次)。这一次没有保存任何内容。",
                "wait": wait_said(wait),
                "preview": preview,
            },
            status=429,
        )
        response["Retry-After"] = str(wait)
        return response
