"""三国杀's house rules read against seed 002 word by word: 最后一滴血 once someone has gone out, the unused generals
of 转世, the 推广版计分赛's rotating lord, the table's name, and what the electronic pages say of identities, modes
and the countdown."""

from __future__ import annotations

from collections import Counter

import pytest

from tables import services
from tables.rules import GAMES, MODES
from tables.rules import sanguosha_table as sgt
from tables.rules.sanguosha_generals import GENERALS
from tables.rules.tracker import HOST

sgs = GAMES["sanguosha"]  # its rules and its view, as the site uses them

NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸"]


def act(game, s, who, kind, **params):
    return game.apply(s, {"type": kind, "player": who, **params})


def do(game, s, who, kind, **params):
    return act(game, s, who, kind, **params)[0]


def public(events) -> str:
    return "\n".join(e["text"] for e in events if e["to"] is None)


def ready(n=5, seed=3, **options):
    """A physical table with generals chosen (each the first candidate); the lord (seat 0) starts."""
    s = sgt.new_game(NAMES[:n], seed, {"lord_seat": 0, **options})
    s = do(sgt, s, 0, "choose_general", general=s.candidates[0][0])
    for p in range(1, n):
        s = do(sgt, s, p, "choose_general", general=s.candidates[p][0])
    return s


def every_general_once(s) -> Counter[str]:
    """Where each of the 25 generals is: held by a player (out or not), in the unused pile, or offered to a player
    who has not chosen yet.  Every count should be 1."""
    places: Counter[str] = Counter(g for g in s.generals if g is not None)
    places.update(s.pool)
    for p, offered in enumerate(s.candidates):
        if s.generals[p] is None:
            places.update(offered)
    return places


def assert_each_once(s) -> None:
    places = every_general_once(s)
    doubles = {g: k for g, k in places.items() if k != 1}
    missing = set(GENERALS) - set(places)
    assert not doubles and not missing, (doubles, missing)
    held = {g for g in s.generals if g is not None}
    assert not held & set(s.pool), held & set(s.pool)


def physical_rebirth(s, target, givers):
    for giver in givers:
        s = do(sgt, s, HOST, "sacrifice", giver=giver, target=target)
    return s


# --- 最后一滴血: 「只要有人先出局了…则不受此规则保护」 -----------------------------------------------------------------


def test_the_physical_last_drop_is_not_protected_once_someone_went_out_even_after_they_were_reborn():
    s = ready(last_blood=True, rebirth=True, protected=1)
    s = do(sgt, s, HOST, "hp", target=1, delta=-3, source=2)
    s = do(sgt, s, HOST, "death", target=3, source="none")  # 丁 goes out first
    s = physical_rebirth(s, 3, [0, 2, 4])
    assert s.reborn[3] and s.alive[3]
    s, events = act(sgt, s, HOST, "hp", target=1, delta=-5, source=2)
    assert s.hp[1] <= 0 and "最后一滴血受规则保护" not in public(events)
    assert sgt.view(s, None)["house"]["protected"] is None
    s = do(sgt, s, HOST, "death", target=1, source=2)
    assert not s.alive[1]


def test_the_electronic_last_drop_is_not_protected_once_someone_went_out_even_after_they_were_reborn():
    s = sgs.new_game(NAMES[:5], 4, {"last_blood": True, "protected": 1})
    attacker = s.current
    victim = next(p for p in range(5) if p != attacker and sgs.distance(s, attacker, p) == 1)
    reborn = next(p for p in range(5) if p not in (attacker, victim, s.lord))
    s.protected = victim
    s.kills, s.reborn[reborn] = [[-1, reborn]], True  # the only player out so far went out and was reborn
    s.hp[victim], s.hands[victim] = 1, []
    s.hands[attacker] = [sgs.SHA]
    s = do(sgs, s, attacker, "sha", target=victim)
    s, events = act(sgs, s, victim, "take")
    assert s.hp[victim] == 0 and s.phase == "dying"
    assert "最后一滴血受规则保护" not in public(events)
    assert sgs.view(s, None)["house"]["protected"] is None


# --- 转世: 「将转世前的角牌放回未使用的角牌堆」, each general in one place ------------------------------------------


@pytest.mark.parametrize("n", range(4, 11))
def test_the_physical_deal_leaves_every_general_in_exactly_one_place(n):
    for seed in range(40):
        s = sgt.new_game(NAMES[:n], seed, {})
        assert_each_once(s)
        s = do(sgt, s, s.lord, "choose_general", general=s.candidates[s.lord][0])
        assert_each_once(s)
        for p in range(n):
            if s.generals[p] is None:
                s = do(sgt, s, p, "choose_general", general=s.candidates[p][-1])
        assert s.phase == "play"
        assert_each_once(s)


def test_a_physical_player_reborn_twice_puts_each_old_general_back_once():
    s = ready(rebirth=True)
    for _ in range(3):
        s = do(sgt, s, HOST, "death", target=3, source="none")
        assert_each_once(s)
        s = physical_rebirth(s, 3, [0, 2, 4])
        assert s.reborn[3], "a general of their kingdom is left"
        assert_each_once(s)
        s = do(sgt, s, HOST, "end_turn")  # sacrifices are once a turn


def electronic_with_generals(n=5, seed=2):
    s = sgs.new_game(NAMES[:n], seed, {"generals": True, "rebirth": True})
    s = do(sgs, s, s.lord, "choose_general", general=s.candidates[s.lord][0])
    for p in range(n):
        if s.generals[p] is None:
            s = do(sgs, s, p, "choose_general", general=s.candidates[p][0])
    return s


def electronic_kill(s, victim):
    """The current player's [杀] on ``victim`` left at 1 体力 with no card; nobody rescues."""
    attacker = s.current
    s.hp[victim], s.hands[victim] = 1, []
    s.hands[attacker].append(sgs.SHA)
    s.sha_used = False
    s = do(sgs, s, attacker, "sha", target=victim)
    s = do(sgs, s, victim, "take")
    while s.phase == "dying":
        s = do(sgs, s, s.pending["askers"][s.pending["idx"]], "pass")
    return s


def electronic_next_turn(s):
    s = do(sgs, s, s.current, "end_play")
    if s.phase == "discard":
        excess = len(s.hands[s.current]) - max(s.hp[s.current], 0)
        s = do(sgs, s, s.current, "discard", cards=s.hands[s.current][:excess])
    return s


def test_an_electronic_player_reborn_twice_puts_each_old_general_back_once():
    s = electronic_with_generals()
    assert_each_once(s)
    victim = s.roles.index(sgs.LOYAL)
    for _ in range(3):
        while s.current == victim or sgs.distance(s, s.current, victim) != 1:
            s = electronic_next_turn(s)
        s = electronic_kill(s, victim)
        assert not s.alive[victim]
        assert_each_once(s)
        while not s.alive[victim]:
            s = electronic_next_turn(s)
            if s.current != victim and not s.reborn[s.current] and s.hands[s.current]:
                s = do(sgs, s, s.current, "sacrifice", target=victim, card=s.hands[s.current][0])
            assert_each_once(s)
        assert s.reborn[victim]


# --- 推广版计分赛: 「将主公身份交给下家」 in both modes -------------------------------------------------------------


@pytest.mark.parametrize("mode", ["digital", "physical"])
@pytest.mark.django_db
def test_the_scoring_series_passes_the_lord_to_the_next_player_each_game_in_both_modes(mode):
    table = services.create_table("sanguosha", NAMES[:5], seed=11, options={"rotate_lord": True}, mode=mode)
    lords = [table.rules.new_game(table.player_names, table.round_seed(k), table.round_options(k)).lord
             for k in range(1, 6)]  # fmt: skip
    assert lords == [0, 4, 3, 2, 1]
    assert table.load().lord == 0


def test_the_electronic_game_deals_the_lord_to_the_seat_it_is_given_and_the_other_identities_at_random():
    others = set()
    for seat in range(6):
        s = sgs.new_game(NAMES[:6], seat, {"lord_seat": seat})
        assert s.lord == seat and s.roles[seat] == sgs.LORD and s.current == seat
        assert sorted(s.roles) == sorted(sgs.IDENTITIES[6])
        others.add(tuple(r for p, r in enumerate(s.roles) if p != seat))
    assert len(others) > 1


# --- the table's name ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["digital", "physical"])
@pytest.mark.django_db
def test_naming_last_games_first_out_keeps_the_name_the_host_gave_the_table(mode):
    options = {"last_blood": True, "protected": "乙"}
    table = services.create_table("sanguosha", NAMES[:5], options=options, name="周五桌", mode=mode)
    assert table.name == "周五桌" and table.options["protected"] == 1


@pytest.mark.django_db
def test_an_unnamed_electronic_table_naming_last_games_first_out_is_still_called_a_basic_card_practice():
    options = {"last_blood": True, "protected": "乙"}
    table = services.create_table("sanguosha", NAMES[:5], options=options, mode="digital")
    assert table.name == sgs.PAGE_TITLE and "基本牌练习" in table.name


# --- what the electronic pages say ---------------------------------------------------------------------------------


def test_an_electronic_reborn_players_identity_stays_turned_up():
    """转世规则 「因该玩家身份牌已翻开」: shown at the death, and still shown once reborn (as in the physical mode)."""
    s = electronic_with_generals()
    victim = s.roles.index(sgs.LOYAL)
    while s.current == victim or sgs.distance(s, s.current, victim) != 1:
        s = electronic_next_turn(s)
    s = electronic_kill(s, victim)
    other = next(p for p in range(5) if p not in (victim, s.lord))
    assert sgs.view(s, other)["seats"][victim]["role"] == sgs.LOYAL
    while not s.alive[victim]:
        s = electronic_next_turn(s)
        if s.current != victim and not s.reborn[s.current] and s.hands[s.current]:
            s = do(sgs, s, s.current, "sacrifice", target=victim, card=s.hands[s.current][0])
    assert s.reborn[victim]
    for viewer in (None, other):
        assert sgs.view(s, viewer)["seats"][victim]["role"] == sgs.LOYAL


@pytest.mark.django_db
def test_the_electronic_mode_line_does_not_say_there_are_no_generals_on_a_table_that_shows_them(client, tables_urls):
    assert "无武将" not in MODES["digital"]
    table = services.create_table("sanguosha", NAMES[:5], options={"generals": True}, mode="digital")
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "无武将" not in page and "基本牌练习" in page


@pytest.mark.django_db
def test_the_create_page_says_reborn_players_count_for_the_countdown_where_both_are_ticked(client, tables_urls):
    page = client.get("/tables/").content.decode()
    ruling = "转世回来的玩家也算在场"
    assert page.count(ruling) >= 2  # beside 三人倒计时 and beside 转世
    s = ready(countdown=True, rebirth=True)
    assert ruling in sgt.view(s, None)["house"]["countdown"]
