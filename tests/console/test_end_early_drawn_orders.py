"""T5 and O1: ending night 1 early while a seat has sent no discard order. The end-early page shows the order the
system will draw for that seat (seeded, O1) and the dawn post of the close with that order; confirming it stores
that order and that very post. A page shown before an order arrived ends nothing. The dashboard's preview of the
close on time shows the order the deadline will draw and the dawn post the clock stores then, and still names the
seat as having sent no order."""

import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from moderator.models import Announcement, AuditLog, Input, Phase
from moderator.services import clock, setup
from tests import entries
from tests.console.test_console import MANIFESTO, once
from tests.world import TABLE

pytestmark = pytest.mark.django_db

# Scenario 01's table dealt as given: 乙 holds one 庶民, dealt first; with order seed 1 the order drawn for 乙 puts a
# privilege card first, so the card 甲's attack takes depends on the drawn order (O4, A1).
ORDER_SEED = 1


def _night_one(gm):
    """Night 1 begun 30 minutes ago: 甲 attacks 乙 (N1); 甲, 丙 and 丁 have sent their orders, 乙 has not."""
    started = timezone.now() - timedelta(minutes=30)
    game = setup.game_create(
        name="随机顺序局",
        player_names=[s["name"] for s in TABLE],
        camps=[s["camp"] for s in TABLE],
        hands=[s["hand"] for s in TABLE],
        order_seed=ORDER_SEED,
        gm=gm,
    )
    setup.game_start(game=game, at=started)
    for seat in game.seats.exclude(player_name="乙"):
        order = [*sorted(seat.dealt_hand, key=lambda c: c != "庶民")]  # the commoners first, a privilege at the bottom
        entries.order_submit(game=game, seat=seat, order=order, forum_at=started + timedelta(minutes=5))
    attack = {"card": "杀手", "use": "普通攻击", "target": "乙", "manifesto": MANIFESTO}
    entries.action_submit(
        game=game, seat=game.seats.get(player_name="甲"), payload=attack, forum_at=started + timedelta(minutes=10)
    )
    return game


def _shown(page: str) -> str:
    """The dawn post the end-early page previews (its plain text)."""
    return html.unescape(page.split('class="bbcode dryrun-post">', 1)[1].split("</pre>", 1)[0])


def _post(text: str) -> str:
    """A dawn post but the minute its next phase ends (it starts when the 天神 confirms: T5)."""
    return re.sub(r"到 \d{4}-\d\d-\d\d \d\d:\d\d", "到 …", text)


def _drawn(game, name: str) -> list[str]:
    """The order the system drew and stored for this player (O1)."""
    (rec,) = Input.objects.filter(game=game, kind=Input.Kind.ORDER, seat__player_name=name, payload__source="random")
    return rec.payload["order"]


def test_the_dawn_post_stored_is_the_one_the_page_showed_with_the_order_drawn_o1_t5(gm, gm_client):
    game = _night_one(gm)
    confirm, end = reverse("console_end_confirm", args=[game.pk]), reverse("console_clock", args=[game.pk, "end"])
    page = gm_client.get(confirm).content.decode()
    gm_client.post(end, {**once(gm_client, confirm, end), "force": "1"})
    assert game.phases.get(kind=Phase.Kind.NIGHT, number=1).status == Phase.Status.CLOSED
    dawn = Announcement.objects.get(game=game, kind=Announcement.Kind.DAWN)
    assert _post(dawn.text) == _post(_shown(page))
    # The order drawn for 乙 puts a privilege card first: 甲's attack takes it, not the 庶民 dealt first (O4, A1).
    assert _drawn(game, "乙")[0] != "庶民"
    assert "乙昨夜受到了攻击,他丢了一张特权牌" in dawn.text


def test_the_page_names_the_order_it_will_draw_and_the_end_stores_that_order_o1_t5(gm, gm_client):
    game = _night_one(gm)
    confirm, end = reverse("console_end_confirm", args=[game.pk]), reverse("console_clock", args=[game.pk, "end"])
    page = gm_client.get(confirm).content.decode()
    assert "还没有交丢牌顺序的玩家:乙。" in page
    gm_client.post(end, {**once(gm_client, confirm, end), "force": "1"})
    drawn = _drawn(game, "乙")
    assert f"乙 的丢牌顺序:{'、'.join(drawn[:-1])}、{drawn[-1]}〔底牌〕(系统随机,O1)" in page


def test_a_page_shown_before_an_order_arrived_ends_nothing_o1_t5(gm, gm_client):
    """乙's own order accepted after the page was shown: the page's confirm ends nothing — no order drawn, the night
    open with its end time, no log row, no draft. The page shown again draws nothing and ends the night."""
    game = _night_one(gm)
    confirm, end = reverse("console_end_confirm", args=[game.pk]), reverse("console_clock", args=[game.pk, "end"])
    stale = once(gm_client, confirm, end)
    night = game.phases.get(kind=Phase.Kind.NIGHT, number=1)
    planned = night.ends_at
    seat = game.seats.get(player_name="乙")
    mine = [*sorted(seat.dealt_hand, key=lambda c: c != "庶民")]  # 庶民 first, as dealt: the drawn order differs
    entries.order_submit(game=game, seat=seat, order=mine, forum_at=night.starts_at + timedelta(minutes=20))
    page = gm_client.post(end, {**stale, "force": "1"}, follow=True).content.decode()
    assert "和确认页上显示的不同" in page
    night.refresh_from_db()
    assert (night.status, night.ends_at, night.announced_end) == (Phase.Status.OPEN, planned, None)
    assert not Input.objects.filter(game=game, kind=Input.Kind.ORDER, payload__source="random").exists()
    assert not game.audit.filter(action=AuditLog.Action.PHASE_END_EARLY).exists()
    assert not Announcement.objects.filter(game=game).exists()
    fresh = gm_client.get(confirm).content.decode()
    assert "的丢牌顺序:" not in fresh and "还没有交丢牌顺序的玩家" not in fresh
    page = gm_client.post(end, {**once(gm_client, confirm, end), "force": "1"}, follow=True).content.decode()
    assert "第1夜已提前结束并结算" in page
    assert not Input.objects.filter(game=game, kind=Input.Kind.ORDER, payload__source="random").exists()
    assert "乙昨夜受到了攻击,他丢了一张庶民牌" in Announcement.objects.get(game=game, kind=Announcement.Kind.DAWN).text


@pytest.mark.parametrize("late", [False, True], ids=["none", "late"])
def test_the_dashboard_previews_the_dawn_post_the_clock_stores_with_the_order_drawn_at_the_deadline_o1(
    gm, gm_client, late
):
    """The dashboard's preview is the close if night 1 closes on time: with the order O1 draws for 乙 at the deadline,
    the dawn post is word for word the one the clock stores when it closes the night after its end. `late`: 乙's
    own order entered with a forum time after the deadline is refused (T3): the deadline draws one all the same."""
    game = _night_one(gm)
    night = game.phases.get(kind=Phase.Kind.NIGHT, number=1)
    if late:
        seat = game.seats.get(player_name="乙")
        mine = [*sorted(seat.dealt_hand, key=lambda c: c != "庶民")]
        entries.order_submit(game=game, seat=seat, order=mine, forum_at=night.ends_at + timedelta(minutes=1))
        assert not Input.objects.get(game=game, kind=Input.Kind.ORDER, seat=seat).verdict.accepted
    page = gm_client.get(reverse("console_dashboard", args=[game.pk])).content.decode()
    assert clock.close_each([night.pk], now=night.ends_at + timedelta(minutes=2)) == 1
    dawn = Announcement.objects.get(game=game, kind=Announcement.Kind.DAWN)
    assert _shown(page) == dawn.text
    # The order drawn for 乙 puts a privilege card first: 甲's attack takes it, not the 庶民 dealt first (O4, A1).
    assert _drawn(game, "乙")[0] != "庶民"
    assert "乙昨夜受到了攻击,他丢了一张特权牌" in _shown(page)
    drawn = _drawn(game, "乙")
    said = html.unescape(page.split('id="dryrun-drawn">', 1)[1].split("</ul>", 1)[0])
    assert "截止时由系统随机决定丢牌顺序" in said
    assert f"乙 的丢牌顺序:{'、'.join(drawn[:-1])}、{drawn[-1]}〔底牌〕(系统随机,O1)" in said


def test_the_dashboard_still_names_the_seat_without_an_order_o1(gm, gm_client):
    """The preview judges the order the deadline will draw; the rest of the page reads the log as stored: 乙 has sent
    no order (the O1 line, its hand 尚未决定, the reminder draft) and has not acted (T5)."""
    game = _night_one(gm)
    page = html.unescape(gm_client.get(reverse("console_dashboard", args=[game.pk])).content.decode())
    assert "还没有交丢牌顺序(O1):乙。" in page
    assert "乙" in page.split('id="not-acted">', 1)[1].split("</p>", 1)[0]
    (row,) = [r for r in page.split('id="seats">', 1)[1].split("<tr>") if r.startswith("<td>2. 乙</td>")]
    assert "尚未决定" in row
    assert "天神还没有收到你今晚的行动(或空过)和丢牌顺序" in page


def test_the_why_page_of_night_1_tells_the_close_the_dashboard_previews_with_the_order_drawn_o1(gm, gm_client):
    """The dashboard's preview links the 为什么 of the open night: the same close on time, the order O1 draws for 乙 at
    the deadline among its steps, and the same dawn post line by line."""
    game = _night_one(gm)
    night = game.phases.get(kind=Phase.Kind.NIGHT, number=1)
    dashboard = gm_client.get(reverse("console_dashboard", args=[game.pk])).content.decode()
    page = html.unescape(gm_client.get(reverse("console_why", args=[game.pk, night.pk])).content.decode())
    drawn = html.unescape(dashboard.split('id="dryrun-orders-drawn">', 1)[1].split("</ul>", 1)[0])
    (order,) = re.findall(r"<li>乙 的(丢牌顺序:[^<]*)</li>", drawn)
    assert f"第1夜截止时:乙 没有交丢牌顺序,系统随机决定的{order}" in page
    assert "乙昨夜受到了攻击,他丢了一张特权牌" in page
