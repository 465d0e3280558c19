"""O1 and a void on night 1: voiding a seat's accepted discard order leaves that seat without one, so the deadline
draws one for it at random (seeded). The void's confirm page says so in one sentence, and compares the close as the
clock makes it at the deadline, with the orders O1 draws then, before and after the void: the dawn post the night
closes with after the void is the one the page showed."""

import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse

from moderator.models import Announcement, Input, Phase
from moderator.services import clock
from tests import entries
from tests.console.test_console import once, shown
from tests.console.test_correction_posts import _attack, _close
from tests.console.test_end_early_drawn_orders import _drawn, _night_one

pytestmark = pytest.mark.django_db


def _ordered(gm):
    """Night 1 as in the end-early tests (甲 attacks 乙), 乙's own order accepted: 庶民 first, so the attack takes it."""
    game = _night_one(gm)
    night = game.phases.get(kind=Phase.Kind.NIGHT, number=1)
    seat = game.seats.get(player_name="乙")
    mine = [*sorted(seat.dealt_hand, key=lambda c: c != "庶民")]
    rec, verdict = entries.order_submit(
        game=game, seat=seat, order=mine, forum_at=night.starts_at + timedelta(minutes=20)
    )
    assert verdict.accepted
    return game, night, rec


def _part(page: str, id_: str, tag: str = "pre") -> str:
    """The text of the element with this id, a `tag` (its markup aside)."""
    inner = page.split(f'id="{id_}"', 1)[1].split(">", 1)[1].split(f"</{tag}>", 1)[0]
    return html.unescape(re.sub(r"<[^>]+>", "", inner))


def test_voiding_an_accepted_order_says_the_deadline_draws_one_and_shows_the_dawn_post_stored_o1(gm, gm_client):
    game, night, rec = _ordered(gm)
    url = reverse("console_void", args=[game.pk, rec.pk])
    page = gm_client.get(url).content.decode()
    # The post as it stands: the attack takes 乙's 庶民, first of his own order; after the void, the order drawn for
    # him puts a privilege card first (order seed 1), which the attack takes (O4, A1).
    before, after = _part(page, "void-post-before"), _part(page, "void-post-after")
    assert "乙昨夜受到了攻击,他丢了一张庶民牌" in before
    assert "乙昨夜受到了攻击,他丢了一张特权牌" in after
    changes = _part(page, "close-changes", "table")  # the loss moves from his 庶民 to a privilege card
    assert "乙:0特权 1庶民" in changes and "乙:1特权 0庶民" in changes
    said = _part(page, "void-drawn", "ul")
    gm_client.post(url, {**once(gm_client, url), "reason": "录错了"})
    assert hasattr(Input.objects.get(pk=rec.pk), "void")
    assert not Input.objects.filter(game=game, payload__source="random").exists()  # drawn at the deadline only
    assert clock.close_each([night.pk], now=night.ends_at + timedelta(minutes=2)) == 1
    drawn = _drawn(game, "乙")
    assert said == (
        f"作废后,第1夜截止时系统随机决定乙 的丢牌顺序:{'、'.join(drawn[:-1])}、{drawn[-1]}〔底牌〕(系统随机,O1)"
    )
    assert Announcement.objects.get(game=game, kind=Announcement.Kind.DAWN).text == after


def test_voiding_another_input_draws_nothing_new_and_keeps_the_drawn_order_in_both_closes_o1(gm, gm_client):
    """乙 sent no order: the deadline draws his both before and after voiding 甲's attack; the page names no new draw,
    and both posts are closed with that drawn order (the attack, before the void, takes a privilege card)."""
    game = _night_one(gm)
    attack = Input.objects.get(game=game, kind=Input.Kind.ACTION)
    page = gm_client.get(reverse("console_void", args=[game.pk, attack.pk])).content.decode()
    assert 'id="void-drawn"' not in page
    assert "乙昨夜受到了攻击,他丢了一张特权牌" in _part(page, "void-post-before")
    assert "乙昨夜受到了攻击" not in _part(page, "void-post-after")


def test_a_correction_shows_the_open_days_post_as_the_day_closes_on_time_with_it(gm_client, game):
    """A correction of night 1 while day 1 is open: voiding 甲's attack gives back 乙's card, so his vote weighs one
    more (D2). The preview shows the open day's post as it closes on time, before and after; after the confirm, the
    clock closes the day with that very post."""
    attack = _attack(game, "乙")
    _close(game)
    day = game.phases.get(status=Phase.Status.OPEN)
    for voter in ("甲", "乙"):
        entries.vote_submit(
            game=game,
            seat=game.seats.get(player_name=voter),
            target=game.seats.get(player_name="丙"),
            change=False,
            forum_at=day.starts_at + timedelta(hours=1),
        )
    url = reverse("console_correction", args=[game.pk])
    preview = gm_client.post(url, {"void": [str(attack.pk)], "preview": "1"}).content.decode()
    before, after = _part(preview, "open-post-before"), _part(preview, "open-post-after")
    assert before != after
    data = {"void": [str(attack.pk)], "confirm": "1", **once(gm_client, url), **shown(preview)}
    assert gm_client.post(url, data).status_code == 302
    assert hasattr(Input.objects.get(pk=attack.pk), "void")
    assert clock.close_each([day.pk], now=day.ends_at + timedelta(minutes=2)) == 1
    assert Announcement.objects.get(game=game, kind=Announcement.Kind.DUSK, phase=day).text == after
