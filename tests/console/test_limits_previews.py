"""A 天神's previews store nothing and are counted apart from his writes: an hour of typing into the bulk box (it
sends a preview after each pause: 32 in 96 s of real typing, 1,200 an hour) never refuses a PM's confirm or a phase
close; the previews have a generous limit of their own, and its page says that writes are not affected."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings

from moderator.console.bulk import BULK_MODES
from moderator.models import Game, Phase
from tests.console.test_console import _pm, once
from tests.tokens import signed

pytestmark = pytest.mark.django_db
TYPED = "=== 甲 2026-01-01 20:00\n今晚我用狙击手打 乙"


def _bulk_previews(client, game, n: int) -> list[int]:
    mode = BULK_MODES[0][0]
    return [
        client.post(
            f"/gm/{game.pk}/bulk/", {"mode": mode, "paste": TYPED[: 1 + i % len(TYPED)], "split": "1"}
        ).status_code
        for i in range(n)
    ]


@override_settings(RATELIMIT_GM="30/h")  # the writes' budget scaled down, so that the test posts twice it, not 2,400
def test_an_hour_of_typing_in_the_bulk_box_never_blocks_a_confirm_or_a_close(gm_client, game):
    previews = int(settings.RATELIMIT_GM_PREVIEW.split("/")[0])
    assert settings.RATELIMIT_GM_PREVIEW.endswith("/h") and previews >= 2 * 3600  # the box at its fastest, an hour
    statuses = _bulk_previews(gm_client, game, 60)  # twice the writes' whole budget
    assert set(statuses) == {200}
    confirmed = _pm(gm_client, game, "甲", "今晚我休息", confirm=True)
    assert confirmed.status_code == 200 and "已保存 甲 的消息" in confirmed.content.decode()
    phase = game.phases.get(status=Phase.Status.OPEN)
    closed = gm_client.post(f"/gm/{game.pk}/clock/end/", {"force": "1", **once(gm_client, f"/gm/{game.pk}/end/")})
    assert closed.status_code == 302 and Phase.objects.get(pk=phase.pk).status == Phase.Status.CLOSED


@override_settings(RATELIMIT_GM_PREVIEW="5/h", RATELIMIT_GM="1000/h")
def test_previews_have_their_own_limit_whose_page_says_writes_still_pass(gm_client, game):
    statuses = _bulk_previews(gm_client, game, 7)
    assert statuses[:5] == [200] * 5 and statuses[5:] == [429, 429]
    page = gm_client.post(f"/gm/{game.pk}/bulk/", {"mode": BULK_MODES[0][0], "paste": "x", "split": "1"})
    said = page.content.decode()
    assert "预览得太频繁了" in said and "确认保存、结算时段等提交不受影响" in said
    paused = gm_client.post(f"/gm/{game.pk}/clock/pause/", signed(gm_client, "console_clock:pause", game))
    assert paused.status_code == 302 and Game.objects.get(pk=game.pk).status == Game.Status.PAUSED


@override_settings(RATELIMIT_GM="3/h")
def test_a_preview_form_with_confirm_is_a_write_and_counts_as_one(gm_client, game):
    for _ in range(3):
        _pm(gm_client, game, "甲", "今晚我休息")  # previews: not counted as writes
    data = {"mode": BULK_MODES[0][0], "paste": "x", "confirm": "1"}
    statuses = [gm_client.post(f"/gm/{game.pk}/bulk/", data).status_code for _ in range(4)]
    assert statuses[:3] != [429] * 3 and statuses[3] == 429
