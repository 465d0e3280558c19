"""为什么 (moderator/services/explain.py, moderator/console/why.py): the 天神 reads the steps behind every line of a
dawn or dusk draft — for each closed phase and for the open phase's dry run — on console pages only. Before the end
nothing of the trace reaches a player: the public page, every private page and self-entry page, the feed, the phase
watch, the export and every stored draft are scanned for every step of the game's trace (A1–A5)."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from pages_scan import text_of

from moderator.models import Announcement, Phase
from moderator.services import explain, review

pytestmark = pytest.mark.django_db


def _client(name: str, game=None) -> Client:
    user = get_user_model().objects.create_user(name, password="direnjie-demo-pw")
    if game is not None:
        game.gms.add(user)
    client = Client()
    client.force_login(user)
    return client


def test_each_line_of_a_closed_nights_dawn_draft_has_its_steps_n1_b5_n11(sample):
    night = sample.phase("night", 1)
    page = _client("tianshen", sample.game).get(reverse("console_why", args=[sample.game.pk, night.pk]))
    assert page.status_code == 200
    text = text_of(page.content.decode())
    trace = explain.phase_trace(sample.game, night)
    lines = {w.text: [s.line for s in w.steps] for w in explain.phase_why(sample.game, trace)}
    attacked = lines["乙昨夜受到了攻击,他丢了一张特权牌和一张庶民牌。"]
    assert "N1 攻击:甲用杀手牌普通攻击 乙生效,乙受到一次杀手普通攻击" in attacked
    assert any(line.startswith("B5 最优顺序:这个顺序打掉 2 张") for line in attacked)
    assert "O4 丢牌:乙丢掉狼人(特权牌,原因:攻击),现在公布;剩下:没有牌了" in attacked
    assert lines["乙的牌已经全部丢光,乙死亡。"][-1] == "V5 死亡:乙的牌已全部丢光,死亡(夜里死亡,不公布身份)"
    # Every line of the draft is on the page with its 为什么, and the whole trace below it.
    assert text.count("为什么") >= len(lines)
    for step in trace.steps:
        assert step.sentence in text
    # The inputs with their verdicts: the refused aimed shot (AP4) and the voided attack.
    assert any("瞄准狙击" in s.sentence and "拒绝" in s.sentence for s in trace.inputs)
    assert any("已被天神作废" in s.sentence for s in trace.inputs)


def test_a_closed_days_dusk_draft_explains_weights_modifiers_and_the_tie_rule_d2_n13_d5(sample):
    trace = explain.phase_trace(sample.game, sample.phase("day", 1))
    lines = [s.line for s in trace.close]
    assert "D2 投票:丁投给丁,1 票(手中 1 张牌,D2)" in lines
    assert 'N13 修正:丁得票 11 +1(<script>alert("x")</script> 诅咒)= 12 票' in lines  # who cursed, as arithmetic
    assert any(line.startswith("D5 处决:票数从高到低 14/12;第二高是 12 票") for line in lines)
    assert any(line.startswith("O3 改顺序窗口:本次公布丢牌 0 张,累计 3 张") for line in lines)
    assert any(line.startswith("T7 默哀期:活着 6 人") for line in lines)


def test_the_dashboard_dry_run_has_a_why_for_each_line(sample):
    page = _client("tianshen", sample.game).get(reverse("console_dashboard", args=[sample.game.pk]))
    body = page.content.decode()
    assert 'id="dryrun-why"' in body
    text = text_of(body)
    assert "投票:甲投给庚" in text  # day 2 is open: 甲 has voted for 庚
    assert "处决:票数从高到低" in text


def test_only_the_games_gm_may_read_a_why_page_or_the_review(client, sample):
    night = sample.phase("night", 1)
    urls = [reverse("console_why", args=[sample.game.pk, night.pk]), reverse("console_review", args=[sample.game.pk])]
    other = _client("another-gm")
    for url in urls:
        assert client.get(url).status_code == 302  # to the sign-in page
        assert other.get(url).status_code == 404


def test_the_review_is_refused_before_the_end(sample):
    with pytest.raises(explain.ReviewNotReady, match="游戏结束之后才能生成复盘帖"):
        review.post(sample.game)
    gm = _client("tianshen", sample.game)
    page = gm.get(reverse("console_review", args=[sample.game.pk]))
    assert "游戏结束之后才能生成复盘帖" in page.content.decode()
    assert "review-bb" not in page.content.decode()
    drafts = gm.get(reverse("console_announcements", args=[sample.game.pk])).content.decode()
    assert 'id="review-draft"' not in drafts


def _side_doors(client: Client, gm: Client, sample) -> dict[str, str]:
    """Every page and side door a player (or anyone) can read, and the 天神's export: moderator/public/urls.py,
    moderator/urls.py."""
    game = sample.game
    pages = {
        "home": client.get("/"),
        "public": client.get(reverse("game_public", args=[game.pk])),
        "feed": client.get(reverse("game_feed", args=[game.pk])),
        "phase watch": client.get(reverse("game_phase_watch", args=[game.pk])),
        "export": gm.get(reverse("console_export", args=[game.pk])),
    }
    for seat in sample.seats.values():
        pages[f"private {seat.number}"] = client.get(reverse("seat_private", args=[seat.token]))
        pages[f"self-entry {seat.number}"] = client.get(reverse("seat_act", args=[seat.token]))
    out = {}
    for name, response in pages.items():
        body = response.content.decode() if not response.streaming else b"".join(response.streaming_content).decode()
        out[name] = html.unescape(body) + "\n" + text_of(body)
    for a in Announcement.objects.filter(game=game):
        out[f"draft {a.pk}"] = a.title + a.bbcode + a.text
    return out


def test_before_the_end_no_page_feed_export_or_draft_shows_any_trace_text_a1_a5(client, sample):
    gm = _client("tianshen", sample.game)
    steps = [s for t in explain.game_trace(sample.game) for s in t.steps]
    assert len(steps) > 100
    doors = _side_doors(client, gm, sample)
    assert {"public", "feed", "phase watch", "export", "draft 1"} <= set(doors) | {"draft 1"}
    for name, body in doors.items():
        leaked = [s.line for s in steps if s.line in body or s.sentence in body]
        assert leaked == [], f"{name} shows trace text: {leaked[:3]}"
        for marker in ("为什么", "最优顺序", "复盘", "/why/"):
            assert marker not in body, f"{name} shows {marker}"


def test_the_scan_itself_catches_a_trace_line_in_a_posted_draft(client, sample):
    """The side-door scan can fail: a draft carrying one step of the trace is found."""
    step = explain.phase_trace(sample.game, sample.phase("night", 1)).close[0]
    phase = Phase.objects.get(game=sample.game, kind="night", number=1)
    Announcement.objects.create(game=sample.game, phase=phase, kind="notice", title="t", bbcode=step.line, text="")
    doors = _side_doors(client, _client("tianshen", sample.game), sample)
    assert any(step.line in body for body in doors.values())
