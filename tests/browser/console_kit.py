"""Helpers of the console's browser tests: sign in, a started game, and the forms a 天神 fills in."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.test import Client
from django.utils import timezone

from moderator.models import Game, Phase
from moderator.services import clock, setup

PASSWORD = "direnjie-测试"
MANIFESTO = "夜色如墨,长安城里灯火渐熄,我的刀已经出鞘,今夜必有一人付出代价。" * 4
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

# Scenario 01's table (tests/console/conftest.py), entered in discard order: 甲 杀手, 丁 狼人.
TABLE = [
    {"name": "甲", "camp": "杀手", "hand": ["庶民", "庶民", "狙击手", "保镖", "杀手"]},
    {"name": "乙", "camp": "平民", "hand": ["庶民", "束魂", "诅咒/庇佑", "防弹衣/狼毒", "禁锢/反狙击"]},
    {"name": "丙", "camp": "平民", "hand": ["庶民", "巫医", "绝杀/特赦", "纵火/圣人", "阿米巴"]},
    {"name": "丁", "camp": "狼人", "hand": ["庶民", "狼人", "束魂", "巫医", "狙击手"]},
]


def shot(page, name: str) -> None:
    """Screenshots for docs/ (written when SCREENSHOTS=1)."""
    if os.environ.get("SCREENSHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def sign_in(context, site: str, user) -> None:
    """Sign `user` in the Django way: a session made by the test client's force_login, its cookie put into the
    browser context. The sign-in form itself is not what these tests are about; it is driven in Chromium by
    test_new_game_once.py (and test_gm_flow.py), and tests/security/test_login.py pins its rules."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": site, "httpOnly": True, "sameSite": "Lax"}])


def login(page, django_user_model, username: str = "tianshen"):
    """A 天神 account, signed in on `page` (a page of conftest.py's, which knows its site)."""
    user = django_user_model.objects.create_user(username, password=PASSWORD)
    sign_in(page.context, page.site, user)
    return user


def table_game(user, name: str = "控制台测试局") -> Game:
    """The four-seat table, night 1 started half an hour ago."""
    game = setup.table_create(name=name, players=TABLE)
    game.gms.add(user)
    setup.game_start(game=game, at=timezone.now() - timedelta(minutes=30))
    return game


def end_phase(game: Game) -> Phase:
    """End the open phase now (T5, forced) through the clock service; returns the phase that opens."""
    clock.phase_end_early(game=game, force=True)
    return game.phases.get(status=Phase.Status.OPEN)


def local(dt) -> str:
    return timezone.localtime(dt).strftime("%Y-%m-%dT%H:%M")


def now_local() -> str:
    return local(timezone.now())


def seat(game: Game, name: str):
    return game.seats.get(player_name=name)


def flash(page) -> str:
    page.wait_for_selector(".flash li")
    return page.inner_text(".flash")


def vote(page, game: Game, voter: str, target: str | None, post: str = "original") -> str:
    """The vote form: who, which kind of post (D3), for whom; returns the flash message."""
    page.goto(f"/gm/{game.pk}/votes/")
    page.select_option("#id_seat", str(seat(game, voter).pk))
    page.fill("#id_forum_at", now_local())
    page.check(f"input[name=post][value={post}]")
    page.select_option("#id_target", str(seat(game, target).pk) if target else "")
    page.click("#vote-form button[type=submit]")
    return flash(page)


def action(page, game: Game, who: str, use: str | None = None, target: str | None = None, **more) -> str:
    """The structured action form (or 空过 when use is None); returns the flash message."""
    page.goto(f"/gm/{game.pk}/action/")
    page.select_option("#id_seat", str(seat(game, who).pk))
    page.fill("#id_forum_at", now_local())
    if use is None:
        page.check("#id_passes")
    else:
        page.select_option("#id_use", use)
        if target:
            page.select_option("#id_target", target)
        if more.get("manifesto"):
            page.fill("#id_manifesto", more["manifesto"])
        if more.get("card"):
            page.select_option("#id_card", more["card"])
    page.click("form button[type=submit]")
    return flash(page)
