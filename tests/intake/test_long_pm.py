"""The console's PM box takes up to 20,000 characters (its form's limit): whatever they are, the preview answers
with what was read and what was not, and a longer paste is refused by the form with the limit named — never an error
page (nothing ever 500s; every reader of player text is bounded)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.models import Phase
from tests.intake.conftest import table

pytestmark = pytest.mark.django_db

TEXTS = {
    "digits after 第": "瞄准狙击赵六第" + "1" * 19_993,
    "digits after 倒数": "瞄准狙击赵六倒数" + "2" * 19_992,
    "repeated names": "赵六" * 10_000,
    "nested brackets": "(" * 9_998 + "诅咒赵六" + ")" * 9_998,
    "one long line": ("诅咒赵六然后我觉得他是杀手所以狙击孙八" * 1_100)[:20_000],
    "chat lines": ("今天天气不错\r\n" * 2_500)[:20_000],
}


def _post(client, game, text: str, **extra):
    phase = game.phases.get(status=Phase.Status.OPEN)
    seat = game.seats.order_by("number").first()
    data = {
        "seat": seat.pk,
        "forum_at": timezone.localtime(phase.starts_at + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M"),
        "text": text,
        "preview": "1",
        "phase": phase.pk,
        **extra,
    }
    return client.post(f"/gm/{game.pk}/pm/", data)


@pytest.mark.parametrize("name", list(TEXTS))
def test_twenty_thousand_characters_in_the_pm_box_are_previewed(gm_client, gm, name):
    game = table()
    game.gms.add(gm)
    text = TEXTS[name]
    assert len(text) <= 20_000
    response = _post(gm_client, game, text)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="preview"' in page and 'id="confirm"' in page  # what was read, ready to confirm
    assert len(page) < 400_000  # the page quotes the text once, not once per refusal


def test_a_long_line_of_many_privileges_is_read_up_to_the_bound_and_the_rest_refused(gm_client, gm):
    game = table()
    game.gms.add(gm)
    page = _post(gm_client, game, TEXTS["one long line"]).content.decode()
    assert "能读出的东西太多(超过60项)" in page
    assert "请天神自己看" in page


def test_a_paste_longer_than_the_box_is_refused_naming_the_limit(gm_client, gm):
    game = table()
    game.gms.add(gm)
    response = _post(gm_client, game, "诅咒赵六" + "啊" * 20_000)
    assert response.status_code == 200
    assert "20000" in response.content.decode().replace(",", "")
