"""One-time form tokens for the table pages, signed by the server the way the 神探狄仁杰 pages' are.

Every form a table page shows carries a token (``{% table_once %}``, tables/templatetags/tables_once.py): a
``django.core.signing`` signature, with its time, of the form's kind (the name of the URL it posts to), the table,
who the page was shown to (a digest of the seat's or host's private link; nobody for the create form) and a fresh
nonce.  ``once_checked`` checks it before the view runs: a missing, forged, expired or foreign token (another form,
table or link) changes nothing and gets a page saying why (400/403).  A valid one reaches the view as its nonce, and
the service spends the nonce under the table's row lock (``services.once_spend``): the same form sent again (a double
click, a reload's resend, a second tab) is refused with a sentence and changes nothing.  The create form's nonce is
the new table's ``create_token``: sent again, it shows the links of the table it made.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tables.http import secret_link_headers

_SALT = "tables.once"
MAX_LENGTH = 400  # a signed token is about 150 characters; anything longer was not made here


class Refused(Exception):
    """A token the server did not issue for this form, or no longer honours."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _max_age() -> int:
    """How long a form's token holds (seconds): three days, or the site's ``ONCE_MAX_AGE``."""
    return int(getattr(settings, "ONCE_MAX_AGE", 3 * 86400))


def _link_who(link: str) -> str:
    """Who holds a private link, as a token names them: a digest, so that the link itself never enters a token."""
    return "s:" + hashlib.sha256(link.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def _link_of(request: HttpRequest) -> str | None:
    match = getattr(request, "resolver_match", None)
    link = match.kwargs.get("token") if match is not None else None
    return link if isinstance(link, str) and link else None


def _who_of(request: HttpRequest) -> str:
    link = _link_of(request)
    return _link_who(link) if link else "-"


def _kind_of(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    return str(match.view_name) if match is not None and match.view_name else ""


def _table_of(request: HttpRequest) -> int | None:
    match = getattr(request, "resolver_match", None)
    table_id = match.kwargs.get("table_id") if match is not None else None
    return table_id if isinstance(table_id, int) else None


def _issue(kind: str, table_id: int | None, who: str) -> str:
    body = {"k": kind, "t": table_id, "w": who, "n": secrets.token_urlsafe(24)}
    return signing.dumps(body, salt=_SALT, compress=False)


def page_token(request: HttpRequest | None, table_id: int | None, kind: str = "") -> str:
    """The token a form of a table page carries: signed for its kind (the page's URL name unless given), the table and
    the private link the page was shown through."""
    if request is None:
        return issue_for(kind, table_id)
    return issue_for(kind or _kind_of(request), table_id, _link_of(request))


def issue_for(kind: str, table_id: int | None = None, link: str | None = None) -> str:
    """The token of a form of this kind, for this table, shown through this private link (or none): what a page
    carries, and what a script that posts without the page sends."""
    return _issue(kind, table_id, _link_who(link) if link else "-")


def _check(token: str, *, kind: str, table_id: int | None, who: str) -> str:
    """The nonce of ``token`` if the server signed it for this form, table and link and it has not expired."""
    again = "请回到牌桌页面(刷新后)再提交。"
    if not token:
        raise Refused(f"这个表单缺少一次性令牌(可能是很久以前打开的页面):什么都没有改动。{again}")
    if len(token) > MAX_LENGTH:
        raise Refused(f"这个表单的一次性令牌不是本站签发的(长度不对):什么都没有改动。{again}")
    try:
        body = signing.loads(token, salt=_SALT, max_age=_max_age())
    except signing.SignatureExpired:
        hours = _max_age() // 3600
        raise Refused(f"这个表单已过期(页面打开超过 {hours} 小时):什么都没有改动。{again}") from None
    except signing.BadSignature:
        raise Refused(f"这个表单的一次性令牌不是本站签发的(伪造或被改动过):什么都没有改动。{again}") from None
    if not isinstance(body, dict) or not isinstance(body.get("n"), str) or not body["n"]:
        raise Refused(f"这个表单的一次性令牌不是本站签发的:什么都没有改动。{again}")
    if body.get("w") != who:
        raise Refused("这个表单是发给另一个私人链接的,不能在这里提交:什么都没有改动。", status=403)
    if body.get("t") != table_id:
        raise Refused("这个表单属于另一张牌桌,不能在这里提交:什么都没有改动。", status=403)
    if body.get("k") != kind:
        raise Refused(f"这个表单的一次性令牌是为另一种操作签发的,不能用在这里:什么都没有改动。{again}")
    return str(body["n"])


def once_checked(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A POST reaches ``view`` only with a token signed for it; ``request.POST["once"]`` is then its nonce."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        try:
            nonce = _check(
                request.POST.get("once", ""), kind=_kind_of(request), table_id=_table_of(request), who=_who_of(request)
            )
        except Refused as refused:
            back = request.path.removesuffix("sheet/") if _table_of(request) is not None else None
            page = render(
                request, "tables/once_refused.html", {"reason": str(refused), "back": back}, status=refused.status
            )
            return secret_link_headers(page)
        post = request.POST.copy()
        post["once"] = nonce
        post._mutable = False
        request.POST = post  # type: ignore[assignment]  # a QueryDict, made read-only again above
        return view(request, *args, **kwargs)

    return checked
