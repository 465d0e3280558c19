"""A seat's private page: camp, hand in discard order with the 底牌, AP and the full ledger (AP6), this
phase's inputs and their verdicts, the 阿米巴 (M1–M3), once-per-game uses (N11, N12, N14), the order window (O1, O3),
the countdown; never cached, never referred; a wrong token is a 404 that says nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from pages_scan import bottom_shown, hand_shown, strong, table_rows, text_of

from bench.sample import IMG, SCRIPT
from moderator.models import AuditLog
from moderator.services.seats import seat_token_rotate
from moderator.services.storage import game_replay
from tests.pages.conftest import played

pytestmark = pytest.mark.django_db


def _get(client, token: str):
    return client.get(reverse("seat_private", args=[token]))


def _page(client, seat) -> str:
    response = _get(client, seat.token)
    assert response.status_code == 200
    return response.content.decode()


def test_each_seat_sees_its_camp_and_its_hand_in_discard_order_with_the_bottom_card_marked_o2(client, sample):
    state = game_replay(sample.game).state
    for name, seat in sample.seats.items():
        page = _page(client, seat)
        me = state.seat(name)
        assert strong(page, "camp") == seat.camp
        assert hand_shown(page) == list(me.names)
        assert bottom_shown(page) == (me.names[-1] if me.hand else None)


def test_the_balance_is_the_sum_of_the_ledger_shown_ap6(client, sample):
    state = game_replay(sample.game).state
    for name, seat in sample.seats.items():
        page = _page(client, seat)
        rows = table_rows(page, "ledger")
        assert int(strong(page, "ap")) == state.seat(name).ap == sum(int(r[1]) for r in rows if len(r) == 4)
        assert len([r for r in rows if len(r) == 4]) == len(state.seat(name).ledger)


def test_the_ledger_names_grant_commoner_bonus_upkeep_costs_and_arson_ap1_ap3_n14(client, sample):
    reasons = [r[3] for r in table_rows(_page(client, sample.seats["甲"]), "ledger")]
    assert "每夜基本行动点数(AP1)" in reasons and "庶民 1 张(AP1)" in reasons
    assert "保镖维持(AP3 a, B6)" in reasons and "普通攻击(杀手)" in reasons
    assert "被纵火(AP3 c, N14)" in reasons
    assert "纵火消耗(AP3 b, N14)" in [r[3] for r in table_rows(_page(client, sample.seats["庚"]), "ledger")]


def test_this_phases_inputs_show_accepted_with_cost_refused_with_the_reason_and_voided(client, db):
    s = played(__name__, upto=1)
    rows = table_rows(_page(client, s.seats["甲"]), "inputs")
    assert [r[1:3] for r in rows] == [
        ["普通攻击(杀手) → 乙", "已接受,扣 1 点"],
        ["瞄准狙击(狙击手) → 戊,第2张", "已拒绝"],
    ]
    assert rows[1][3].startswith("行动点数不足") and "AP4" in rows[1][3]
    assert table_rows(_page(client, s.seats["乙"]), "inputs")[0][2:] == ["已作废", "天神作废:玩家撤回"]
    order = table_rows(_page(client, s.seats[IMG]), "inputs")[-1]
    assert order[2] == "已拒绝" and "O2" in order[3]


def test_after_a_close_the_previous_phases_inputs_stay_visible(client, sample):
    page = _page(client, sample.seats["甲"])
    assert "<h3>第2夜</h3>" in page
    assert table_rows(page, "inputs", 1)[0][1:3] == ["普通攻击(杀手) → 戊", "已接受,扣 1 点"]


def test_the_amoeba_shows_its_pending_form_then_the_form_and_what_is_left_of_its_4_ap_m1_m2_m3(client, db):
    s = played(__name__, upto=3)
    pending = text_of(_page(client, s.seats["戊"]))
    assert "变成巫医,第2夜结束时完成(M1)" in pending
    s = played(__name__, name="样例局二", upto=4)
    done = text_of(_page(client, s.seats["戊"]))
    assert "巫医 〔底牌,只能变形一次,M3〕" in done and "0 / 4" in done


def test_once_per_game_uses_show_n11_doom_n12_pardons_per_target_n14_saint(client, sample):
    script = text_of(_page(client, sample.seats[SCRIPT]))
    assert "绝杀(绝杀/特赦):已用过,这张牌不能再用(N11)" in script
    assert f"特赦(绝杀/特赦)→ {IMG}:已用过,这张牌不能再特赦此人(N12)" in script
    assert "你已经被成功特赦过一次" in text_of(_page(client, sample.seats[IMG]))
    assert "绝杀(绝杀/特赦):未用" in text_of(_page(client, sample.seats["戊"]))
    assert "圣人:还没有生效" in text_of(_page(client, sample.seats["庚"]))


def test_the_self_chosen_sees_their_stance_s4(client, sample):
    assert "(立场:杀手,共赢)" in text_of(_page(client, sample.seats["庚"]))


def test_the_order_window_shows_while_open_o1_and_closed_after(client, db):
    s = played(__name__, upto=1)
    assert "现在可以发新的丢牌顺序" in text_of(_page(client, s.seats["甲"]))
    s = played(__name__, name="样例局二", upto=2)
    assert "现在不能改丢牌顺序" in text_of(_page(client, s.seats["甲"]))


def test_an_executed_player_sees_the_card_awaiting_a_pardon_n12_d6(client, db):
    s = played(__name__, upto=3)
    assert strong(_page(client, s.seats["丁"]), "pending") == "巫医"
    assert strong(_page(client, s.seats[IMG]), "pending") == "庶民"


def test_the_dead_see_that_they_are_dead(client, sample):
    assert "你已经死亡" in text_of(_page(client, sample.seats["乙"]))


def test_the_page_has_the_countdown(client, sample):
    assert 'class="countdown-left" data-left="' in _page(client, sample.seats["甲"])


def test_the_page_is_never_cached_by_a_proxy_nor_sent_as_a_referrer(client, sample):
    response = _get(client, sample.seats["甲"].token)
    assert response["Cache-Control"] == "private, no-store"
    assert response["Referrer-Policy"] == "no-referrer"
    missing = _get(client, "x" * 43)
    assert missing["Cache-Control"] == "private, no-store" and missing["Referrer-Policy"] == "no-referrer"


@pytest.mark.parametrize("token", ["short", "x" * 43, "A" * 64, "a" * 65, "%3Cscript%3E" * 4])
def test_a_wrong_token_is_a_404_that_says_nothing(client, sample, token):
    response = _get(client, token)
    assert response.status_code == 404
    text = text_of(response.content.decode())
    assert "页面不存在" in text
    for word in (sample.game.name, "甲", "戊", "庚", "阵营", "手牌"):
        assert word not in text


def test_every_wrong_token_gets_the_same_404(client, sample):
    bodies = {_get(client, t).content for t in ("short", "x" * 43, sample.seats["甲"].token[:-1] + "!")}
    assert len(bodies) == 1


def test_a_rotated_link_stops_working_at_once_and_the_new_one_works(client, sample):
    seat = sample.seats["甲"]
    old = seat.token
    assert _get(client, old).status_code == 200
    seat = seat_token_rotate(seat=seat)
    assert len(seat.token) >= 43 and seat.token != old  # 256 bits (≥ 128 asked)
    assert _get(client, old).status_code == 404
    assert _get(client, seat.token).status_code == 200
    audit = AuditLog.objects.get(game=sample.game, action="seat_token_rotate")
    assert (
        audit.detail == {"seat": seat.number} and old not in str(audit.detail) and seat.token not in str(audit.detail)
    )


def test_a_void_by_the_gm_shows_at_once_the_cache_follows_the_audit_log(client, sample):
    from moderator.models import Input
    from moderator.services import corrections

    page = _page(client, sample.seats["甲"])
    assert "已接受,扣 1 点" in page
    mine = Input.objects.filter(game=sample.game, seat=sample.seats["甲"]).order_by("-phase__starts_at")
    rec = next(r for r in mine if r.status == "accepted" and r.cost)  # last night's, shown on the page
    corrections.correction_apply(game=sample.game, edits=[{"op": "void", "id": rec.pk}], reason="测试")
    assert "天神作废:天神更正时作废" in _page(client, sample.seats["甲"])


def test_a_post_to_a_private_page_is_refused_and_changes_nothing(client, sample):
    response = client.post(reverse("seat_private", args=[sample.seats["甲"].token]))
    assert response.status_code == 405 and response.content == b""


def test_before_the_start_a_seat_sees_its_camp_and_dealt_hand_s3(client, db):
    from moderator.services import setup

    game = setup.game_create(name="未开局", player_names=list("abcdefg"), camp_seed=1, deal_seed=1)
    seat = game.seats.get(number=1)
    page = _page(client, seat)
    assert strong(page, "camp") == seat.camp and hand_shown(page) == seat.dealt_hand
    assert "游戏尚未开始" in page


def test_before_an_order_exists_the_page_says_it_is_undecided_and_marks_no_bottom_card_O1(client, db):
    from bench.sample import SCRIPT
    from moderator.models import Game

    s = played(__name__, upto=1)
    Game.objects.filter(pk=s.game.pk).update(hands_are_orders=False)  # dealt, not entered in discard order
    page = _page(client, s.seats["丁"])  # sent no order in the sample's night 1
    assert "尚未决定" in page and "〔底牌〕" not in page
    page = _page(client, s.seats[SCRIPT])  # sent one, accepted
    assert "尚未决定" not in page and "〔底牌〕" in page
