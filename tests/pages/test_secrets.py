"""Security: a player's link shows only that seat; every public page and every error page of a played
game is scanned for hidden information (living players' cards, night deaths' camps — V5, AP — AP6, who used what,
N13 modifiers, tokens); hostile player names render inert; every form carries a CSRF token."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from pages_scan import (
    AP_WORDS,
    POST_FORBIDDEN,
    SECRET_WORDS,
    archive,
    found,
    public_posts,
    shown_camps,
    text_of,
    without_archive,
    without_camps,
)

from bench.sample import DAY_DEATH, HANDS, IMG, NIGHT_DEATH, SCRIPT
from moderator.models import AuditLog, Game, Input, Phase
from moderator.rules import codec
from moderator.services.storage import game_replay
from tests.pages.conftest import played
from tests.world import GM_PASSWORD, GM_USERNAME

pytestmark = pytest.mark.django_db
STAGES = {1: "第1夜", 2: "第1天", 3: "第2夜", 4: "第2天"}


def _tokens(game) -> list[str]:
    return list(game.seats.values_list("token", flat=True))


def _assert_public_page_keeps_secrets(page: str, game) -> None:
    # The archive is exactly the public posts, and they name no card but by type (A1, A2, A3).
    posts = public_posts(game)
    assert archive(page) == posts
    for title, text in posts:
        assert found(title + text, POST_FORBIDDEN) == [], title
        assert found(text, AP_WORDS) == [], title
    # Camps only for day deaths (V5), and right.
    state = game_replay(game).state
    assert set(shown_camps(page)) <= {(DAY_DEATH, HANDS[DAY_DEATH][0])}
    # Outside the posts and the day-death camps: no card, no privilege, no AP, no night death's camp, no token.
    rest = without_camps(without_archive(page))
    assert found(rest, SECRET_WORDS) == []
    assert found(rest, AP_WORDS) == []
    if not state.seat(NIGHT_DEATH).alive:
        assert found(page, [HANDS[NIGHT_DEATH][0], "共赢", "独赢"]) == []
    assert found(page, _tokens(game)) == []


@pytest.mark.parametrize("upto", [1, 2, 3, 4])
def test_the_public_page_shows_no_card_no_ap_no_night_camp_at_any_phase_a1_v5(client, db, upto):
    s = played(__name__, upto=upto)
    page = client.get(reverse("game_public", args=[s.game.pk])).content.decode()
    assert STAGES[upto] in page
    _assert_public_page_keeps_secrets(page, s.game)


def test_the_public_page_keeps_the_secrets_for_a_signed_in_gm_and_when_paused(gm_client, sample):
    Phase.objects.filter(game=sample.game, status=Phase.Status.OPEN).update(paused_remaining=timedelta(hours=1))
    Game.objects.filter(pk=sample.game.pk).update(status=Game.Status.PAUSED)
    AuditLog.objects.create(game=sample.game, action="game_pause")
    page = gm_client.get(reverse("game_public", args=[sample.game.pk])).content.decode()
    assert "已暂停" in page
    _assert_public_page_keeps_secrets(page, sample.game)


def test_the_home_and_login_pages_show_no_secret(client, sample):
    names = sorted({html.escape(n) for n in Game.objects.values_list("name", flat=True)}, key=len, reverse=True)
    for url in ("/", reverse("login")):
        page = client.get(url).content.decode()
        for name in names:  # a game's name is the GM's public label, whatever words it uses
            page = page.replace(name, " ")
        assert found(page, [*SECRET_WORDS, *AP_WORDS, *_tokens(sample.game)]) == [], url


def _error_pages(client, s) -> list[tuple[str, object]]:
    token = s.seats["甲"].token
    return [
        ("unknown game", client.get("/games/987654/")),
        ("wrong token", client.get("/p/" + "x" * 43 + "/")),
        ("token of another length", client.get("/p/" + token[:30] + "/")),
        ("unknown url", client.get(f"/games/{s.game.pk}/secrets/")),
        ("post to the public page", client.post(reverse("game_public", args=[s.game.pk]))),
        ("post to a private page", client.post(reverse("seat_private", args=[token]))),
        ("put to a private page", client.put(reverse("seat_private", args=[token]))),
    ]


def test_every_error_page_says_nothing_about_the_game(client, sample):
    names = list(HANDS)
    camps = sorted({camp for camp, _ in HANDS.values()})
    for label, response in _error_pages(client, sample):
        assert response.status_code in (404, 405), label
        body = response.content.decode()
        leaks = found(body, [*SECRET_WORDS, *AP_WORDS, *names, *camps, *_tokens(sample.game), sample.game.name])
        assert leaks == [], label


def _all_pages(client, s) -> dict[str, str]:
    pages = {"public": client.get(reverse("game_public", args=[s.game.pk])).content.decode()}
    for name, seat in s.seats.items():
        pages[name] = client.get(reverse("seat_private", args=[seat.token])).content.decode()
    return pages


@pytest.mark.parametrize("upto", [2, 4])
def test_hostile_player_names_render_inert(client, db, upto):
    s = played(__name__, upto=upto)
    for label, page in _all_pages(client, s).items():
        assert SCRIPT not in page and IMG not in page, label
        assert "<img" not in page, label
        # base.html's and the countdown's static files, nothing a name brought
        assert re.findall(r"<script\b[^>]*>", page) == [
            '<script src="/static/moderator/ticker.js">',
            '<script src="/static/moderator/site.js">',
        ], label
        if label in ("public", SCRIPT):
            assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page, label
        if label in ("public", IMG):
            assert "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in page, label


def test_a_players_link_never_shows_another_seats_data(client, sample):
    names = dict(sample.game.seats.values_list("number", "player_name"))
    mine = {
        seat.player_name: {
            codec.describe(r.kind, r.payload, names) for r in Input.objects.filter(game=sample.game, seat=seat)
        }
        for seat in sample.game.seats.all()
    }
    pages = _all_pages(client, sample)
    for a, page in pages.items():
        if a == "public":
            continue
        for b, seat_b in sample.seats.items():
            if b == a:
                continue
            assert seat_b.token not in page, (a, b)
            for line in mine[b] - mine[a]:
                if line.startswith(("投票 →", "改票 →")):
                    continue  # votes are public forum posts
                assert line not in text_of(page), (a, b, line)
        assert ("共赢" in text_of(page)) == (a == "庚"), a  # S4: the stance is the self-chosen player's secret


def test_every_form_carries_a_csrf_token(client, gm_client, sample):
    urls = ["/", reverse("login"), reverse("game_public", args=[sample.game.pk])]
    urls += [reverse("seat_private", args=[s.token]) for s in sample.seats.values()]
    for c in (client, gm_client):
        for url in urls:
            page = c.get(url).content.decode()
            for form in re.findall(r"<form\b.*?</form>", page, re.S | re.I):
                if re.search(r'method="?post', form, re.I):
                    assert 'name="csrfmiddlewaretoken"' in form, url


def test_a_post_without_the_csrf_token_is_refused(gm):
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(reverse("login"), {"username": GM_USERNAME, "password": GM_PASSWORD}).status_code == 403
    strict.force_login(gm)
    assert strict.post(reverse("logout")).status_code == 403


# Sign-in throttling: tests/security/test_login.py (django-axes).


@pytest.mark.parametrize(
    "leak",
    [
        "<td>保镖</td>",  # a card in a cell
        '<span title="阿米巴">?</span>',  # in an attribute
        "<!-- 狙击手 -->",  # in a comment
        "<td>狼人</td>",  # a night death's camp (V5)
        "<p>行动点数 3</p>",  # AP
        "<p>诅咒 +1</p>",  # an N13 modifier before dusk
        "<p>普通攻击</p>",  # who used what
    ],
)
def test_the_scan_itself_catches_a_leak(client, sample, leak):
    page = client.get(reverse("game_public", args=[sample.game.pk])).content.decode()
    _assert_public_page_keeps_secrets(page, sample.game)
    with pytest.raises(AssertionError):
        _assert_public_page_keeps_secrets(page.replace("</main>", leak + "</main>"), sample.game)


def test_the_scan_catches_a_token_on_the_page(client, sample):
    page = client.get(reverse("game_public", args=[sample.game.pk])).content.decode()
    with pytest.raises(AssertionError):
        _assert_public_page_keeps_secrets(page + sample.seats["戊"].token, sample.game)


def test_a_signed_in_gms_header_never_reaches_the_page_cached_for_visitors(client, gm_client, sample):
    for url in (
        reverse("game_public", args=[sample.game.pk]),
        reverse("seat_private", args=[sample.seats["甲"].token]),
    ):
        gm_page = gm_client.get(url).content.decode()
        assert "tianshen" in gm_page and "csrfmiddlewaretoken" in gm_page
        visitor = client.get(url).content.decode()
        assert "tianshen" not in visitor and "csrfmiddlewaretoken" not in visitor and "天神登录" in visitor
        assert "tianshen" in gm_client.get(url).content.decode()  # and the other way round
