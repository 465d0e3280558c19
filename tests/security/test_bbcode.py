"""No value written by a player (a 杀人宣言, a forum ID, a game name) can open or close a BBCode tag of
a draft (A4), and the plain-text draft keeps a quoted manifesto visibly quoted."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from moderator.models import Announcement
from moderator.services import play, setup
from tests import entries

pytestmark = pytest.mark.django_db
FORGED = "[/quote][b]李四的牌已经全部丢光,李四死亡。他的身份是:杀手。[/b][url=javascript:alert(1)]点我[/url][quote]"
MANIFESTO = "今夜月色正好。" * 15 + "\n" + FORGED
URL_NAME = "[url=javascript:alert(1)]王五[/url]"
TAG = re.compile(r"\[/?[a-z*]+(?:=[^\]]*)?\]")


def _night_closed(manifesto: str = MANIFESTO):
    players = [
        {"name": "张三", "camp": "杀手", "hand": ["庶民", "杀手", "保镖", "束魂", "狙击手"]},
        {"name": "李四", "camp": "狼人", "hand": ["庶民", "狼人", "巫医", "阿米巴", "保镖"]},
        {"name": URL_NAME, "camp": "平民", "hand": ["庶民", "阿米巴", "巫医", "束魂", "狙击手"]},
    ]
    game = setup.table_create(name="[b]注入局[/b]", players=players)
    start = timezone.now() - timedelta(hours=25)
    phase = setup.game_start(game=game, at=start)
    seats = {s.player_name: s for s in game.seats.all()}
    _, verdict = entries.action_submit(
        game=game,
        seat=seats["张三"],
        payload={"card": "杀手", "use": "普通攻击", "target": URL_NAME, "manifesto": manifesto},
        forum_at=start + timedelta(hours=1),
    )
    assert verdict.accepted, verdict.reason
    assert play.phase_close(phase=phase)
    return game


def _tags(bbcode: str) -> list[str]:
    return TAG.findall(bbcode)


def test_a_manifesto_cannot_break_out_of_its_quote_in_the_dawn_draft():
    game = _night_closed()
    dawn = Announcement.objects.get(game=game, kind=Announcement.Kind.DAWN)
    tags = _tags(dawn.bbcode)
    assert "[url=javascript:alert(1)]" not in tags and tags.count("[quote]") == tags.count("[/quote]") == 1
    quoted = dawn.bbcode.split("[quote]", 1)[1].split("[/quote]", 1)[0]
    assert "李四死亡" in quoted and "他的身份是:杀手" in quoted  # the forged line stays inside the quote
    assert "李四死亡" not in dawn.bbcode.replace(quoted, "")


def test_the_plain_text_keeps_the_forged_line_visibly_quoted():
    game = _night_closed()
    text = Announcement.objects.get(game=game, kind=Announcement.Kind.DAWN).text
    forged = [line for line in text.splitlines() if "李四死亡" in line]
    assert forged and all(line.startswith("> ") for line in forged)


@pytest.mark.parametrize("brk", ["\r", "\r\n", "\u2028", "\u2029", "\x85", "\v", "\f", "\x1c"])
def test_a_line_break_of_any_kind_in_a_manifesto_keeps_the_quote_marker_in_the_plain_text(brk):
    """A lone CR inside a manifesto started a line of the plain-text copy without its "> " (a reader, a
    text box or a forum editor breaks the line there), so the forged death read like the 天神's own line."""
    game = _night_closed("今夜月色正好。" * 15 + brk + "李四的牌已经全部丢光,李四死亡。" + brk + "我的刀已经出鞘。")
    text = Announcement.objects.get(game=game, kind=Announcement.Kind.DAWN).text
    quoted = [line for line in text.splitlines() if "李四死亡" in line or "月色" in line or "出鞘" in line]
    assert len(quoted) == 3 and all(line.startswith("> ") for line in quoted), quoted


def test_a_name_with_a_url_tag_lands_inert_in_the_player_list_and_the_vote_post():
    game = _night_closed()
    vote_post = Announcement.objects.get(game=game, kind=Announcement.Kind.VOTE_POST).bbcode
    for draft in (setup.player_list_post(game), vote_post, setup.deal_pm(game.seats.get(number=3))):
        assert not any(t.startswith("[url") for t in _tags(draft))
        assert "［url=javascript:alert(1)］王五［/url］" in draft
    assert _tags(setup.player_list_post(game))[:2] == ["[b]", "[/b]"]  # the game name's [b] is text, not a tag


def test_every_value_of_every_announcement_template_goes_through_the_bb_filter():
    folder = Path(settings.BASE_DIR) / "templates" / "announcements"
    for path in folder.glob("*.bbcode"):
        source = path.read_text()
        assert source.startswith("{% load bbcode %}"), path.name
        for value in re.findall(r"\{\{(.*?)\}\}", source):
            assert value.strip().endswith("|bb"), f"{path.name}: {{{{{value}}}}} is not escaped"


def test_every_value_of_every_close_draft_goes_through_bb():
    """A4: a close's drafts are rendered in Python (services/posts.py), not by the templates the test above reads:
    every value each renderer prints — names, phrases, camps, manifestos, labels, deadlines — is given a tag here,
    and no tag of it may come out (each lands as inert ［ ］ text)."""
    from types import SimpleNamespace

    from moderator.services import posts

    evil = URL_NAME
    row = {"player": evil, "phrase": evil}
    phase = SimpleNamespace(label=evil, ends_at=None)
    common = {"phase": phase, "deaths": [{"player": evil, "camp": evil}], "window": 1, "silence": True}
    common |= {"silence_left": evil, "winner": evil, "winners": [{"name": evil, "co_win": True}], "doom": [row]}
    dawn = {**common, "attacked": [row], "failures": [row], "saved": [evil], "execution_cards": [row]}
    dawn |= {"pardons": [evil], "manifestos": [evil]}
    dusk = {**common, "tally": [(evil, evil)], "executed": [row], "saints": [evil], "saint_losses": [row]}
    running = {**common, "winner": None, "next_phase": phase, "deadline": evil}
    seat = {"name": evil, "camp": evil, "side": evil, "mode": evil, "alive": True, "hand": [evil]}
    drafts = [
        posts.dawn(dawn),
        posts.dusk(dusk),
        posts.tail(running),
        posts.vote_post({**running, "voters": [evil], "no_vote": [evil]}),
        posts.co_win({"partner": evil}),
        posts.order_window({"seat": SimpleNamespace(name=evil), "bottom": evil}),
        posts.final_summary({"winner": evil, "winners": [{"name": evil, "co_win": True}], "seats": [seat]}),
    ]
    for draft in drafts:
        assert not any(t.startswith("[url") for t in _tags(draft)), draft
        assert "［url=javascript:alert(1)］王五［/url］" in draft
    # every value of the dawn post: label 1, execution card 2, pardon 1, attack 2, failure 2, 绝杀 2, saved 1,
    # death 3 (name twice, camp), manifesto 1, 默哀期 1, winner 1, winners 2 (name, co-win camp)
    assert posts.dawn(dawn).count("［url=javascript:alert(1)］王五［/url］") == 19
