"""Self-entry, the 天神's side: the setting (creation, dashboard), self-entered inputs shown as the player's own (who,
when, from which link), voided and corrected as any other, the reminders, and the pages that say how the game is
played."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone
from selfentry_kit import MANIFESTO, act_url, confirm_data, preview, seat

from moderator.models import AuditLog, Input
from moderator.services import clock, corrections, intake, selfentry, setup, storage
from tests.tokens import signed

pytestmark = pytest.mark.django_db

ATTACK = {"a-use": "普通攻击", "a-card": "杀手", "a-target": "乙", "a-manifesto": MANIFESTO}


def _self_attack(client, game):
    a = seat(game, "甲")
    html = preview(client, a, "form", ATTACK)
    assert client.post(act_url(a), confirm_data(html, {})).status_code == 302
    return Input.objects.get(seat=a)


def test_the_setting_at_creation_is_off_by_default_and_on_when_ticked(gm_client):
    data = {"name": "局", "players": "甲\n乙\n丙\n丁\n戊\n己\n庚"}
    gm_client.post(reverse("game_new"), {**data, **signed(gm_client, "game_new")})
    gm_client.post(reverse("game_new"), {**data, **signed(gm_client, "game_new"), "name": "自助", "self_entry": "on"})
    from moderator.models import Game

    assert [g.self_entry for g in Game.objects.order_by("created_at")] == [False, True]


def test_the_dashboard_turns_it_on_and_off_logged_and_the_pages_say_which_way(game, gm_client, client):
    url = reverse("console_dashboard", args=[game.pk])
    page = gm_client.get(url).content.decode()
    assert "玩家可在私人页面提交:<strong>已打开" in page
    once = page.split('id="self-entry-setting"', 1)[1].split("</form>", 1)[0]
    import re

    fields = dict(re.findall(r'name="(once|phase|on)" value="([^"]*)"', once))
    gm_client.post(reverse("console_self_entry", args=[game.pk]), fields)
    game.refresh_from_db()
    assert not game.self_entry
    assert "关闭玩家在私人页面提交" in gm_client.get(reverse("console_audit", args=[game.pk])).content.decode()
    public = client.get(reverse("game_public", args=[game.pk])).content.decode()
    assert "本局行动和丢牌顺序用短消息寄给天神" in public
    private = client.get(reverse("seat_private", args=[seat(game, "甲").token])).content.decode()
    assert 'id="act-link"' not in private
    selfentry.setting_change(game=game, on=True)
    public = client.get(reverse("game_public", args=[game.pk])).content.decode()
    assert "本局玩家在自己的私人页面提交行动、丢牌顺序和投票" in public
    private = client.get(reverse("seat_private", args=[seat(game, "甲").token])).content.decode()
    assert 'id="act-link"' in private and "今晚的行动:还没有提交" in private


def test_the_set_up_pm_and_the_player_list_say_how_the_game_is_played(game):
    game.refresh_from_db()
    a = seat(game, "甲")
    assert "本局[b]在私人页面提交[/b]" in setup.deal_pm(a, "https://x/p/t/")
    assert "在自己的私人页面提交丢牌顺序" in setup.player_list_post(game)
    game.self_entry = False
    game.save()
    a.refresh_from_db()
    assert "本局由天神录入" in setup.deal_pm(a, "https://x/p/t/")
    assert "用短消息把丢牌顺序寄给天神" in setup.player_list_post(game)


def test_the_gm_sees_a_self_entered_input_as_the_players_own_and_voids_it(game, client, gm_client):
    rec = _self_attack(client, game)
    a = seat(game, "甲")
    dash = gm_client.get(reverse("console_dashboard", args=[game.pk])).content.decode()
    mark = selfentry.link_mark(a.token)
    assert f"玩家自己提交 · 链接 #{mark}" in dash and 'id="self-entries"' in dash
    audit = gm_client.get(reverse("console_audit", args=[game.pk])).content.decode()
    assert f"甲 在自己的私人页面(链接 #{mark})提交:普通攻击(杀手) → 乙" in audit
    assert a.token not in audit and a.token not in dash.split('id="seats"')[0]  # the link's fingerprint, not the link
    intake.input_void(game=game, pk=rec.pk, user=None, reason="玩家说点错了")
    rec.refresh_from_db()
    assert rec.status == "voided"
    page = client.get(act_url(a)).content.decode()
    assert "天神作废:玩家说点错了" in page


def test_the_gm_corrects_a_self_entered_input_after_the_close(game, client):
    rec = _self_attack(client, game)
    clock.phase_end_early(game=game, force=True)
    night = rec.phase
    before = corrections.correction_preview(game=game, edits=[{"op": "void", "id": rec.pk}])
    assert before  # the difference is shown first
    corrections.correction_apply(game=game, edits=[{"op": "void", "id": rec.pk}], reason="自助录入有误")
    rec.refresh_from_db()
    assert rec.status == "voided" and rec.phase == night
    assert AuditLog.objects.filter(action="更正").exists()


def test_a_reminder_pm_for_each_player_who_has_not_acted_with_the_time_left(game, client, gm_client):
    _self_attack(client, game)
    dash = gm_client.get(reverse("console_dashboard", args=[game.pk])).content.decode()
    drafts = dash.split('id="reminders"', 1)[1].split("</details>", 1)[0]
    assert "3 人还没有行动" in drafts
    for name in ("乙", "丙", "丁"):
        assert (
            f"{name},你好!《自助局》第1夜还剩 22 小时" in drafts or f"{name},你好!《自助局》第1夜还剩 23 小时" in drafts
        )
        assert seat(game, name).token in drafts  # each draft carries that player's own link
    assert "甲,你好" not in drafts
    page = client.get(act_url(seat(game, "乙"))).content.decode()
    assert 'id="deadline"' in page and "今晚的行动:还没有提交" in page


def test_reminders_without_self_entry_ask_for_a_pm(game):

    game = selfentry.setting_change(game=game, on=False)
    drafts = selfentry.reminders(game, storage.game_replay(game).state, {}, timezone.now())
    assert [d["name"] for d in drafts] == ["甲", "乙", "丙", "丁"]
    assert all("请用短消息寄给天神" in d["text"] and "/p/" not in d["text"] for d in drafts)


def test_free_text_from_the_page_is_logged_as_the_players_own_and_the_setting_survives_export(
    game, client, gm_client, django_assert_max_num_queries
):
    from moderator.services import transfer

    b = seat(game, "乙")
    html = preview(client, b, "text", {"t-text": "束魂丙"})
    # One replay for the whole confirm (the check, the preview it compares with, the store) and the log row written
    # once with how it came: 33 statements (41 when it replayed three times and rewrote the row).
    with django_assert_max_num_queries(33):
        assert client.post(act_url(b), confirm_data(html, {})).status_code == 302
    rows = AuditLog.objects.filter(game=game, action__in=["录入消息", "玩家自行提交"])
    assert sorted(r.action for r in rows) == ["录入消息", "玩家自行提交"] and all(r.actor is None for r in rows)
    audit = gm_client.get(reverse("console_audit", args=[game.pk])).content.decode()
    assert audit.count("乙(玩家本人,私人页面)") == 2 and "录入消息(乙):束魂 → 丙" in audit
    data = transfer.export_game(game)
    assert data["game"]["self_entry"] is True
    copy = transfer.import_game(data, name="导入的自助局")
    assert copy.self_entry and copy.inputs.count() == 1
