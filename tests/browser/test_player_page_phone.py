"""On a 390-pixel phone in real Chromium: a text in which nothing was read offers no confirm and says nothing will
be sent; a second snipe on the same target is offered as a second snipe with the one green button, and pressing it
keeps both attacks (AP4); links that stand alone on the 天神's and the public pages are targets of at least 24 px,
and no table has an empty header."""

from __future__ import annotations

import pytest
from django.urls import reverse

from moderator.models import Input, SelfEntry
from tests import entries
from tests.browser import a11y
from tests.browser.console_kit import MANIFESTO, end_phase, seat, sign_in, table_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# Links that stand alone (not inside running text) and the height each must reach (WCAG 2.5.8).
STANDALONE = """(min) => [...document.querySelectorAll('a')].filter(a => {
    const box = a.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) return false;
    const parent = a.parentElement;
    const alone = parent.textContent.trim() === a.textContent.trim() || a.closest('header, nav, td, th');
    return alone && box.height < min - 0.5;
  }).map(a => `${a.textContent.trim().slice(0, 12)} ${Math.round(a.getBoundingClientRect().height)}px`)"""
EMPTY_HEADERS = """async () => (await axe.run(document, {runOnly: {type: 'rule', values: ['empty-table-header']}}))
  .violations.flatMap(v => v.nodes.map(n => n.target.join(' ')))"""


def _game(django_user_model):
    user = django_user_model.objects.create_user("tianshen-phone", password="direnjie-demo-pw")
    game = table_game(user, name="手机局")
    game.self_entry = True
    game.save(update_fields=["self_entry"])
    return user, game


def _phone(page):
    page.set_viewport_size(PHONE)
    return page


def test_a_text_that_reads_nothing_offers_no_confirm_on_a_phone(page, django_user_model):
    _user, game = _game(django_user_model)
    tab = _phone(page)
    tab.goto(f"/p/{seat(game, '甲').token}/act/")
    tab.fill("#id_t-text", "大家晚上好,我今晚再想想")
    tab.click("#form-text button[name=preview]")
    tab.wait_for_selector("#preview")
    assert tab.locator("#confirm").count() == 0
    said = tab.inner_text("#nothing-to-confirm")
    assert "没有读出任何行动" in said and "不会寄出任何内容" in said
    a11y.check(tab, "什么都没读出的预览")
    assert SelfEntry.objects.count() == 0


def test_a_second_snipe_on_the_same_target_is_one_green_button_that_keeps_both_attacks(page, django_user_model):
    _user, game = _game(django_user_model)
    tab = _phone(page)
    tab.goto(f"/p/{seat(game, '甲').token}/act/")
    for n in (1, 2):
        tab.select_option("#id_a-use", "普通狙击")
        tab.select_option("#id_a-card", "狙击手")
        tab.select_option("#id_a-target", "乙")
        tab.fill("#id_a-manifesto", MANIFESTO)
        tab.click("#form-form button[name=preview]")
        tab.wait_for_selector("#preview")
        if n == 2:
            assert "确认就是对乙的第二次普通狙击" in tab.inner_text("#repeat")
            assert tab.locator("#as-change").count() == 0  # no "change from 乙 to 乙"
            assert tab.get_attribute("#confirm", "class") == "confirm"
            assert "第二次普通狙击 → 乙" in tab.inner_text("#confirm")
            a11y.check(tab, "第二次狙击同一目标的预览")
        tab.click("#confirm")
        tab.wait_for_selector(".flash li")
    snipes = Input.objects.filter(seat=seat(game, "甲"), verdict__accepted=True)
    assert snipes.count() == 2


def test_standalone_links_are_24_px_and_no_table_header_is_empty_on_a_phone(page, django_user_model):
    user, game = _game(django_user_model)
    phase = game.phases.get(status="open")
    entries.action_submit(
        game=game,
        seat=seat(game, "甲"),
        payload={"use": "普通攻击", "card": "杀手", "target": "乙", "manifesto": MANIFESTO},
        forum_at=phase.starts_at,
    )
    sign_in(page.context, page.site, user)
    tab = _phone(page)
    pages = {
        "首页": "/",
        "总览": reverse("console_dashboard", args=[game.pk]),
        "公开页面": reverse("game_public", args=[game.pk]),
        "404": "/games/999999/",
    }
    for where, url in pages.items():
        _check_links(tab, where, url)
        if where == "总览":
            assert tab.locator("a.void").count() == 1  # the input's 作废… link is among the links checked
    end_phase(game)  # a day: the vote intake page links the vote thread paste
    _check_links(tab, "投票录入", reverse("console_votes", args=[game.pk]))
    assert tab.locator("text=或粘贴投票帖原文").count() == 1


def _check_links(tab, where: str, url: str) -> None:
    tab.goto(url)
    small = tab.evaluate(STANDALONE, a11y.TAP_MIN)
    assert small == [], f"{where}: 小于 24 px 的独立链接 {small}"
    a11y.inject(tab)
    assert tab.evaluate(EMPTY_HEADERS) == [], where
