"""Every page of the site in a real headless Chromium, on a 390×844 phone and a 1280 px screen: axe-core (WCAG 2.0/2.1
A and AA) finds no critical or serious violation, no page scrolls sideways on the phone, every control there is at
least 24 px, the main buttons of the act page and the trackers 44 px; every page has a title of its own."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from moderator.models import Input, Message
from moderator.services import setup
from tests.browser import a11y
from tests.browser.console_kit import MANIFESTO, login, now_local, table_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
SITE = "神探狄仁杰 · 天神助手"
OUTSIDE_THE_GAME = ("我的游戏", "新建游戏", "导入游戏", "开局页", "开始第1夜")


@pytest.fixture(params=list(SIZES))
def size(request):
    return request.param


@pytest.fixture
def tab(browser, live_server, size):
    phone = size == "phone"
    context = browser.new_context(
        base_url=live_server.url, locale="zh-CN", viewport=SIZES[size], is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.site = live_server.url
    page.on("dialog", lambda d: d.accept())
    yield page
    context.close()


class Survey:
    """Visits pages and gathers every problem, so that one run names them all."""

    def __init__(self, page):
        self.page, self.found, self.titles = page, [], {}

    def visit(self, where: str, url: str | None = None) -> None:
        if url is not None:
            self.page.goto(url)
        self.page.wait_for_load_state("load")
        self.titles[where] = self.page.title()
        self.found += a11y.problems(self.page, where)

    def done(self) -> None:
        assert not self.found, "\n".join(self.found)


def _big(page, selector: str, least: int = 44) -> list[str]:
    """The elements of `selector` shorter or narrower than `least` px (the main buttons on a phone)."""
    boxes = page.eval_on_selector_all(selector, "els => els.map(e => [e.outerHTML.slice(0, 80), e.offsetHeight])")
    assert boxes, f"no {selector} on {page.url}"
    return [f"{html} {h} px" for html, h in boxes if h < least]


PAGE = """<!doctype html><html lang="zh-Hans"><head><meta name="viewport" content="width=device-width, initial-scale=1">
<title>检查页</title><style>{style}</style></head><body><main><h1>检查页</h1><p class="note">说明文字</p>
<label>小时 <input name="hours"></label> <input type="checkbox" name="x" {named}><div class="wide">一行</div></main></body></html>"""
BAD = {"style": ".note {{ color: #777 }} .wide {{ width: 600px }}", "named": ""}
GOOD = {
    "style": ".note {{ color: #666 }} input {{ min-height: 28px }} input[type=checkbox] {{ width: 24px; height: 24px }}",
    "named": 'aria-label="确认"',
}


def test_the_check_catches_each_kind_of_problem(browser):
    """The checker itself: on a page with one problem of each kind it names every one, on the same page without them
    nothing (so that a clean run of the pages means they are clean)."""
    context = browser.new_context(locale="zh-CN", viewport=SIZES["phone"], is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_content(PAGE.format(**{k: v.format() for k, v in BAD.items()}))
        found = "\n".join(a11y.problems(page, "坏页面"))
        assert "坏页面 (about:blank, 390 px)" in found, found
        assert "- label (critical)" in found and 'input[type="checkbox"]' in found, found
        assert "- color-contrast (serious)" in found and "说明文字" in found, found
        assert "页面比屏幕宽,会左右滚动(" in found, found
        assert "手机上小于 24 px 的控件:" in found and "input[name=hours]" in found and "input[name=x]" in found, found
        page.set_content(PAGE.format(**{k: v.format() for k, v in GOOD.items()}))
        assert a11y.problems(page, "好页面") == []
    finally:
        context.close()


def test_console_pages(tab, size, django_user_model):
    user = login(tab, django_user_model)
    game = table_game(user, "无障碍检查局")
    game.self_entry = True
    game.save(update_fields=["self_entry"])
    waiting = setup.table_create(
        name="未开始的局", players=[{"name": n, "camp": "平民", "hand": ["庶民"] * 5} for n in "甲乙丙丁"]
    )
    waiting.gms.add(user)
    s = Survey(tab)

    s.visit("我的游戏", "/gm/")
    s.visit("新建游戏", "/games/new/")
    s.visit("导入游戏", "/games/import/")
    s.visit("开局页", f"/games/{waiting.pk}/setup/")
    s.visit("开始第1夜", f"/gm/{waiting.pk}/start/")

    tab.goto(f"/gm/{game.pk}/pm/")
    tab.select_option("#id_seat", str(game.seats.get(player_name="甲").pk))
    tab.fill("#id_forum_at", now_local())
    tab.fill("#id_text", "用杀手普通攻击乙。杀人宣言:" + MANIFESTO + "\n今晚杀他\n狙击丙")
    tab.click("button[name=preview]")
    tab.wait_for_selector("#preview")
    s.visit("录入短消息(预览)")
    tab.click("#confirm")  # stored: the message's own page is visited below
    tab.wait_for_selector(".flash li")
    s.visit("录入投票帖", f"/gm/{game.pk}/vote-post/")

    at = timezone.localtime(timezone.now() - timedelta(minutes=5)).strftime("%Y-%m-%d %H:%M")
    tab.goto(f"/gm/{game.pk}/bulk/")
    tab.fill("#id_paste", f"=== 乙 {at}\n束魂丙\n\n=== 丙 {at}\n巫医救谁呢\n\n=== 吃瓜群众 {at}\n路过\n")
    tab.wait_for_selector("#bulk-summary")
    s.visit("批量录入(预览)")

    tab.goto(f"/gm/{game.pk}/action/")
    s.visit("表单录入")
    tab.select_option("#id_seat", str(game.seats.get(player_name="丁").pk))
    tab.fill("#id_forum_at", now_local())
    tab.check("#id_passes")
    tab.click("form button[type=submit]")
    tab.wait_for_selector(".flash li")
    s.visit("投票", f"/gm/{game.pk}/votes/")
    s.visit("总览", f"/gm/{game.pk}/")
    s.visit("公告草稿", f"/gm/{game.pk}/announcements/")
    s.visit("更正", f"/gm/{game.pk}/correction/")
    s.visit("平局", f"/gm/{game.pk}/draw/")
    s.visit("操作记录", f"/gm/{game.pk}/audit/")
    s.visit("为什么", f"/gm/{game.pk}/why/{game.phases.order_by('-pk').first().pk}/")
    s.visit("玩家自己提交", f"/gm/{game.pk}/self-entry/")
    s.visit("提前结束", f"/gm/{game.pk}/end/")
    s.visit("短消息", f"/gm/{game.pk}/messages/{Message.objects.get(game=game).pk}/")
    s.visit("作废", f"/gm/{game.pk}/void/{Input.objects.filter(game=game).first().pk}/")
    tab.goto(f"/gm/{game.pk}/")
    tab.fill("#substitute input[name=player_name]", "新来的")
    tab.click("#substitute button")
    tab.wait_for_selector("#substitution-preview")
    s.visit("替补(预览)")
    s.done()

    titles = s.titles
    assert len(set(titles.values())) == len(titles), titles  # every page its own title
    assert titles["总览"] == f"总览 · 无障碍检查局 · {SITE}"
    assert titles["开局页"] == f"开局 · 未开始的局 · {SITE}"
    assert all("无障碍检查局" in t for w, t in titles.items() if w not in OUTSIDE_THE_GAME), titles
    assert all(t.endswith(SITE) for t in titles.values()), titles


def test_public_and_player_pages(tab, size, django_user_model):
    game = table_game(django_user_model.objects.create_user("gm"), "神探狄仁杰")  # the new-game form's default name
    game.self_entry = True
    game.save(update_fields=["self_entry"])
    s = Survey(tab)
    s.visit("首页", "/")
    s.visit("登录", "/accounts/login/")
    s.visit("公开页", f"/games/{game.pk}/")
    seat = game.seats.get(player_name="甲")
    s.visit("私人页面", f"/p/{seat.token}/")
    tab.goto(f"/p/{seat.token}/act/")
    s.visit("提交")
    tab.select_option("#id_a-use", "普通攻击")
    tab.select_option("#id_a-card", "杀手")
    tab.select_option("#id_a-target", "乙")
    tab.fill("#id_a-manifesto", MANIFESTO)
    tab.click("#form-form button[name=preview]")
    tab.wait_for_selector("#preview")
    tab.click("#privilege summary")  # the 更换 checkbox and the rest of the form
    s.visit("提交(预览)")
    if size == "phone":
        s.found += _big(tab, "#confirm, .act button[name=preview]")
    s.done()
    assert s.titles["登录"] == f"天神登录 · {SITE}"
    assert s.titles["公开页"].count("神探狄仁杰") == 1, s.titles
    assert len({s.titles[w] for w in ("首页", "登录", "公开页", "私人页面", "提交")}) == 5, s.titles


@pytest.mark.skipif("tables" not in settings.INSTALLED_APPS, reason="tables 尚未加入 INSTALLED_APPS")
def test_table_tracker_pages(tab, size):
    from tables.models import Table

    s = Survey(tab)
    s.visit("桌游记录", "/tables/")
    tab.select_option("#id_kind", "direnjie_cards")
    tab.select_option("#id_mode", "physical")
    tab.fill("#id_players", "狄仁杰,李元芳,曾泰")
    tab.click("button[type=submit]")
    tab.wait_for_selector("#host-link")
    s.visit("私人链接(创建后)")
    table = Table.objects.get()
    s.visit("主持页", f"/tables/{table.pk}/h/{table.host_token}/")
    s.visit("玩家页", f"/tables/{table.pk}/p/{table.players[0]['token']}/")
    tab.locator('button[value="T3:1"]').click()
    tab.wait_for_selector('button[value="T3:1"]:has-text("✓")')
    s.visit("玩家页(记过一格)")
    name = tab.get_attribute('button[value="T3:1"]', "aria-label") or ""
    if "✓" not in name and "有" not in name:
        s.found.append(f"玩家页: the grid's T3:1 button's spoken name {name!r} does not carry its ✓")
    if size == "phone":
        s.found += _big(tab, "form.action button[type=submit]")
    s.visit("公开页", f"/tables/{table.pk}/")
    s.done()
    titles = [s.titles[w] for w in ("桌游记录", "私人链接(创建后)", "主持页", "玩家页", "公开页")]
    assert len(set(titles)) == len(titles), s.titles  # every page its own title
    assert all(t.count("狄仁杰(卡牌推理)") <= 1 for t in titles), titles  # the kind named once


TRACKED = {
    "noir": ["福尔摩斯", "莫里亚蒂"],
    "sanguosha": ["刘备", "关羽", "张飞", "曹操", "孙权"],
    "anhuoxian": ["阿甲", "阿乙", "阿丙", "阿丁"],
    "direnjie_cards": ["狄仁杰", "李元芳", "曾泰"],
}


def _step(table, rng) -> bool:
    """One random legal move the forms offer, recorded through the tracker's service; False once the game is over."""
    from tables import services
    from tables.models import Table
    from tests.tables.tables_playout import choose

    state = Table.objects.get(pk=table.pk).load()
    if table.rules.winner(state) is not None:
        return False
    seat, _, _, _, action = choose(table.rules, state, rng)
    services.act(table.pk, seat, {k: v for k, v in action.items() if k != "player"})
    return True


@pytest.mark.skipif("tables" not in settings.INSTALLED_APPS, reason="tables 尚未加入 INSTALLED_APPS")
@pytest.mark.parametrize("mode", ["physical", "digital"])
def test_every_tracker_in_play_and_at_its_end(tab, size, mode):
    """Each game's player page with its forms (six moves in), its host page, and its public page at the end."""
    from tables import services
    from tests.tables.tables_playout import play

    s = Survey(tab)
    for kind, names in TRACKED.items():
        table = services.create_table(kind, names, seed=7, mode=mode)
        rng = random.Random(3)
        tab.goto("about:blank")  # no page of a table polling for news while this thread writes (SQLite locks)
        for _ in range(6):
            _step(table, rng)
        table.refresh_from_db()
        state = table.load()
        seat = next(p for p in range(len(names)) if table.rules.forms(state, p))
        s.visit(f"{kind}/{mode} 玩家页", f"/tables/{table.pk}/p/{table.players[seat]['token']}/")
        if size == "phone":
            s.found += _big(tab, "form.action button[type=submit]")
        s.visit(f"{kind}/{mode} 主持页", f"/tables/{table.pk}/h/{table.host_token}/")
        # The rest of the game played by the rules alone (the service's log of each record is not what is looked at
        # here, and recording hundreds of moves one by one costs the shared machine a minute), then stored.
        table.refresh_from_db()
        table.state = play(table.rules, table.load(), rng)[0].to_dict()
        table.save()
        s.visit(f"{kind}/{mode} 结果", f"/tables/{table.pk}/")
        assert "结果" in tab.inner_text("main"), kind
    s.done()
