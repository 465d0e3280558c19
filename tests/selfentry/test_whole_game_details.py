"""What a whole self-entry game on seven phones needs, the non-browser half: night-1 orders missing are named, reminded and
needed before an early end (O1, T5); drafts say the game's phase length and how it is played (A4, A5, O3, T6); a
candidate the player clicked is his choice; a refused-only preview stores nothing; the execution preview of a player
pardoned once (D6); the clause a win is cited under (V1–V3); a self-chosen day death with his stance (V5, S4); inputs
sent before a substitution stay under the player who sent them (S5). The player's page at 390 px:
tests/browser/test_self_entry_details.py."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from selfentry_kit import MANIFESTO, act_url, confirm_data, preview, seat

from moderator.game.state import evolve
from moderator.models import Announcement, AuditLog, Input
from moderator.rules import views
from moderator.services import clock, inputs, posts, selfentry, setup, storage
from moderator.services.errors import PlayError
from tests import entries
from tests.world import game_make

pytestmark = pytest.mark.django_db


def _now(game):
    return game.phases.get(status="open").starts_at + timedelta(minutes=5)


def _pass(game, name):
    inputs.write(game, inputs.Entry(seat(game, name), [{"pass": True}], _now(game)))


# --- O1, T5: night-1 orders missing ----------------------------------------------------------------------------------


def test_night_one_orders_missing_are_named_reminded_and_an_early_end_asks_first_o1_t5(game, gm_client):
    game.refresh_from_db()
    game.hands_are_orders = False  # dealt, not yet in order: each player sends his order on night 1
    game.save(update_fields=["hands_are_orders"])
    for name in ("甲", "乙", "丙", "丁"):
        _pass(game, name)  # everyone has "acted": only the orders are missing
    entries.order_submit(
        game=game, seat=seat(game, "甲"), order=["庶民", "庶民", "狙击手", "保镖", "杀手"], forum_at=_now(game)
    )
    state = storage.game_replay(game).state
    assert views.not_acted(state) == [] and views.orders_missing(state, False) == ["乙", "丙", "丁"]

    drafts = selfentry.reminders(game, state, {}, timezone.now())
    assert [d["name"] for d in drafts] == ["乙", "丙", "丁"]
    assert all("天神还没有收到你丢牌顺序(第1夜结束前不交,由系统随机决定" in d["text"] for d in drafts)
    assert not any("今晚的行动" in d["text"] for d in drafts)

    dash = gm_client.get(reverse("console_dashboard", args=[game.pk])).content.decode()
    assert "还没有交丢牌顺序(O1):乙、丙、丁" in dash and "所有活着的玩家都已行动" in dash
    end = gm_client.get(reverse("console_end_confirm", args=[game.pk])).content.decode()
    assert "还没有交丢牌顺序的玩家:乙、丙、丁。现在结束,系统会为他们每人随机决定丢牌顺序" in end
    assert re.search(r'name="force" value="1" required> 我知道 乙、丙、丁 的丢牌顺序将随机决定', end)

    with pytest.raises(PlayError, match="还没有收到丢牌顺序:乙、丙、丁"):
        clock.phase_end_early(game=game)
    assert game.phases.get(kind="night", number=1).status == "open"
    clock.phase_end_early(game=game, force=True)
    audit = gm_client.get(reverse("console_audit", args=[game.pk])).content.decode()
    assert "丢牌顺序由系统随机决定:乙、丙、丁" in audit


def test_a_table_entered_in_discard_order_misses_no_order(game):
    state = storage.game_replay(game).state
    assert game.hands_are_orders and views.orders_missing(state, game.hands_are_orders) == []


# --- A4, A5, O3, T6: drafts that know how the game is played -----------------------------------------------------------


def test_drafts_state_the_phase_length_and_point_to_the_private_page_with_self_entry_on(game):
    state = storage.game_replay(game).state
    me = state.seat("乙")
    game.phase_seconds = 6 * 3600
    window = posts.tail({"window": 1, "game": game})
    assert (
        "从现在起 6 小时内,每位活着的游戏者都可以在自己的私人页面提交新的丢牌顺序(底牌不能更换);不交视为不改" in window
    )
    pm = posts.order_window({"game": game, "seat": me, "bottom": "禁锢/反狙击"})
    assert "6 小时内你可以在自己的私人页面(天神发给你的私人链接)提交新的丢牌顺序" in pm and "短消息" not in pm
    game.phase_seconds = 90 * 60
    assert "1 小时 30 分钟内你可以" in posts.order_window({"game": game, "seat": me, "bottom": "禁锢/反狙击"})

    # With self-entry off and 24-hour phases, the forum wording, word for word (the golden posts hold it too).
    game.self_entry, game.phase_seconds = False, 24 * 3600
    assert (
        "从现在起 24 小时内,每位活着的游戏者都可以用短消息寄给天神新的丢牌顺序(底牌不能更换);不寄视为不改。"
        in posts.tail({"window": 2, "game": game})
    )
    assert "24 小时内你可以用短消息寄给天神新的丢牌顺序(排在前面的先丢)。" in posts.order_window(
        {"game": game, "seat": me, "bottom": "x"}
    )
    assert posts.span(30 * 60) == "30 分钟" and posts.span(12 * 3600) == "12 小时"


def test_the_vote_thread_of_a_self_entry_game_asks_for_votes_on_the_private_pages(game):
    clock.phase_end_early(game=game, force=True)
    [vote] = Announcement.objects.filter(game=game, kind="vote")
    assert "请活着的游戏者在自己的私人页面投票" in vote.text and "在本帖跟帖投票" not in vote.text


# --- a candidate the player clicked ------------------------------------------------------------------------------------


def test_a_candidate_the_player_clicked_is_marked_as_his_choice_everywhere(game, client, gm_client):
    b = seat(game, "乙")
    html = preview(client, b, "text", {"t-text": "束魂甲或丙"})
    form = html.split('id="form-text"', 1)[1].split("</form>", 1)[0]
    data = dict(re.findall(r'<input type="hidden" name="(once|phase|kind)" value="([^"]*)"', form))
    chosen = client.post(act_url(b), {**data, "t-text": "束魂甲或丙", "pick": "0:丙"}).content.decode()
    assert "束魂 → 丙(由玩家选定)" in chosen and "天神选定" not in chosen
    done = client.post(act_url(b), confirm_data(chosen, {}), follow=True).content.decode()
    assert "束魂 → 丙(由玩家选定) — 接受" in done
    rec = Input.objects.get()
    assert rec.message.parsed["inputs"][0]["chosen_by"] == "玩家"
    assert rec.message.parsed["refusals"][0]["chosen_by"] == "玩家"
    page = gm_client.get(reverse("console_message", args=[game.pk, rec.message.pk])).content.decode()
    assert "玩家选定:丙" in page and "天神选定" not in page
    log = AuditLog.objects.get(action="录入消息")
    assert log.detail["chosen"] == [{"text": "束魂甲或丙", "choice": "丙", "by": "玩家"}]


# --- a refused-only preview --------------------------------------------------------------------------------------------


def test_a_preview_whose_only_item_is_refused_offers_no_confirm_and_a_forced_confirm_stores_nothing(game, client):
    a = seat(game, "甲")
    html = preview(client, a, "form", {"a-use": "普通攻击", "a-card": "杀手", "a-target": "乙"})  # no 杀人宣言
    assert "将被拒绝" in html and 'id="confirm"' not in html and 'id="nothing-to-confirm"' in html
    page = client.post(act_url(a), confirm_data(html, {})).content.decode()
    assert "这次提交没有一项会被接受:什么都没有保存" in page
    assert Input.objects.count() == 0
    ok = preview(client, a, "form", {"a-use": "普通攻击", "a-card": "杀手", "a-target": "乙", "a-manifesto": MANIFESTO})
    assert 'id="confirm"' in ok and "nothing-to-confirm" not in ok


# --- D6: the execution preview ------------------------------------------------------------------------------------------


def test_the_execution_preview_names_the_card_a_player_pardoned_once_would_lose_d6():
    table = [
        {"name": "甲", "camp": "杀手", "hand": ["庶民", "杀手"]},
        {"name": "乙", "camp": "平民", "hand": ["束魂", "庶民", "巫医"]},
        {"name": "丙", "camp": "平民", "hand": ["庶民", "巫医"]},
        {"name": "丁", "camp": "狼人", "hand": ["庶民", "狼人"]},
    ]
    game = game_make(name="处决预览", players=table, start=("day", 1), started_at=timezone.now() - timedelta(hours=1))
    for name in ("甲", "丙", "丁"):
        inputs.write(game, inputs.Entry(seat(game, name), [{"for": "乙"}], _now(game)))
    state = storage.game_replay(game).state
    assert views.executions_preview(state) == [{"name": "乙", "card": "束魂"}]  # pending until the night (N12)
    once = state.with_seat(evolve(state.seat("乙"), pardoned_once=True))  # cannot be pardoned again: lost at once
    assert views.executions_preview(once) == [{"name": "乙", "card": "束魂"}]


# --- V1–V3: the clause a win is cited under ---------------------------------------------------------------------------


def test_each_win_is_cited_under_its_own_clause(game):
    state = storage.game_replay(game).state
    civilians = evolve(state, winner="平民")
    assert any("获胜的玩家:乙、丙(V1:生死不论)" in a for a in views.alerts(civilians, None))
    assert any("(V2:生死不论)" in a for a in views.alerts(evolve(state, winner="杀手"), None))
    assert views.public_view(civilians)["win_clause"] == "V1"


# --- V5, S4: a self-chosen player's day death --------------------------------------------------------------------------


def test_a_self_chosen_players_day_death_is_posted_with_his_stance_v5(client):
    table = [
        {"name": "甲", "camp": "杀手", "hand": ["庶民", "杀手"]},
        {"name": "乙", "camp": "平民", "hand": ["庶民", "束魂"]},
        {"name": "丙", "camp": "平民", "hand": ["庶民", "巫医"]},
        {"name": "丁", "camp": "狼人", "hand": ["庶民", "狼人"]},
        {"name": "戊", "camp": "自选", "hand": ["保镖"]},
    ]
    game = game_make(name="自选之死", players=table, started_at=timezone.now() - timedelta(hours=1))
    stance = {"use": "立场", "side": "杀手", "mode": "共赢"}
    inputs.write(game, inputs.Entry(seat(game, "戊"), [stance], _now(game)))
    clock.phase_end_early(game=game, force=True)  # night 1
    for name in ("甲", "乙", "丙", "丁"):
        inputs.write(game, inputs.Entry(seat(game, name), [{"for": "戊"}], _now(game)))
    clock.phase_end_early(game=game, force=True)  # day 1: 戊 executed, his last card pending (D6, D8)
    clock.phase_end_early(game=game, force=True)  # night 2: no pardon, his death announced at dawn, a day death
    dawn = Announcement.objects.filter(game=game, kind="dawn").latest("id").text
    assert "戊的牌已经全部丢光,戊死亡。他的身份是:自选(杀手·共赢)。" in dawn
    public = client.get(reverse("game_public", args=[game.pk])).content.decode()
    assert "自选(杀手·共赢)" in public


# --- S5: inputs before a substitution ----------------------------------------------------------------------------------


def test_inputs_sent_before_a_substitution_stay_under_the_player_who_sent_them_s5(game, gm_client):
    b = seat(game, "乙")
    inputs.write(game, inputs.Entry(b, [{"use": "束魂", "target": "丙"}], _now(game)))
    clock.phase_end_early(game=game, force=True)
    setup.seat_substitute(seat=b, player_name="小乙", at=timezone.now())
    page = gm_client.get(reverse("console_correction", args=[game.pk])).content.decode()
    row = page.split("<td>束魂 → 丙</td>", 1)[0].rsplit("<tr>", 1)[1]
    assert '<td>乙 <span class="muted">(现由小乙接替)</span></td>' in row


# --- a private link's 404 ----------------------------------------------------------------------------------------------


def test_a_replaced_private_link_says_to_ask_the_gm_for_the_new_one(game, client):
    from moderator.services.seats import seat_token_rotate

    a = seat(game, "甲")
    old = a.token
    seat_token_rotate(seat=a)
    for url in (reverse("seat_act", args=[old]), reverse("seat_private", args=[old])):
        response = client.get(url)
        assert response.status_code == 404 and "请向天神要新的私人链接" in response.content.decode()
    assert "请向天神要新的私人链接" not in client.get(reverse("game_public", args=[99999])).content.decode()


def test_an_order_window_pm_of_a_self_entry_game_points_to_the_page_and_its_link_is_beside_it_o3(gm, gm_client):
    table = [
        {"name": "甲", "camp": "杀手", "hand": ["庶民", "杀手"]},
        {"name": "乙", "camp": "平民", "hand": ["庶民", "束魂", "绝杀/特赦"]},
        {"name": "丙", "camp": "平民", "hand": ["巫医", "绝杀/特赦"]},
        {"name": "丁", "camp": "狼人", "hand": ["狼人"]},
    ]
    game = game_make(
        name="改顺序期",
        players=table,
        start=("day", 1),
        gm=gm,
        self_entry=True,
        started_at=timezone.now() - timedelta(hours=1),
    )
    for name in ("甲", "乙", "丙"):
        inputs.write(game, inputs.Entry(seat(game, name), [{"for": "丁"}], _now(game)))
    clock.phase_end_early(game=game, force=True)
    attack = {"use": "普通攻击", "card": "杀手", "target": "乙", "manifesto": MANIFESTO}
    inputs.write(game, inputs.Entry(seat(game, "甲"), [attack], _now(game)))
    clock.phase_end_early(game=game, force=True)  # 2 of 8 cards lost: the 1/3 window (O3)
    pm = Announcement.objects.get(game=game, kind="private", recipient="乙")
    assert "在自己的私人页面(天神发给你的私人链接)提交新的丢牌顺序" in pm.text and "短消息" not in pm.text
    dawn = Announcement.objects.get(game=game, kind="dawn").text
    assert "每位活着的游戏者都可以在自己的私人页面提交新的丢牌顺序" in dawn
    page = gm_client.get(reverse("console_announcements", args=[game.pk])).content.decode()
    draft = page.split(f'id="draft-{pm.pk}"', 1)[1].split("</details>", 1)[0]
    assert "收件人的提交页面" in draft and f"/p/{seat(game, '乙').token}/act/" in draft
    text = draft.split(f'id="tx-{pm.pk}"', 1)[1].split("</textarea>", 1)[0]
    assert f"/p/{seat(game, '乙').token}/act/" in text  # the link inside the PM the 天神 copies, not only beside it
