"""The admin cannot change what verdicts depend on behind the services' back: phases, seats, raw messages and drafts
are read-only there (the console changes them, logged); a game's name and its 天神 may change, each change an audit
row naming the admin, the old and the new value, shown on the game's audit page; no game is deleted there."""

from __future__ import annotations

import lxml.html
import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from moderator.models import AuditLog, Game, Message, Phase
from tests.world import TABLE, game_make

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(gm):
    game = game_make(name="后台局", players=TABLE, gm=gm, started_at=timezone.now())
    Message.objects.create(game=game, sender_name="甲", text="今晚杀乙", forum_at=timezone.now())
    return game


def test_phases_seats_messages_and_drafts_are_read_only_in_the_admin(admin_client, game):
    phase = game.phases.get()
    message = Message.objects.get(game=game)
    seat = game.seats.first()
    for model, obj in (("phase", phase), ("message", message), ("seat", seat)):
        page = admin_client.get(f"/admin/moderator/{model}/{obj.pk}/change/")
        assert page.status_code == 200 and 'name="_save"' not in page.content.decode(), model
        assert admin_client.post(f"/admin/moderator/{model}/{obj.pk}/change/", {}).status_code == 403, model
        assert admin_client.post(f"/admin/moderator/{model}/{obj.pk}/delete/", {"post": "yes"}).status_code == 403
        bulk = {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"}
        admin_client.post(f"/admin/moderator/{model}/", bulk)
    assert Phase.objects.filter(pk=phase.pk, ends_at=phase.ends_at).exists()
    assert Message.objects.get(pk=message.pk).text == "今晚杀乙"
    assert game.seats.count() == len(TABLE)


def test_a_game_is_neither_added_nor_deleted_in_the_admin(admin_client, game):
    assert admin_client.get("/admin/moderator/game/add/").status_code == 403
    assert admin_client.post(f"/admin/moderator/game/{game.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()


def test_renaming_a_game_or_changing_its_gms_in_the_admin_is_audited_and_shown(admin_client, game):
    url = f"/admin/moderator/game/{game.pk}/change/"
    page = admin_client.get(url).content.decode()
    form = next(f for f in lxml.html.fromstring(page).forms if f.get("id") == "game_form")
    data: dict[str, list[str]] = {}
    for name, value in form.form_values():
        data.setdefault(name, []).append(value)
    assert "status" not in data and "seed" not in data  # the state and the seeds are not fields of the form
    data["name"] = ["改名局"]
    data["gms"] = []  # the 天神 taken off, as an admin would when handing the game over
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    game.refresh_from_db()
    assert game.name == "改名局" and not game.gms.exists()
    rows = list(AuditLog.objects.filter(game=game, action="后台修改").order_by("pk"))
    assert [r.detail for r in rows] == [
        {"field": "name", "old": "后台局", "new": "改名局"},
        {"field": "gms", "old": ["tianshen"], "new": []},
    ]
    assert all(r.actor.username == "root" for r in rows)
    admin_client.force_login(get_user_model().objects.get(username="root"))
    game.gms.add(get_user_model().objects.get(username="root"))
    audit = admin_client.get(f"/gm/{game.pk}/audit/").content.decode()
    assert "在管理后台把游戏名从「后台局」改为「改名局」" in audit
    assert "在管理后台把本局的天神从 tianshen 改为 (无)" in audit
