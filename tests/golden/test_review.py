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
from played import played

from moderator.game.trace import CLAUSE
from moderator.services import explain
from moderator.services import review as review_post

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


def _pinned(game, stem: str) -> str:
    bb, text = review_post.post(game)
    actual = HEADER + "----- bbcode\n" + bb + "\n----- text\n" + text
    path = ROOT / f"review_{stem}.txt"
    if updating():
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"{path} is missing: regenerate with UPDATE_GOLDEN=1 and review it"
    assert path.read_text(encoding="utf-8") == actual
    return text


def test_the_review_of_a_played_game_is_pinned_word_for_word():
    _pinned(_played(), GAME.stem)


def test_the_review_of_a_game_with_a_substitution_a_lost_amoeba_modifiers_and_corrections_is_pinned():
    _pinned(played(), "played")


@pytest.fixture
def review():  # the played game and its 复盘
    game = played()
    bb, text = review_post.post(game)
    return game, bb, text


def _block(text: str, heading: str) -> str:
    return text.split(f"\n{heading}\n", 1)[1].split("\n\n", 1)[0]


def test_s5_the_review_names_who_held_the_seat_in_each_phase_and_says_when_it_changed_hands(review):
    _game, _bb, text = review
    night1 = _block(text, "第1夜")
    assert "李朗的治疗抓到了沙陀的狼人牌的普通攻击(对 李朗)" in night1 and "李朗被救活" in night1
    assert "小狸" not in night1  # she took the seat on night 2
    assert "李朗(平民):发到 庶民、巫医、诅咒/庇佑" in text and "后来由 小狸 接替" in text
    night2 = _block(text, "第2夜")
    assert "替补:小狸接替李朗" in night2 and "之后由小狸的新私人链接提交" in night2
    assert "补录 李朗 诅咒" in _block(text, "第1夜")  # the forgotten PM was 李朗's, not the substitute's


def test_m1_the_review_says_a_lost_amoeba_did_not_transform(review):
    _game, _bb, text = review
    night2 = _block(text, "第2夜")
    assert "张环变为巫医的阿米巴在变形完成之前已经丢掉,没有变形" in night2
    assert "变形完成,现在是" not in text
    assert "张环 治疗 → 张环:没有被接受" in night2


def test_n13_the_review_shows_the_arithmetic_with_who_cursed_and_blessed(review):
    _game, _bb, text = review
    assert "东来得票 5 ÷2(小狸 虔诚庇佑)= 2 → +1(小狸 诅咒)= 3 票" in text
    assert "先×2,再÷2" not in text


def test_o1_the_deal_shows_the_hand_as_dealt_and_apart_the_order_each_seat_sent(review):
    _game, _bb, text = review
    deal = _block(text, "开局:身份、发到的牌和丢牌顺序")
    assert "底牌" not in deal.split("发到 ", 1)[1].split(";", 1)[0]
    assert "发到的顺序就是丢牌顺序" in deal
    assert "丢牌顺序从左到右,最后一张是底牌" not in text


def test_the_review_reads_as_a_forum_post_short_without_clause_ids_or_jargon(review):
    game, bb, text = review
    steps = sum(len(t.steps) for t in explain.game_trace(game))
    items = bb.count("[*]")
    assert items * 2 < steps, (items, steps)  # the full step list stays on the 为什么 pages
    assert CLAUSE.search(text) is None, CLAUSE.search(text)
    assert "穷举" not in text and "(AP1)" not in text
    for phase in game.phases.all():  # the AP ledger: one line per seat a night, never one per row
        if phase.kind == "night":
            block = _block(text, phase.label)
            assert block.count("的行动点数:") <= game.seats.count()
    assert "天神更正:作废 小狸 空过" in text and "天神更正:补录 李朗" in text
    assert unbalanced(bb) == []
    etree.fromstring(f"<div>{bbcode.Parser().format(bb)}</div>")


def test_the_review_renders_through_a_third_party_bbcode_parser_with_no_unbalanced_tag():
    bb, _ = review_post.post(_played())
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
    bb, _ = review_post.post(game)
    assert 'id="review-draft"' in page
    assert "复盘:杀手阵营获胜" in page
    assert "活着的是 乙(杀手) → 杀手阵营获胜" in page
    assert page.count("[/list]") == bb.count("[/list]")
