"""Forms carry tokens the server issued (moderator/services/once.py): signed for that form, that game, that phase and
that seat link or 天神 account. A forged, foreign or expired token changes nothing and the answer says why; the same
valid token twice is still one effect."""

from __future__ import annotations

import pytest
from django.test import override_settings
from selfentry_kit import MANIFESTO, act_url, confirm_data, preview, seat

from moderator.models import Game, Input, Phase, SelfEntry, UsedToken
from moderator.services import play, setup
from tests.tokens import signed
from tests.world import TABLE

pytestmark = pytest.mark.django_db

ATTACK = {"a-use": "普通攻击", "a-card": "杀手", "a-target": "乙", "a-manifesto": MANIFESTO}


def _confirm(client, game) -> dict:
    """甲's confirm form for an attack, as his page hands it back after the preview."""
    return confirm_data(preview(client, seat(game, "甲"), "form", ATTACK), {})


def _nothing_stored() -> bool:
    return not Input.objects.exists() and not SelfEntry.objects.exists() and not UsedToken.objects.exists()


def test_a_forged_token_stores_nothing_and_says_it_was_not_issued_here(game, client):
    data = _confirm(client, game)
    for forged in ("random-string-of-the-attacker-0123456789", data["once"][0][:-1] + "x"):
        response = client.post(act_url(seat(game, "甲")), {**data, "once": forged})
        assert response.status_code == 400
        assert "不是本站签发的" in response.content.decode()
    assert _nothing_stored()
    assert client.post(act_url(seat(game, "甲")), data).status_code == 302  # the real one still works, once
    assert client.post(act_url(seat(game, "甲")), data).status_code == 200  # and a second time is refused as before
    assert Input.objects.count() == 1


def test_a_token_of_seat_a_sent_on_seat_bs_link_stores_nothing(game, client):
    data = _confirm(client, game)
    response = client.post(act_url(seat(game, "乙")), data)
    assert response.status_code == 403
    assert "另一个座位的私人链接" in response.content.decode()
    assert _nothing_stored()


def test_a_token_of_the_last_phase_is_refused(game, client):
    data = _confirm(client, game)
    night = game.phases.get(status=Phase.Status.OPEN)
    assert play.phase_close(phase=night, now=night.ends_at)
    page = client.post(act_url(seat(game, "甲")), data).content.decode()
    assert "页面已过期" in page and "第1夜" in page
    assert _nothing_stored()


def test_an_expired_token_is_refused(game, client):
    data = _confirm(client, game)
    with override_settings(ONCE_MAX_AGE=-1):  # every token is older than this
        response = client.post(act_url(seat(game, "甲")), data)
    assert response.status_code == 400 and "已过期" in response.content.decode()
    assert _nothing_stored()


def test_a_gm_token_holds_only_for_its_form_its_game_and_its_account(game, gm_client, gm, django_user_model):
    other = setup.table_create(name="另一局", players=TABLE)
    other.gms.add(gm)
    pause = signed(gm_client, "console_clock:pause", game)
    # Another form's token (pause sent to resume) is refused; so is this game's token on another game.
    response = gm_client.post(f"/gm/{game.pk}/clock/resume/", pause)
    assert response.status_code == 400 and "另一种操作" in response.content.decode()
    response = gm_client.post(f"/gm/{other.pk}/clock/pause/", pause)
    assert response.status_code == 403 and "另一局游戏" in response.content.decode()
    # A second 天神 of the same game cannot send the first one's form.
    second = django_user_model.objects.create_user("second", password="pw-123456")
    game.gms.add(second)
    gm_client.force_login(second)
    response = gm_client.post(f"/gm/{game.pk}/clock/pause/", pause)
    assert response.status_code == 403 and "另一个账号" in response.content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING and not UsedToken.objects.exists()
    gm_client.force_login(gm)
    assert gm_client.post(f"/gm/{game.pk}/clock/pause/", pause).status_code == 302
    assert Game.objects.get(pk=game.pk).status == Game.Status.PAUSED
