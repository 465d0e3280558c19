"""The public game page: phase and countdown, the living with card counts, the dead (V5), the live
weighted tally (D1, D2, without N13), the public announcements (A2, A3, never A5's private drafts), the chart."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from pages_scan import archive, public_posts, shown_camps, text_of

from bench.sample import IMG, SCRIPT
from moderator.models import Announcement, AuditLog, Game, Phase
from moderator.services import play
from tests import entries
from tests.pages.conftest import played

pytestmark = pytest.mark.django_db


def _page(client, game) -> str:
    response = client.get(reverse("game_public", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _living(page: str) -> dict[str, int]:
    block = page.split("<h2>存活的玩家</h2>")[1].split("</table>")[0]
    rows = re.findall(r"<tr><td>\d+</td><td>([^<]*)</td><td>(\d+)</td>", block)
    return {text_of(name).strip(): int(n) for name, n in rows}


def _tally(page: str) -> dict[str, int]:
    block = page.split("<th>得票者</th>")[1].split("</table>")[0]
    return {text_of(n).strip(): int(t) for n, t in re.findall(r"<tr><td>([^<]*)</td><td>(\d+)</td></tr>", block)}


def test_it_shows_the_open_phase_and_a_server_rendered_countdown_with_a_ticker(client, sample):
    page = _page(client, sample.game)
    assert "<strong>第2天</strong> · 还剩" in page
    left = int(re.search(r'class="countdown-left" data-left="(\d+)"', page).group(1))
    assert 22 * 3600 < left <= 23 * 3600
    # The ticker is our own static file (the CSP allows no inline script), nothing fetched from elsewhere.
    assert re.findall(r'<script src="([^"]*)"', page) == ["/static/moderator/ticker.js", "/static/moderator/site.js"]


def test_it_lists_the_living_with_their_card_counts_a1(client, sample):
    assert _living(_page(client, sample.game)) == {"甲": 5, SCRIPT: 5, "戊": 4, IMG: 4, "庚": 5}


def test_v5_the_dead_show_a_camp_only_for_a_day_death(client, sample):
    page = _page(client, sample.game)
    assert shown_camps(page) == [("丁", "平民")]  # executed on day 1, died at dawn: a day death (V5 ruling)
    dead = page.split("<h2>死亡的玩家</h2>")[1].split("</table>")[0]
    assert "乙" in dead and "夜间死亡,身份不公开" in dead


def test_the_live_tally_weighs_votes_by_cards_held_and_counts_non_voters_for_themselves_d1_d2(client, sample):
    assert _tally(_page(client, sample.game)) == {"庚": 5 + 4 + 5, SCRIPT: 5, IMG: 4}


def test_the_live_tally_leaves_out_the_secret_n13_curse(client, db):
    s = played(__name__, upto=2)  # day 1 open; SCRIPT has cursed 丁 (+1), to be revealed only at dusk
    assert _tally(_page(client, s.game))["丁"] == 5 + 1 + 5
    play.phase_close(phase=s.phase("day", 1), now=s.phase("day", 1).ends_at)
    assert s.phase("day", 1).result["tally"]["丁"] == 12  # the dusk count has it


def test_there_is_no_tally_at_night(client, db):
    s = played(__name__, upto=3)
    assert "实时计票" not in _page(client, s.game)


def test_it_archives_the_public_posts_newest_first_and_never_a_private_draft_a5(client, sample):
    page = _page(client, sample.game)
    assert archive(page) == public_posts(sample.game)
    assert len(archive(page)) == 5  # dawn 1, vote 1, dusk 1, dawn 2, vote 2
    private = Announcement.objects.filter(game=sample.game, kind=Announcement.Kind.PRIVATE)
    assert private.exists()  # the S4 co-win notice to 甲
    for draft in private:
        assert draft.title not in page and "共赢" not in text_of(page)


def test_the_chart_draws_one_line_per_seat_over_the_closes(client, sample):
    page = _page(client, sample.game)
    svg = page.split("<svg")[1].split("</svg>")[0]
    assert svg.count("<polyline") == 7
    for label in ("开局", "第1夜", "第1天", "第2夜"):
        assert f">{label}</text>" in svg
    ends = dict(re.findall(r"<title>([^<]*):(\d+) 张</title>", svg))
    assert {text_of(k): int(v) for k, v in ends.items()} == {
        "甲": 5, "乙": 0, SCRIPT: 5, "丁": 0, "戊": 4, IMG: 4, "庚": 5
    }  # fmt: skip


def test_a_paused_game_shows_the_frozen_remaining_time(client, sample):
    phase = sample.game.phases.get(status=Phase.Status.OPEN)
    Phase.objects.filter(pk=phase.pk).update(paused_remaining=timedelta(hours=5, minutes=3))
    Game.objects.filter(pk=sample.game.pk).update(status=Game.Status.PAUSED)
    AuditLog.objects.create(game=sample.game, action="game_pause")
    page = _page(client, sample.game)
    assert "游戏已暂停,本时段还剩 5 小时 3 分 0 秒" in page and 'data-left="' not in page


def test_a_phase_past_its_end_waits_for_the_close(client, db):
    s = played(__name__)
    Phase.objects.filter(game=s.game, status=Phase.Status.OPEN).update(ends_at=s.game.started_at)
    assert "已到截止时间,等待天神结算" in _page(client, s.game)


def test_a_finished_game_names_the_winner(client, sample):
    Game.objects.filter(pk=sample.game.pk).update(status=Game.Status.FINISHED, winner="平民")
    assert "游戏结束,胜方:平民" in _page(client, sample.game)


def test_a_game_not_started_shows_its_players_and_no_phase(client, db):
    from moderator.services import setup

    game = setup.game_create(name="未开局", player_names=["a", "b", "c", "d", "e", "f", "g"], camp_seed=1, deal_seed=1)
    page = _page(client, game)
    assert "游戏尚未开始" in page and _living(page) == dict.fromkeys("abcdefg", 5)


def test_a_new_vote_shows_at_once_the_cache_follows_the_game(client, sample):
    assert _tally(_page(client, sample.game))["庚"] == 14
    day = sample.phase("day", 2)
    entries.vote_submit(
        game=sample.game, seat=sample.seats[SCRIPT], target=sample.seats["庚"], change=False,
        forum_at=day.starts_at + timedelta(hours=2),
    )  # fmt: skip
    assert _tally(_page(client, sample.game))["庚"] == 19


def test_an_unknown_game_is_a_404_that_says_nothing(client, db):
    response = client.get("/games/999999/")
    assert response.status_code == 404 and "页面不存在" in response.content.decode()
