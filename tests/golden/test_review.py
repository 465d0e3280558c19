"""The 复盘 post of a played game (moderator/services/explain.py): played through the services from the golden start
to its end, its BBCode and plain text are pinned word for word (tests/golden/traces/review_*.txt, regenerated with
UPDATE_GOLDEN=1 like the golden posts), and the BBCode goes through a third-party parser (the `bbcode` package) with
every tag balanced and properly nested, and renders to well-formed markup."""

from __future__ import annotations

import bbcode
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from golden import HEADER, SCENARIOS, play, updating
from lxml import etree

from moderator.services import explain

pytestmark = pytest.mark.django_db
ROOT = SCENARIOS.parent / "golden" / "traces"
# A whole game to its end: two nights and days, a 共赢 self-chosen left alone wins for the killer camp (V2).
GAME = SCENARIOS / "c_V2_cowin_self_chosen_alone_wins_for_the_camp.yaml"
STANDALONE = {"*"}  # a list item closes at the next item or at [/list] (the parser's own rule)


def _played():
    game, problems, _ = play(GAME)
    assert problems == []
    game.refresh_from_db()
    return game


def unbalanced(text: str) -> list[str]:
    """What the parser finds open or closed out of order: [] when every tag it knows is balanced and nested."""
    parser = bbcode.Parser()
    stack: list[str] = []
    wrong: list[str] = []
    for kind, tag, _opts, raw in parser.tokenize(text):
        if kind == bbcode.Parser.TOKEN_TAG_START and tag not in STANDALONE:
            stack.append(tag)
        elif kind == bbcode.Parser.TOKEN_TAG_END and tag not in STANDALONE:
            if not stack or stack[-1] != tag:
                wrong.append(raw)
            else:
                stack.pop()
    return wrong + [f"[{tag}] never closed" for tag in stack]


def test_the_review_of_a_played_game_is_pinned_word_for_word():
    bb, text = explain.review_post(_played())
    actual = HEADER + "----- bbcode\n" + bb + "\n----- text\n" + text
    path = ROOT / f"review_{GAME.stem}.txt"
    if updating():
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"{path} is missing: regenerate with UPDATE_GOLDEN=1 and review it"
    assert path.read_text(encoding="utf-8") == actual


def test_the_review_has_the_deal_every_phase_every_input_and_the_winner():
    game = _played()
    _bb, text = explain.review_post(game)
    for seat in game.seats.all():
        assert f"{seat.player_name}({seat.camp}):{'、'.join(seat.dealt_hand)}" in text
    for phase in game.phases.all():
        assert f"{phase.label} · 输入与裁决" in text
        assert f"{phase.label} · 结算" in text
    assert text.count("输入:") == sum(p.inputs.count() for p in game.phases.all())
    assert "V2 胜负:" in text and "杀手阵营获胜" in text.splitlines()[0]


def test_the_review_renders_through_a_third_party_bbcode_parser_with_no_unbalanced_tag():
    bb, _ = explain.review_post(_played())
    assert unbalanced(bb) == []
    html = bbcode.Parser().format(bb)
    etree.fromstring(f"<div>{html}</div>")  # well-formed: raises on a tag left open or crossed
    assert html.count("<ul>") == html.count("</ul>") == bb.count("[list]")


def test_the_balance_check_itself_catches_an_open_or_crossed_tag():
    assert unbalanced("[b]x") == ["[b] never closed"]
    assert unbalanced("[b][quote]x[/b][/quote]") != []
    assert unbalanced("[b]x[/b][list]\n[*]a\n[*]b\n[/list]") == []


def test_the_review_is_among_the_drafts_once_the_game_is_over():
    game = _played()
    user = get_user_model().objects.create_user("tianshen-review", password="direnjie-demo-pw")
    game.gms.add(user)
    client = Client()
    client.force_login(user)
    page = client.get(reverse("console_announcements", args=[game.pk])).content.decode()
    bb, _ = explain.review_post(game)
    assert 'id="review-draft"' in page
    assert "复盘:杀手阵营获胜" in page
    assert "V2 胜负:活着的是 乙(杀手) → 杀手阵营获胜" in page
    assert page.count("[/list]") == bb.count("[/list]")
