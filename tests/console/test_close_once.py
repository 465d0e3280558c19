"""A page computes the close it shows once. The dashboard's preview post, its tally, its alerts, the executions it
announces and its 为什么 panel (each line of the post with the steps behind it); the end-early page's post and the
digest its confirmation carries (T5); the 为什么 page of the open phase, its post and its steps: each page comes from
one run of the engine's night or day resolution, traced or not. Counted by wrapping the engine's two resolutions
(nights/resolve.py, votes/count.py), with the real pages."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

import nights.resolve
import votes.count
from moderator.models import Phase
from moderator.services import play, setup
from tests import entries
from tests.console.test_console import MANIFESTO, once
from tests.world import TABLE, game_make

pytestmark = pytest.mark.django_db


@pytest.fixture
def closes(monkeypatch):
    """Every time the engine resolved a night or a day, traced or not: the phase it resolved."""
    resolved: list[tuple[str, int]] = []
    for module, name in ((nights.resolve, "close_night"), (votes.count, "close_day")):
        real = getattr(module, name)

        def counting(state, tracer=None, _real=real):
            resolved.append(state.phase)
            return _real(state, tracer)

        monkeypatch.setattr(module, name, counting)
    return resolved


def _night_one(gm, ago=timedelta(minutes=30)):
    """Scenario 01's table, night 1 begun `ago`, 甲's 杀手 attacking 乙 (N1, A2): the dawn post has lines to explain."""
    started = timezone.now() - ago
    game = game_make(players=TABLE, gm=gm, started_at=started)
    attack = {"card": "杀手", "use": "普通攻击", "target": "乙", "manifesto": MANIFESTO}
    seat = game.seats.get(player_name="甲")
    entries.action_submit(game=game, seat=seat, payload=attack, forum_at=started + timedelta(minutes=10))
    return game


def _night_one_orders_to_draw(gm):
    """Scenario 01's table dealt as given (not in discard order), night 1 begun 30 minutes ago, 甲's 杀手 attacking 乙,
    no discard order sent: ending the night draws one for each seat (O1)."""
    started = timezone.now() - timedelta(minutes=30)
    hands = {"hands": [s["hand"] for s in TABLE], "camps": [s["camp"] for s in TABLE], "order_seed": 1}
    game = setup.game_create(name="随机顺序局", player_names=[s["name"] for s in TABLE], gm=gm, **hands)
    setup.game_start(game=game, at=started)
    attack = {"card": "杀手", "use": "普通攻击", "target": "乙", "manifesto": MANIFESTO}
    seat = game.seats.get(player_name="甲")
    entries.action_submit(game=game, seat=seat, payload=attack, forum_at=started + timedelta(minutes=10))
    return game


def _day_one(gm):
    """The demo's seven players, dealt, night 1 closed by the clock: day 1 open, nobody has voted yet (D5)."""
    names = ["狄仁杰", "李元芳", "曾泰", "狄如燕", "张环", "李朗", "虎敬晖"]
    game = setup.game_create(name="演示局", player_names=names, gm=gm, camp_seed=2014, deal_seed=2014, order_seed=2014)
    setup.game_start(game=game, at=timezone.now() - timedelta(hours=25))
    assert play.phase_close(phase=game.phases.get())
    assert game.phases.get(status=Phase.Status.OPEN).kind == Phase.Kind.DAY
    return game


def _open(game) -> tuple[str, int]:
    phase = game.phases.get(status=Phase.Status.OPEN)
    return (phase.kind, phase.number)


@pytest.mark.parametrize("start", [_night_one, _night_one_orders_to_draw, _day_one], ids=["night", "draw", "day"])
def test_the_dashboard_shows_its_preview_alerts_and_why_panel_from_one_close(gm, gm_client, closes, start):
    game = start(gm)
    closes.clear()
    page = gm_client.get(reverse("console_dashboard", args=[game.pk])).content.decode()
    assert "预览" in page and 'id="dryrun-why"' in page  # the post, and each of its lines with its steps
    assert closes == [_open(game)]


@pytest.mark.parametrize("start", [_night_one, _night_one_orders_to_draw, _day_one], ids=["night", "draw", "day"])
def test_the_end_early_page_shows_the_post_and_carries_its_digest_from_one_close_t5(gm, gm_client, closes, start):
    game = start(gm)
    closes.clear()
    page = gm_client.get(reverse("console_end_confirm", args=[game.pk])).content.decode()
    assert "预览" in page and 'name="seen"' in page
    assert closes == [_open(game)]


@pytest.mark.parametrize("start", [_night_one, _night_one_orders_to_draw, _day_one], ids=["night", "draw", "day"])
def test_the_end_early_post_checks_the_digest_on_the_close_it_saves_one_close_t5(gm, gm_client, closes, start):
    """The 天神 confirms the end-early page: the close whose digest the POST checks is the close it stores — with the
    orders O1 draws at the end of night 1 (`draw`) as well."""
    game = start(gm)
    ended = _open(game)
    end = reverse("console_clock", args=[game.pk, "end"])
    form = once(gm_client, reverse("console_end_confirm", args=[game.pk]), end)  # its token and the digest it shows
    assert form["seen"]
    closes.clear()
    gm_client.post(end, {**form, "force": "1"})
    assert game.phases.get(kind=ended[0], number=ended[1]).status == Phase.Status.CLOSED
    assert closes == [ended]


def test_the_why_page_of_the_open_night_tells_the_steps_of_the_close_whose_post_it_shows(gm, gm_client, closes):
    game = _night_one(gm)
    night = game.phases.get()
    closes.clear()
    page = gm_client.get(reverse("console_why", args=[game.pk, night.pk])).content.decode()
    assert "乙昨夜受到了攻击" in page and "N1" in page  # the dawn post's line, with the attack's step
    assert closes == [(night.kind, night.number)]


def test_the_why_page_of_a_closed_night_closes_that_night_again_and_no_later_phase(gm, gm_client, closes):
    game = _night_one(gm, ago=timedelta(hours=49))
    night = game.phases.get()
    assert play.phase_close(phase=night)
    assert play.phase_close(phase=game.phases.get(kind=Phase.Kind.DAY))  # night 2 is open
    closes.clear()
    page = gm_client.get(reverse("console_why", args=[game.pk, night.pk])).content.decode()
    assert "乙昨夜受到了攻击" in page and "N1" in page
    assert closes == [(night.kind, night.number)]
