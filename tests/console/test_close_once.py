"""A page computes the close it shows once: the dashboard's preview, tally and alerts, and the end-early page's post
and digest, all come from one run of the close calculation (the engine's night or day resolution). The dashboard's
为什么 panel runs the engine once more with a tracer, to tell each step's clause: that traced run is not counted."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

import nights.resolve
import votes.count
from moderator.services import setup


@pytest.fixture
def closes(monkeypatch):
    """How many times the engine resolved a night or a day without a tracer."""
    counted = {"n": 0}
    for module, name in ((nights.resolve, "close_night"), (votes.count, "close_day")):
        real = getattr(module, name)

        def counting(state, tracer=None, _real=real):
            counted["n"] += tracer is None
            return _real(state, tracer)

        monkeypatch.setattr(module, name, counting)
    return counted


@pytest.fixture
def night_one(gm):
    game = setup.game_create(name="演示局", player_names=list("甲乙丙丁戊己庚"), gm=gm, camp_seed=1, deal_seed=1)
    setup.game_start(game=game, at=timezone.now() - timedelta(minutes=1))
    return game


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["console_dashboard", "console_end_confirm"])
def test_a_page_of_the_open_night_computes_its_close_once(gm_client, night_one, closes, page):
    response = gm_client.get(reverse(page, args=[night_one.pk]))
    assert response.status_code == 200 and "预览" in response.content.decode()
    assert closes["n"] == 1
