"""Idempotent commands: every state-changing form carries a one-time token and the phase it acts on.

A service that takes `once` spends it right after it has locked the game row (the one lock order, base.game_lock):
a token already spent (a double click, a reload, a second browser tab, three concurrent confirms) or a page that
showed another phase than the open one (a stale page) is refused with a message saying what happened, and nothing
changes. Scenarios, commands and tests that call services directly pass no token.

The token is issued by the server: `issue` signs (django.core.signing, with its time) the form's kind (the URL name it
posts to), the game, the phase the page showed and who it was shown to (a seat's private link or a 天神's account),
with a random nonce. `OnceMiddleware` checks every POST to this site's forms before the view runs: a token that is
forged, expired, or issued for another form, game, phase or seat changes nothing and gets a page saying why (400/403);
a valid one reaches the view as its nonce and signed phase, and `spend` then marks the nonce spent under the game lock
(the same token twice = one effect).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction

from moderator.models import Game, Phase, UsedToken
from moderator.services.errors import PlayError


@dataclass(frozen=True)
class Once:
    token: str
    phase_id: int | None  # the open phase the page showed; None when none was open

    @classmethod
    def from_post(cls, post) -> Once:
        raw = post.get("phase", "")
        return cls(post.get("once", "")[:64], int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 18 else None)


def form_nonce() -> str:
    return secrets.token_urlsafe(24)


SALT = "moderator.once"


def max_age() -> int:
    """How long a form's token holds (seconds): longer than a phase, so only a page left open for days expires."""
    return int(getattr(settings, "ONCE_MAX_AGE", 3 * 86400))


def link_who(link: str) -> str:
    return "s:" + hashlib.sha256(link.encode()).hexdigest()[:24]


def who_of(request) -> str:
    """Who a page was shown to: a seat's private link (a digest of it: the link itself never enters a token), else
    the signed-in account, else nobody."""
    match = getattr(request, "resolver_match", None)
    link = match.kwargs.get("token") if match is not None else None
    if isinstance(link, str) and link:
        return link_who(link)
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"u:{user.pk}"
    return "-"


def form_kind(match) -> str:
    """A form's kind: the name of the URL it posts to (and the clock's action: pause is not resume)."""
    if match is None or not match.url_name:
        return ""
    action = match.kwargs.get("action")
    return f"{match.url_name}:{action}" if isinstance(action, str) else match.url_name


def issue(*, kind: str, game_id: int | None, phase_id: int | None, who: str) -> str:
    """A signed one-time token for one form: kind, game, phase, who, a fresh nonce, and (in the signature) the time."""
    body = {"k": kind, "g": game_id, "p": phase_id, "w": who, "n": form_nonce()}
    return signing.dumps(body, salt=SALT, compress=False)


class TokenRefused(Exception):
    """A token the server did not issue for this form, or no longer honours: the page says why; nothing changes."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def check(token: str, *, kind: str, game_id: int | None, who: str, any_game: bool = False) -> dict:
    """The token's signed body if it was issued for this kind of form, this game (unless `any_game`: a seat's link
    names its own game) and this seat or 天神, and has not expired; else TokenRefused. The phase is `spend`'s to check,
    under the game lock."""
    if len(token) > 400:
        raise TokenRefused("这个表单的一次性令牌不是本站签发的(长度不对):什么都没有改动。请刷新页面后再提交。")
    try:
        body = signing.loads(token, salt=SALT, max_age=max_age())
    except signing.SignatureExpired:
        hours = max_age() // 3600
        raise TokenRefused(f"这个表单已过期(页面打开超过 {hours} 小时):什么都没有改动。请刷新页面后再提交。") from None
    except signing.BadSignature:
        raise TokenRefused(
            "这个表单的一次性令牌不是本站签发的(伪造或被改动过):什么都没有改动。请刷新页面后再提交。"
        ) from None
    if not isinstance(body, dict) or not isinstance(body.get("n"), str) or not body["n"]:
        raise TokenRefused("这个表单的一次性令牌不是本站签发的:什么都没有改动。请刷新页面后再提交。")
    if body.get("w") != who:
        whose = "另一个座位的私人链接" if str(body.get("w", "")).startswith("s:") else "另一个账号"
        raise TokenRefused(f"这个表单是发给{whose}的,不能在这里提交:什么都没有改动。", status=403)
    if not any_game and body.get("g") != game_id:
        raise TokenRefused("这个表单属于另一局游戏,不能在这里提交:什么都没有改动。", status=403)
    if body.get("k") != kind:
        raise TokenRefused("这个表单的一次性令牌是为另一种操作签发的,不能用在这里:什么都没有改动。请刷新页面后再提交。")
    return body


def open_phase_id(game: Game | None) -> int | None:
    if game is None:
        return None
    return game.phases.filter(status=Phase.Status.OPEN).values_list("pk", flat=True).first()


def spend(game: Game | None, once: Once | None, action: str) -> None:
    """Refuse a repeated or stale submit, else mark the token spent. The caller holds the game lock."""
    if once is None:
        return
    if not once.token:
        raise PlayError("这个表单缺少一次性令牌(可能是旧页面):什么都没有改动,请刷新页面后再提交。")
    if UsedToken.objects.filter(token=once.token).exists():
        raise PlayError("这个表单已经提交过了(重复点击或刷新):没有重复执行,什么都没有改动。")
    now = open_phase_id(game)
    if game is not None and once.phase_id != now:
        shown = Phase.objects.filter(pk=once.phase_id).first() if once.phase_id else None
        current = Phase.objects.filter(pk=now).first() if now else None
        was = shown.label if shown else "没有进行中的时段"
        is_ = current.label if current else "没有进行中的时段"
        raise PlayError(f"页面已过期:提交的页面显示的是{was},现在是{is_}。什么都没有改动,请刷新后再操作。")
    UsedToken.objects.create(token=once.token, game=game, action=action)


class AlreadyMade(PlayError):
    """A form that creates a game (new game, import) was submitted again: `game` is the one the first submit made."""

    def __init__(self, message: str, game: Game | None):
        super().__init__(message)
        self.game = game


def spend_create(once: Once | None, action: str) -> None:
    """For a form that creates a game (a new-game form sent four times must make one game), inside the creating
    transaction: spend the token before anything is made. A concurrent submit of the same token waits on its unique
    key until the first commits, then is refused and told which game the first made (`made` records it)."""
    if once is None:
        return
    if not once.token:
        raise PlayError("这个表单缺少一次性令牌(可能是旧页面):没有新建游戏,请刷新页面后再提交。")
    try:
        with transaction.atomic():
            UsedToken.objects.create(token=once.token, action=action)
    except IntegrityError:
        first = UsedToken.objects.filter(token=once.token).select_related("game").first()
        game = first.game if first else None
        made = f"第一次提交已经建好了“{game.name}”" if game else "第一次提交已经处理"
        raise AlreadyMade(f"这个表单已经提交过了(重复点击或刷新):{made},没有再建一局。", game) from None


def made(once: Once | None, game: Game) -> None:
    """Record which game a spent creating token made, so a repeated submit can name it."""
    if once is not None:
        UsedToken.objects.filter(token=once.token).update(game=game)
