"""V4: the declared draw — the indicator (no survivor holds an attack, the last two counts deadlocked) and the 天神's
confirm form. `draw_context(game)` is what templates/console/_draw.html needs, for the dashboard or this page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from moderator import rules
from moderator.models import Game
from moderator.services import clock, errors
from moderator.services.once import Once
from moderator.web.access import gm_game


def draw_context(game: Game, state: rules.GameState | None = None) -> dict:
    """`state`: the game now, when the page has replayed it already."""
    shown = clock.draw_shown(game, state)
    return {"draw_shown": shown, "draw_open": game.status in (Game.Status.RUNNING, Game.Status.PAUSED)}


@login_required
def declare_draw(request, game_id: int):
    """GET: the indicator and the confirm form. POST (with its one-time token): the game ends in a draw."""
    game = gm_game(request, game_id)
    if request.method == "POST":
        if not request.POST.get("confirm"):
            messages.error(request, "请勾选“确认宣布平局”:宣布之后游戏立即结束,不能撤销。")
            return redirect("console_draw", game_id=game.pk)
        try:
            clock.game_declare_draw(game=game, actor=request.user, once=Once.from_post(request.POST))
        except errors.PlayError as exc:
            messages.error(request, str(exc))
            return redirect("console_draw", game_id=game.pk)
        messages.success(request, "已宣布平局,游戏结束。公告草稿已写入公告列表。")
        return redirect("console_dashboard", game_id=game.pk)
    return render(request, "console/draw.html", {"game": game, **draw_context(game)})
