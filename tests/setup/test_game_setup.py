"""S1–S5, O1, A5: creating a game, dealing it, orders, sign-in and substitutes, through the services and pages."""

from datetime import timedelta

import pytest
from django.utils import timezone

from cards.catalogue import is_privilege
from moderator.models import Game, Input, Seat
from moderator.services import play, setup, storage
from tests import entries
from tests.tokens import signed
from tests.world import PLAYERS

pytestmark = pytest.mark.django_db


def _started(**kwargs):
    game = setup.game_create(name="测试局", player_names=PLAYERS, camp_seed=1, deal_seed=1, **kwargs)
    setup.game_start(game=game, at=timezone.now())
    return game


def test_it_seats_seven_players_with_s1_camps_and_records_the_seeds():
    game = setup.game_create(name="测试局", player_names=PLAYERS, camp_seed=42, deal_seed=43)
    camps = sorted(game.seats.values_list("camp", flat=True))
    assert camps == sorted(["杀手", "狼人", "平民", "平民", "平民", "平民", "自选"])
    assert (game.camp_seed, game.deal_seed) == ("42", "43")
    assert len(game.left_out) == 1


def test_the_same_seeds_give_the_same_table():
    a = setup.game_create(name="甲", player_names=PLAYERS, camp_seed=5, deal_seed=6)
    b = setup.game_create(name="乙", player_names=PLAYERS, camp_seed=5, deal_seed=6)
    table = lambda g: [(s.camp, s.dealt_hand) for s in g.seats.all()]  # noqa: E731
    assert table(a) == table(b)


def test_it_refuses_duplicate_player_names():
    with pytest.raises(setup.SetupError, match="玩家论坛ID重复:张三"):
        setup.game_create(name="x", player_names=["张三", "张三", "李四"])


def test_it_takes_hands_entered_by_hand_and_validates_them_against_s3():
    camps = ["杀手", "狼人", "平民"]
    hands = [["庶民", "杀手", "保镖", "束魂", "巫医"], ["庶民", "狼人", "保镖", "束魂", "巫医"]]
    with pytest.raises(setup.SetupError, match="每人必须正好 5 张牌"):
        setup.game_create(name="x", player_names=["a", "b", "c"], camps=camps, hands=hands)
    hands.append(["庶民", "庶民", "杀手", "狙击手", "阿米巴"])
    with pytest.raises(setup.SetupError, match="3 号座位不是杀手"):
        setup.game_create(name="x", player_names=["a", "b", "c"], camps=camps, hands=hands)
    hands[2] = ["庶民", "庶民", "保镖", "狙击手", "阿米巴"]
    game = setup.game_create(name="x", player_names=["a", "b", "c"], camps=camps, hands=hands)
    assert game.deal_seed is None and game.seats.get(number=3).dealt_hand == hands[2]


def _privilege_last(hand):
    return sorted(hand, key=is_privilege)


def test_o1_an_order_within_24_hours_is_accepted_and_a_bad_one_refused_with_reasons():
    game = _started()
    seat = game.seats.get(number=1)
    good = _privilege_last(seat.dealt_hand)
    bad, verdict = entries.order_submit(game=game, seat=seat, order=good[:-1], forum_at=timezone.now())
    assert bad.status == "refused" and "顺序里漏了" in bad.reason and not verdict.accepted
    ok, verdict = entries.order_submit(game=game, seat=seat, order=good, forum_at=timezone.now())
    assert ok.status == "accepted" and verdict.accepted
    assert entries.current_order(seat) == good


def test_o2_an_order_ending_on_a_commoner_is_refused_and_kept():
    game = _started()
    seat = game.seats.get(number=1)
    order = sorted(seat.dealt_hand, key=lambda c: not is_privilege(c))
    rec, verdict = entries.order_submit(game=game, seat=seat, order=order, forum_at=timezone.now())
    assert not verdict.accepted and "底牌(最后一张)必须是特权牌" in verdict.reason
    assert Input.objects.get(pk=rec.pk).payload["order"] == order  # the raw input is kept


def test_o1_an_order_after_24_hours_is_refused():
    game = _started()
    seat = game.seats.get(number=2)
    order = _privilege_last(seat.dealt_hand)
    late, _ = entries.order_submit(game=game, seat=seat, order=order, forum_at=timezone.now() + timedelta(hours=25))
    assert late.status == "refused" and "已经结束" in late.reason


def test_o1_missing_orders_get_a_seeded_random_order_with_a_privilege_at_the_bottom():
    game = _started()
    first = game.seats.get(number=1)
    mine = _privilege_last(first.dealt_hand)
    entries.order_submit(game=game, seat=first, order=mine, forum_at=timezone.now())
    phase = game.phases.get()
    made = play.default_orders_assign(game=game, phase=phase)
    assert len(made) == 6
    assert entries.current_order(first) == mine
    verdicts = storage.game_replay(game).verdicts
    for row in made:
        order = row.payload["order"]
        assert verdicts[row.pk].accepted, verdicts[row.pk].reason
        assert is_privilege(order[-1]) and sorted(order) == sorted(row.seat.dealt_hand)
        assert row.payload["seed"] is not None and row.payload["source"] == "random"
        assert entries.current_order(row.seat) == order
    assert play.default_orders_assign(game=game, phase=phase) == []


def test_s5_a_substitute_inherits_the_seat_and_the_history_is_kept():
    game = _started()
    seat = game.seats.get(number=3)
    hand = list(seat.dealt_hand)
    setup.seat_substitute(seat=seat, player_name="替补甲", at=timezone.now())
    seat.refresh_from_db()
    assert seat.player_name == "替补甲" and seat.dealt_hand == hand
    assert list(seat.holders.values_list("player_name", "reason")) == [(PLAYERS[2], "开局"), ("替补甲", "替补")]
    phase = game.phases.get()
    assert phase.ends_at - phase.starts_at == timedelta(hours=36)  # T4: 24 h + the 12-hour 交替期
    assert game.audit.get(action="phase_extend").detail["reason"].startswith("替补:替补甲 接替")
    with pytest.raises(setup.SetupError, match="已经在这局游戏里"):
        setup.seat_substitute(seat=seat, player_name=PLAYERS[0], at=timezone.now())


def test_a5_the_player_list_hides_hands_and_each_deal_pm_shows_only_its_own_hand():
    game = _started()
    post = setup.player_list_post(game)
    assert post.startswith("[b]《游戏者名单》") and all(p in post for p in PLAYERS)
    assert "庶民" not in post.replace("庶民牌", "")
    for seat in game.seats.all():
        pm = setup.deal_pm(seat)
        assert f"[b]{seat.camp}[/b]" in pm
        assert all(f"[b]{card}[/b]" in pm for card in seat.dealt_hand)


def test_a_gm_creates_a_game_in_the_page_and_sees_the_drafts(gm_client):
    response = gm_client.post(
        "/games/new/", {**signed(gm_client, "game_new"), "name": "论坛第39局", "players": "\n".join(PLAYERS)}
    )
    assert response.status_code == 302
    game = Game.objects.get(name="论坛第39局")
    page = gm_client.get(response["Location"]).content.decode()
    assert "《游戏者名单》" in page and "发牌短消息" in page
    assert all(card in page for card in game.seats.get(number=1).dealt_hand)


def test_the_create_page_says_what_is_wrong_instead_of_failing(gm_client):
    page = gm_client.post(
        "/games/new/", {**signed(gm_client, "game_new"), "name": "x", "players": "a\nb\nc", "camps": "杀手,狼人,警察"}
    ).content.decode()
    assert "不认识:警察" in page
    page = gm_client.post(
        "/games/new/", {**signed(gm_client, "game_new"), "name": "x", "players": "a\nb"}
    ).content.decode()
    assert "至少需要 3 名玩家" in page


def test_the_public_page_shows_no_camp_or_card_and_the_setup_page_is_gm_only(client, django_user_model):
    game = _started()
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert all(p in page for p in PLAYERS)
    for card in ["杀手牌", "狙击手", "保镖", "阿米巴", "庶民"]:
        assert card not in page
    assert client.get(f"/games/{game.pk}/setup/").status_code == 302  # to the login page
    client.force_login(django_user_model.objects.create_user("other", password="pw-123456"))
    assert client.get(f"/games/{game.pk}/setup/").status_code == 404
    assert Seat.objects.filter(game=game).count() == 7


def test_a4_drafts_are_bbcode_not_html_so_a_hostile_name_is_pasted_as_written():
    game = setup.game_create(name="x", player_names=["<b>甲</b>", "乙&丙", "丁"], camps=["杀手", "狼人", "平民"])
    post = setup.player_list_post(game)
    assert "<b>甲</b>" in post and "乙&丙" in post and "&lt;" not in post and "&amp;" not in post


def test_one_seed_fixes_camps_deal_and_default_orders(gm_client):
    for name in ("甲局", "乙局"):
        gm_client.post(
            "/games/new/",
            {
                **signed(gm_client, "game_new"),
                "name": name,
                "players": "\n".join(PLAYERS),
                "seed": "77",
                "replay": "on",
            },
        )
    a, b = Game.objects.get(name="甲局"), Game.objects.get(name="乙局")
    assert a.order_seed == b.order_seed == "77"
