"""Seven players, each on his own 390-pixel phone in real Chromium, play a night and a day from their private pages
(/p/<token>/act/): the discard orders of night 1 (O1), the privilege form, free text through the parser, the S4
stance, a pass, a second 束魂 that the page turns into a change of target (T3, AP4), the day's vote and one change
(D3), a player saved at night (N7) who sees why he cannot vote. The 天神 only watches the dashboard (the
self-entered inputs, who has not acted, whose order is missing, the reminders), looks at the end-early page while
orders are missing (O1, T5), and ends each phase. The game's phases last 12 hours: every draft says so. The same
game played the old way — the 天神 pasting each PM and vote post with the forum time the player sent it — gives the
same state after each phase (the stored snapshots are equal) and the same dawn and dusk posts; its vote thread asks
for posts in the thread, the phones' for votes on the private pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.models import Announcement, Game, Input, Phase, SelfEntry
from moderator.services import clock, intake, setup, storage
from tests.browser.console_kit import MANIFESTO, login, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
NAME = "七人自助局"
HOURS = 12  # T1 setting: the phase length every draft states
TABLE = [  # hands entered in discard order (the last card is the 底牌)
    ("狄仁杰", "杀手", "庶民、庶民、狙击手、保镖、杀手"),
    ("李元芳", "狼人", "庶民、庶民、束魂、巫医、狼人"),
    ("曾泰", "自选", "庶民、诅咒/庇佑、庶民、防弹衣/狼毒、阿米巴"),
    ("狄如燕", "平民", "保镖、庶民、狙击手、禁锢/反狙击、绝杀/特赦"),
    ("张环", "平民", "庶民、阿米巴、庶民、纵火/圣人、束魂"),
    ("李朗", "平民", "庶民、保镖、巫医、诅咒/庇佑、绝杀/特赦"),
    ("虎敬晖", "平民", "庶民、阿米巴、防弹衣/狼毒、禁锢/反狙击、纵火/圣人"),
]
# Night 1 as each player enters it on his page ("form" fields, or "text" as he would write the PM), and the PMs the
# 天神 pastes for the same player in the game played the old way, in the order the player sent them. Every player
# also sends his discard order (O1) from the page: first, except 曾泰, who sends it only after the 天神 has looked.
NIGHT = {
    "狄仁杰": ("form", {"use": "普通攻击", "card": "杀手", "target": "李朗", "manifesto": MANIFESTO}),
    "李元芳": ("text", "用狼人普通攻击狄如燕。杀人宣言:" + MANIFESTO),
    "曾泰": ("form", {"use": "立场", "side": "杀手", "mode": "共赢"}),
    "狄如燕": ("form", {"passes": True}),
    "张环": ("form", {"use": "束魂", "target": "虎敬晖"}),  # then 束魂 → 李朗, which he makes a change (T3)
    "李朗": ("text", "治疗李朗"),
    "虎敬晖": ("form", {"use": "防弹衣"}),
}
LATE_ORDER = "曾泰"
SECOND = ("张环", "李朗")  # a second 束魂 from the form, without the change box: the page offers the change first
HANDS = {n: h.split("、") for n, _, h in TABLE}
ORDER_PM = {n: "丢牌顺序:" + "、".join(h) for n, h in HANDS.items()}
NIGHT_PM = {
    "狄仁杰": [ORDER_PM["狄仁杰"], "用杀手普通攻击李朗。杀人宣言:" + MANIFESTO],
    "李元芳": [ORDER_PM["李元芳"], NIGHT["李元芳"][1]],
    "曾泰": ["立场:杀手,共赢", ORDER_PM["曾泰"]],
    "狄如燕": [ORDER_PM["狄如燕"], "今晚空过"],
    "张环": [ORDER_PM["张环"], "束魂虎敬晖", "束魂改为李朗"],
    "李朗": [ORDER_PM["李朗"], "治疗李朗"],
    "虎敬晖": [ORDER_PM["虎敬晖"], "防弹衣"],
}
VOTES = {"狄仁杰": "狄如燕", "李元芳": "李朗", "曾泰": "李元芳", "狄如燕": "李元芳", "张环": "李元芳"}
VOTES |= {"李朗": "李元芳", "虎敬晖": "李元芳"}
CHANGE = ("狄仁杰", "李元芳")  # D3: one change post


def _table_game(user=None) -> Game:
    """The table, dealt (not yet in discard order: every player sends his order on night 1, O1), 12-hour phases."""
    players = [{"name": n, "camp": c, "hand": h.split("、")} for n, c, h in TABLE]
    game = setup.table_create(name=NAME, players=players)
    game.hands_are_orders, game.phase_seconds = False, HOURS * 3600
    game.save(update_fields=["hands_are_orders", "phase_seconds"])
    if user is not None:
        game.gms.add(user)
    return game


def _phones(browser, live_server, game):
    tabs = {}
    for seat in game.seats.order_by("number"):
        context = browser.new_context(
            base_url=live_server.url,
            locale="zh-CN",
            viewport=PHONE,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
        )
        tab = context.new_page()
        tab.set_default_timeout(20_000)
        tabs[seat.player_name] = (tab, seat.token)
    return tabs


def _fits(tab) -> bool:
    # The phone's 390 px, not innerWidth: a mobile Chromium widens its layout viewport to a page too wide for it.
    return tab.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


WIDE = """() => [document.documentElement.scrollWidth, innerWidth, ...[...document.querySelectorAll('body *')]
    .filter(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth - 2)
    .map(e => e.tagName + '#' + e.id + '.' + e.className + ':' + e.scrollWidth + '/' + e.clientWidth).slice(0, 12)]"""


def _confirm(tab, expect: str) -> None:
    """The preview is shown (nothing stored yet); confirm it; the page says it was stored."""
    tab.wait_for_selector("#preview")
    assert expect in tab.inner_text("#preview-items"), tab.inner_text("#preview")
    assert _fits(tab), f"the preview scrolls sideways on a 390 px phone: {tab.evaluate(WIDE)}"
    tab.click("#confirm")
    tab.wait_for_selector(".flash li.success")


def _order(tab) -> None:
    """O1 from the page: the order form offers the hand as it stands (its last card a privilege); preview, confirm."""
    assert "丢牌顺序:还没有提交" in tab.inner_text("#missing")
    tab.click("#form-order button[name=preview]")
    _confirm(tab, "将被接受")
    assert "丢牌顺序:还没有提交" not in tab.inner_text("#missing")


def _night_act(tab, token: str, how: str, what, order: bool = True, screenshots: bool = False) -> None:
    tab.goto(f"/p/{token}/")
    tab.click("#act-link")
    tab.wait_for_selector("#missing")
    assert "今晚的行动:还没有提交" in tab.inner_text("#missing")
    assert _fits(tab), f"the action page scrolls sideways on a 390 px phone: {tab.evaluate(WIDE)}"
    if order:
        _order(tab)
    if how == "text":
        tab.fill("#id_t-text", what)
        tab.click("#form-text button[name=preview]")
    elif what.get("passes"):
        tab.check("#id_a-passes")
        tab.click("#form-form button[name=preview]")
    else:
        for field in ("use", "card", "target"):
            if what.get(field):
                tab.select_option(f"#id_a-{field}", what[field])
        if what.get("manifesto"):
            tab.fill("#id_a-manifesto", what["manifesto"])
        if what.get("side"):
            tab.click("#privilege summary")
            tab.select_option("#id_a-side", what["side"])
            tab.select_option("#id_a-mode", what["mode"])
        if screenshots:
            shot(tab, "self_entry_form")
        tab.click("#form-form button[name=preview]")
    tab.wait_for_selector("#preview")
    if screenshots:
        shot(tab, "self_entry_preview")
    _confirm(tab, "将被接受")
    if order:
        assert "本时段需要你交的都已经交了" in tab.inner_text("#missing")
    else:
        assert "丢牌顺序:还没有提交" in tab.inner_text("#missing")


def _second_use_becomes_a_change(tab, target: str) -> None:
    """T3, AP4: the same privilege again with another target, the change box (under 更多) left unticked. The preview
    says it is a second 束魂, charged again, and offers the change first; the player takes it: 0 AP."""
    tab.select_option("#id_a-use", "束魂")
    tab.select_option("#id_a-target", target)
    tab.click("#form-form button[name=preview]")
    tab.wait_for_selector("#repeat")
    said = tab.inner_text("#repeat")
    assert "这是你本时段第二次用“束魂”(第一次:束魂 → 虎敬晖,已扣 2 点),会再扣 2 点" in said, said
    # The change is offered beside; the primary (green) button is what the player wrote: a second use, said as such.
    assert tab.get_attribute("#confirm", "class") == "confirm" and tab.get_attribute("#as-change", "class") != "confirm"
    assert "第二次束魂 → 李朗" in tab.inner_text("#confirm")
    assert _fits(tab), f"the second-use warning scrolls sideways on a 390 px phone: {tab.evaluate(WIDE)}"
    tab.click("#as-change")
    tab.wait_for_selector("#preview")
    assert tab.locator("#repeat").count() == 0
    assert tab.inner_text("#preview-cost") == "0"
    _confirm(tab, "已更换对象")


def _vote(tab, token: str, target: str, change: bool = False) -> None:
    tab.goto(f"/p/{token}/act/")
    if not change:
        assert "今天的投票:还没有投" in tab.inner_text("#missing") and _fits(tab)
    tab.check("#id_v-post_1" if change else "#id_v-post_0")
    tab.select_option("#id_v-target", target)
    tab.click("#form-vote button[name=preview]")
    _confirm(tab, ("改票" if change else "投票") + " → " + target)


def _end(gm, game) -> None:
    """The 天神 ends the phase from the dashboard (T5), after its confirmation page."""
    gm.goto(f"/gm/{game.pk}/end/")
    gm.click("#confirm-end")
    gm.wait_for_selector(".flash li")


def _snapshots(game) -> list[str]:
    return list(game.phases.filter(status=Phase.Status.CLOSED).order_by("starts_at").values_list("snapshot", flat=True))


def _posts(game) -> list[tuple[str, str]]:
    return list(
        Announcement.objects.filter(game=game).order_by("id").values_list("kind", "text").exclude(kind="private")
    )


def _paste(game, name: str, text: str, at, vote_post: bool = False) -> None:
    seat = game.seats.get(player_name=name)
    intake.pm_confirm(game, intake.Pasted(seat=seat, text=text, forum_at=at, vote_post=vote_post))


def test_seven_phones_play_a_night_and_a_day_and_the_pm_game_gives_the_same_state(
    browser, live_server, django_user_model
):
    gm_context = browser.new_context(base_url=live_server.url, locale="zh-CN", viewport={"width": 1280, "height": 900})
    gm = gm_context.new_page()
    gm.set_default_timeout(20_000)
    gm.site = live_server.url
    user = login(gm, django_user_model)
    start = timezone.now() - timedelta(minutes=30)
    game = _table_game(user)
    game.self_entry = True
    game.save(update_fields=["self_entry"])
    setup.game_start(game=game, at=start)
    tabs = _phones(browser, live_server, game)

    # Night 1: every player from his own phone; the 天神 watches the reminders and the self-entered inputs.
    for i, (name, (how, what)) in enumerate(NIGHT.items()):
        tab, token = tabs[name]
        _night_act(tab, token, how, what, order=name != LATE_ORDER, screenshots=(name == "狄仁杰"))
        if name == SECOND[0]:
            _second_use_becomes_a_change(tab, SECOND[1])
        if i == 2:
            gm.goto(f"/gm/{game.pk}/")
            late = ["曾泰", "狄如燕", "张环", "李朗", "虎敬晖"]  # O1: 曾泰 acted, his order is still missing
            assert gm.inner_text("#not-acted") == "狄如燕、张环、李朗、虎敬晖"
            assert "还没有交丢牌顺序(O1):" + "、".join(late) in gm.inner_text("#orders-missing")
            assert "5 人还没有行动或还没交丢牌顺序" in gm.inner_text("#reminders summary")
            drafts = gm.eval_on_selector_all("textarea.reminder", "els => els.map(e => e.value)")
            assert [d.split(",")[0] for d in drafts] == late
            assert all(f"第1夜还剩 {HOURS - 1} 小时" in d and "/p/" in d and "丢牌顺序" in d for d in drafts)
            assert "今晚的行动" not in drafts[0] and all("今晚的行动" in d for d in drafts[1:])
            shot(gm, "self_entry_reminders")
            gm.goto(f"/gm/{game.pk}/end/")  # T5: the end-early page names them before anything ends
            assert "还没有交丢牌顺序的玩家:" + "、".join(late) in gm.inner_text("#orders-missing")
            assert "、".join(late) + " 的丢牌顺序将随机决定" in gm.inner_text("form label")
            assert game.phases.get(kind="night", number=1).status == Phase.Status.OPEN
    tab, token = tabs[LATE_ORDER]
    tab.goto(f"/p/{token}/act/")
    _order(tab)
    assert "本时段需要你交的都已经交了" in tab.inner_text("#missing")
    assert storage.game_replay(game).state.seat(SECOND[0]).ap == 2  # 4 AP − one 束魂: the change cost nothing
    gm.goto(f"/gm/{game.pk}/")
    assert "所有活着的玩家都已行动" in gm.inner_text("#not-acted") and gm.locator("#orders-missing").count() == 0
    entered = sum(len(texts) for texts in NIGHT_PM.values())
    assert gm.locator("#self-entries tr").count() == 1 + entered
    assert gm.locator("#inputs .self-entered").count() == entered
    night_inputs = [
        (r.forum_at, r.seq, r.seat.player_name) for r in Input.objects.filter(game=game).select_related("seat")
    ]
    assert SelfEntry.objects.filter(game=game).count() == entered and len(night_inputs) == entered

    # The same night played the old way, its day opened before the phones' votes below are sent (they are pasted
    # into it with the times they were sent): the 天神 pastes each PM with the time the player sent it, in the order
    # they were sent. Both nights then end one right after the other, so that their dawn posts name the same
    # deadline (an early end's next phase runs from the moment it ends: seconds apart, the minute could differ).
    pm_game = _table_game()
    setup.game_start(game=pm_game, at=start)
    texts = {name: list(pms) for name, pms in NIGHT_PM.items()}
    for at, _, name in sorted(night_inputs):
        _paste(pm_game, name, texts[name].pop(0), at)
    assert not any(texts.values())
    _end(gm, game)
    clock.phase_end_early(game=pm_game, force=True)

    # Day 1: the saved player sees why he cannot vote; the others vote, one changes his vote once (D3).
    state = storage.game_replay(game).state
    assert state.saved == frozenset({"李朗"}), state.saved  # N7: 张环's 束魂 caught 狄仁杰's attack on 李朗
    for name, target in VOTES.items():
        tab, token = tabs[name]
        if name in state.saved:
            tab.goto(f"/p/{token}/act/")
            assert "你昨夜被救:今天可以发言,但不能投票" in tab.inner_text("#no-vote")
            continue
        _vote(tab, token, target)
    tab, token = tabs[CHANGE[0]]
    _vote(tab, token, CHANGE[1], change=True)
    assert _fits(tab)
    tab.goto(f"/p/{token}/act/")
    assert tab.locator("#form-vote").count() == 1  # the page still offers the form; a second change is refused
    day_inputs = [
        (r.seat.player_name, r.payload, r.forum_at)
        for r in Input.objects.filter(game=game, kind="vote").select_related("seat").order_by("forum_at", "seq")
    ]

    # The same day played the old way: the 天神 pastes each vote post with the time the player sent it; both days end.
    numbers = dict(pm_game.seats.values_list("number", "player_name"))
    for name, payload, at in day_inputs:
        text = f"改票:投{numbers[payload['change']]}" if "change" in payload else f"投{numbers[payload['for']]}"
        _paste(pm_game, name, text, at, vote_post=True)
    _end(gm, game)
    clock.phase_end_early(game=pm_game, force=True)

    snapshots, pm_snapshots = _snapshots(game), _snapshots(pm_game)
    assert len(snapshots) == 2 and all(snapshots)
    assert snapshots == pm_snapshots
    posts, pm_posts = _posts(game), _posts(pm_game)
    assert [k for k, _ in posts] == ["dawn", "vote", "dusk", "vote"][: len(posts)] == [k for k, _ in pm_posts]
    assert [p for p in posts if p[0] != "vote"] == [p for p in pm_posts if p[0] != "vote"]
    # The vote thread says how this game is played: votes on the private pages here, posts in the thread there.
    vote, pm_vote = posts[1][1], pm_posts[1][1]
    assert "在自己的私人页面投票" in vote and "在本帖跟帖投票" not in vote and "不得编辑原投票帖" not in vote
    assert "在本帖跟帖投票" in pm_vote and "私人页面" not in pm_vote
    dawn, dusk = posts[0][1], posts[2][1]
    assert "李朗昨夜被救活了。他今天可以参加讨论,但不能投票。" in dawn
    assert "李元芳" in dusk and "处决" in dusk
    # Every set-up draft states the game's phase length, and points to the private page when players enter there.
    for g, own in ((game, True), (pm_game, False)):
        listed, dealt = setup.player_list_post(g), setup.deal_pm(g.seats.get(player_name="曾泰"), "https://x/p/t/")
        assert f"请在 {HOURS} 小时内在本帖跟帖签到" in listed and "24 小时" not in listed + dealt
        assert f"请在 {HOURS} 小时内:" in dealt
        assert ("在你的私人页面提交你的丢牌顺序" in dealt) is own and (
            "用短消息告诉天神你的丢牌顺序" in dealt
        ) is not own
