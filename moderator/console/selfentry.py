"""Players' self-entry in the 天神's console: the per-game setting (its page and its switch), the inputs players entered
themselves (who, when, from which link) and the reminders (one PM draft per player who has not acted, with the time
left)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from moderator.services import errors, selfentry
from moderator.services.once import Once
from moderator.web.access import gm_game


@login_required
@require_http_methods(["GET", "POST"])
def setting(request, game_id: int):
    """GET: whether players enter their own inputs in this game, what that changes, and the switch. POST (with its
    one-time token): turn it on or off (logged)."""
    game = gm_game(request, game_id)
    if request.method == "GET":
        return render(request, "console/self_entry.html", {"game": game})
    on = request.POST.get("on") == "1"
    try:
        selfentry.setting_change(game=game, on=on, actor=request.user, once=Once.from_post(request.POST))
        messages.success(
            request,
            "已打开:玩家可以在自己的私人页面提交。" if on else "已关闭:玩家的私人页面只用来查看,由天神录入。",
        )
    except errors.PlayError as exc:
        messages.error(request, str(exc))
    return redirect("console_dashboard", game_id=game.pk)
