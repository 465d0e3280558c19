"""Cases an audit had not tried: a confirm whose 杀人宣言 edit (manifesto-<k>) is megabytes long; acting from the
player's page after death; a substitution while the old link holds a live preview. Each changes nothing it should
not and answers in a sentence, never a 500."""

from __future__ import annotations

import re

import pytest
from selfentry_kit import MANIFESTO, act_url, confirm_data, preview, seat

from moderator.models import Input, Message, Seat, SelfEntry
from moderator.services import setup
from tests.tokens import signed

pytestmark = pytest.mark.django_db

PM = f"今晚用杀手攻击乙。杀人宣言:{MANIFESTO}"


def _attack_preview(client, game) -> tuple[dict, str]:
    """甲's text preview of an attack: its confirm form, and the name of its 宣言 box (manifesto-<k>)."""
    html = preview(client, seat(game, "甲"), "text", {"t-text": PM})
    box = re.search(r'<textarea name="(manifesto-\d+)"', html).group(1)
    return confirm_data(html, {}), box


def test_a_confirm_whose_manifesto_edit_is_megabytes_long_is_refused_in_a_sentence(game, client):
    data, box = _attack_preview(client, game)
    a = seat(game, "甲")
    response = client.post(act_url(a), {**data, box: "长" * 20_000 + "安" * 600_000})  # 1.8 MB of UTF-8
    assert response.status_code == 200 and "杀人宣言太长了:最多 20000 字" in response.content.decode()
    response = client.post(act_url(a), {**data, box: "x" * 3_000_000})  # past the request's 2.5 MB
    assert response.status_code == 413 and "每次最多接收 2.5 MB" in response.content.decode()
    assert not Input.objects.exists() and not Message.objects.exists() and not SelfEntry.objects.exists()
    assert client.post(act_url(a), data).status_code == 302  # the page's own confirm still stores, once
    assert Input.objects.get().payload["manifesto"] == MANIFESTO


def test_a_dead_player_acting_from_his_page_stores_nothing_and_is_told_why(client):
    """V1: the sample game's players killed at night and by the vote; from their own links a preview and a confirm
    (carrying a token the server signed for that link) store nothing and say why."""
    from bench.sample import DAY_DEATH, NIGHT_DEATH, sample_game

    s = sample_game()
    s.game.self_entry = True
    s.game.save(update_fields=["self_entry"])
    before = Input.objects.count(), Message.objects.count()
    for name in (NIGHT_DEATH, DAY_DEATH):
        dead = s.seats[name]
        text = {"kind": "text", "t-text": "我还想说话:今晚用杀手攻击甲"}
        for extra in ({}, {"confirm": "1", "seen": "x", **signed(client, "seat_act", s.game, link=dead.token)}):
            response = client.post(act_url(dead), {**text, **extra})
            assert response.status_code == 200 and "你已经死亡" in response.content.decode()
    assert (Input.objects.count(), Message.objects.count()) == before and not SelfEntry.objects.exists()


def test_a_substitution_while_the_old_link_holds_a_live_preview_stores_nothing_from_it(game, client, gm):
    """T4: 丙 is replaced while his page shows a preview; its confirm (and any post to that link) is a 404 and
    stores nothing; the new player's link works."""
    bing = seat(game, "丙")
    old = bing.token
    live = confirm_data(preview(client, bing, "text", {"t-text": "今晚我休息"}), {})
    setup.seat_substitute(seat=bing, player_name="替补丙", at=game.phases.get(status="open").starts_at, actor=gm)
    new = Seat.objects.get(pk=bing.pk)
    assert new.token != old and bing.token == old
    response = client.post(act_url(bing), live)
    assert response.status_code == 404
    assert not Message.objects.exists() and not SelfEntry.objects.exists()
    new_page = client.get(act_url(new)).content.decode()
    assert "替补丙" in new_page
