"""`/gm/<id>/self-entry/` answers GET: the page says whether players enter their own inputs in this game, what that
changes, and its switch turns it on or off (logged) — the console's page list names it, so it must open."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from moderator.models import AuditLog

pytestmark = pytest.mark.django_db


def _switch(page: str) -> dict[str, str]:
    form = page.split('id="self-entry-switch"', 1)[1].split("</form>", 1)[0]
    return dict(re.findall(r'name="(once|phase|on|csrfmiddlewaretoken)" value="([^"]*)"', form))


def test_the_self_entry_page_shows_the_setting_and_its_switch_turns_it_off_and_on(game, gm_client):
    url = reverse("console_self_entry", args=[game.pk])
    response = gm_client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert "本局:<strong>已打开" in page and "总览页为还没有行动的每位玩家起草一条提醒短消息" in page
    assert "关闭玩家自己提交</button>" in page

    gm_client.post(url, _switch(page))
    game.refresh_from_db()
    assert not game.self_entry
    page = gm_client.get(url).content.decode()
    assert "本局:<strong>已关闭" in page and "打开玩家自己提交</button>" in page

    gm_client.post(url, _switch(page))
    game.refresh_from_db()
    assert game.self_entry
    logged = AuditLog.objects.filter(game=game, action="玩家自行提交设置").order_by("pk")
    assert [row.detail for row in logged] == [{"on": False}, {"on": True}]


def test_the_self_entry_page_is_the_games_own_gms_only(game, client, django_user_model):
    url = reverse("console_self_entry", args=[game.pk])
    assert client.get(url).status_code == 302  # signed out: to the sign-in page
    stranger = django_user_model.objects.create_user("别的天神", password="x")
    client.force_login(stranger)
    assert client.get(url).status_code == 404
