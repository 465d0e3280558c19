"""Look-alike player names in one game are refused (NFKC, case, 繁→简), so are invisible
(zero-width, bidi) characters; camps entered by hand must keep S1."""

from __future__ import annotations

import pytest
from django.utils import timezone

from moderator.services import setup
from tests.tokens import signed
from tests.world import PLAYERS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("first", "second"),
    [("tianshen", "ｔｉａｎｓｈｅｎ"), ("TianShen", "tianshen"), ("狄仁杰", "狄仁傑"), ("Ａlice", "alice")],
)
def test_names_that_read_alike_are_refused_in_one_game(first, second):
    with pytest.raises(setup.SetupError, match="看起来是同一个ID"):
        setup.game_create(name="x", player_names=[*PLAYERS[:5], first, second])


@pytest.mark.parametrize("name", ["张\u200b三", "\u202e三张", "李\u2066四", "王\u200d五", "赵\x00六"])
def test_names_with_invisible_characters_are_refused(name):
    with pytest.raises(setup.SetupError, match="看不见的字符"):
        setup.game_create(name="x", player_names=[*PLAYERS[1:], name])


def test_a_substitute_may_not_look_like_a_player_already_seated():
    game = setup.game_create(name="x", player_names=[*PLAYERS[:6], "Alice"])
    setup.game_start(game=game, at=timezone.now())
    with pytest.raises(setup.SetupError, match="看起来相同"):
        setup.seat_substitute(seat=game.seats.get(number=1), player_name="ａｌｉｃｅ", at=timezone.now())
    with pytest.raises(setup.SetupError, match="看不见的字符"):
        setup.seat_substitute(seat=game.seats.get(number=1), player_name="替\u200b补", at=timezone.now())


@pytest.mark.parametrize(
    "camps",
    [
        ["杀手"] * 7,
        ["平民"] * 7,
        ["杀手", "杀手", "狼人", "平民", "平民", "平民", "自选"],
        ["杀手", "狼人", "自选", "自选", "平民", "平民", "平民"],
    ],
)
def test_camps_entered_by_hand_must_keep_s1(camps):
    with pytest.raises(setup.SetupError, match="阵营不符合 S1"):
        setup.game_create(name="x", player_names=PLAYERS, camps=camps)


def test_the_s1_table_entered_by_hand_is_accepted():
    camps = ["平民", "杀手", "平民", "狼人", "平民", "自选", "平民"]
    game = setup.game_create(name="x", player_names=PLAYERS, camps=camps)
    assert list(game.seats.values_list("camp", flat=True)) == camps


def test_the_new_game_page_names_the_s1_problem(gm_client):
    page = gm_client.post(
        "/games/new/",
        {**signed(gm_client, "game_new"), "name": "x", "players": "\n".join(PLAYERS), "camps": ",".join(["杀手"] * 7)},
    )
    assert page.status_code == 200 and "阵营不符合 S1" in page.content.decode()
