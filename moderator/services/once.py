"""Idempotent commands: every state-changing form carries a one-time token and the phase it acts on.

A service that takes `once` spends it right after it has locked the game row (the one lock order, play.game_lock):
a token already spent (a double click, a reload, a second browser tab, three concurrent confirms) or a page that
showed another phase than the open one (a stale page) is refused with a message saying what happened, and nothing
changes. Scenarios, commands and tests that call services directly pass no token.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from moderator.models import Game, Phase, UsedToken
from moderator.services.play import PlayError


@dataclass(frozen=True)
class Once:
    token: str
    phase_id: int | None  # the open phase the page showed; None when none was open

    @classmethod
    def from_post(cls, post) -> Once:
        raw = post.get("phase", "")
        return cls(post.get("once", "")[:64], int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 18 else None)


def new_token() -> str:
    return secrets.token_urlsafe(24)


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
    """For a form that creates a game (issue 22.7: the new-game form sent 4× made 4 games), inside the creating
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
