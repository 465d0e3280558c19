"""Secrets do not follow from seeds. The attack: a player knows their own camp and hand (their private
page) and tries seeds until one deals exactly that; the seed then gives every camp and every hand. Seeds are 128
bits from the OS's CSPRNG, hidden until the end; a typed seed is refused unless the game is a test or a replay."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from cards.catalogue import standard_deck
from cards.dealing import deal
from moderator.game.orders import seat_seed
from moderator.models import Game, Input
from moderator.services import play, setup
from tests.tokens import signed
from tests.world import PLAYERS, game_make

pytestmark = pytest.mark.django_db


def _recover(camp: str, hand: list[str], tries: int) -> list[tuple[list[str], list[list[str]]]]:
    """The attack of the issue: every small seed that seats `camp` at seat 1 and deals it `hand`, with the table
    (every camp and hand) it would give away."""
    tables = []
    for seed in range(tries):
        camps = setup._default_camps(7, seed)
        if camps[0] == camp:
            hands = [list(h) for h in deal(camps, standard_deck(), 5, seed).hands]
            if hands[0] == hand:
                tables.append((camps, hands))
    return tables


def _table(game: Game) -> tuple[list[str], list[list[str]]]:
    seats = list(game.seats.order_by("number"))
    return [s.camp for s in seats], [list(s.dealt_hand) for s in seats]


def test_the_attack_recovers_a_small_typed_seed_from_one_players_hand():
    game = setup.game_create(name="复盘", player_names=PLAYERS, camp_seed=2014, deal_seed=2014, order_seed=2014)
    me = game.seats.get(number=1)
    assert _table(game) in _recover(me.camp, me.dealt_hand, 2100)


def test_a_drawn_seed_has_128_bits_and_the_attack_finds_nothing():
    """A small seed may deal seat 1 the same hand by chance (about one seed in a few thousand does); what must not
    happen is that one of them gives the real table away."""
    game = setup.game_create(name="正式局", player_names=PLAYERS)
    seeds = [int(game.camp_seed), int(game.deal_seed), int(game.order_seed)]
    assert len(set(seeds)) == 3 and all(s.bit_length() > 64 for s in seeds)  # fails with odds 2**-64 per seed
    me = game.seats.get(number=1)
    assert _table(game) not in _recover(me.camp, me.dealt_hand, 2100)


def test_a_seed_of_128_bits_does_not_overflow_the_column():
    big = str(2**128 - 1)
    game = setup.game_create(name="大种子", player_names=PLAYERS, camp_seed=big, deal_seed=big, order_seed=big)
    game.refresh_from_db()
    assert game.deal_seed == big and game.order_seed == big


def test_a_seats_drawn_order_carries_a_seed_that_does_not_give_the_games_seed_away_o1():
    game = setup.game_create(name="默认顺序", player_names=PLAYERS)
    phase = setup.game_start(game=game, at=timezone.now())
    play.default_orders_assign(game=game, phase=phase)
    drawn = {r.seat.number: r.payload["seed"] for r in Input.objects.filter(game=game, kind=Input.Kind.ORDER)}
    assert len(drawn) == 7 and len(set(drawn.values())) == 7
    for number, seed in drawn.items():
        assert seed == seat_seed(game.order_seed, number) and game.order_seed not in seed


def test_the_gm_form_refuses_a_typed_seed_for_a_live_game(gm_client):
    page = gm_client.post(
        "/games/new/",
        {**signed(gm_client, "game_new"), "name": "正式局", "players": "\n".join(PLAYERS), "seed": "2014"},
    )
    assert page.status_code == 200 and "正式局不能手填随机种子" in page.content.decode()
    assert not Game.objects.filter(name="正式局").exists()
    ok = gm_client.post(
        "/games/new/",
        {
            **signed(gm_client, "game_new"),
            "name": "复盘局",
            "players": "\n".join(PLAYERS),
            "seed": "2014",
            "replay": "on",
        },
    )
    assert ok.status_code == 302 and Game.objects.get(name="复盘局").deal_seed == "2014"


@pytest.mark.parametrize("seed", [str(2**63), "9" * 41, "-1", "1e10", "１２"])
def test_the_gm_form_answers_any_seed_without_a_500(gm_client, seed):
    data = {**signed(gm_client, "game_new"), "name": "x", "players": "\n".join(PLAYERS), "seed": seed, "replay": "on"}
    assert gm_client.post("/games/new/", data).status_code in (200, 302)


def test_the_setup_page_and_the_private_page_hide_the_seeds_until_the_end(gm, gm_client):
    game = game_make(name="保密", gm=gm)
    setup_page = gm_client.get(reverse("game_setup", args=[game.pk])).content.decode()
    private = gm_client.get(reverse("seat_private", args=[game.seats.get(number=1).token])).content.decode()
    for seed in (game.camp_seed, game.deal_seed, game.order_seed):
        assert seed not in setup_page and seed not in private
    assert "游戏结束后显示" in setup_page
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert game.deal_seed in gm_client.get(reverse("game_setup", args=[game.pk])).content.decode()
