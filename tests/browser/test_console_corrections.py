"""In a real headless Chromium, on the correction page a 天神 uses: a correction shows everything it changes —
the game's end, every verdict, tally and draft of every phase, the open one included — and re-drafts only the
drafts whose text changed. What the page showed is what is stored. Also the console's other forms a correction
meets: extensions and pauses, the vote form, imports, early ends and forum times."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.models import Announcement, Game, Input, Phase
from moderator.services import clock, setup, storage
from tests import entries
from tests.browser.console_kit import MANIFESTO, end_phase, flash, local, login, seat, table_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# V1's table (tests/scenarios/c_V1_civilians_win_night_death.yaml): 乙's two shots end the game at night 1.
LAST = [
    {"name": "甲", "camp": "杀手", "hand": ["杀手"]},
    {"name": "乙", "camp": "平民", "hand": ["庶民", "狙击手"]},
    {"name": "丙", "camp": "狼人", "hand": ["狼人"]},
    {"name": "丁", "camp": "平民", "hand": ["庶民", "束魂"]},
]


def _game(user, players, name="更正测试局") -> Game:
    game = setup.table_create(name=name, players=players)
    game.gms.add(user)
    setup.game_start(game=game, at=timezone.now() - timedelta(minutes=30))
    return game


def _act(game, who: str, **payload) -> Input:
    phase = game.phases.get(status=Phase.Status.OPEN)
    rec, _ = entries.action_submit(game=game, seat=seat(game, who), payload=payload, forum_at=phase.starts_at)
    return rec


def _preview(page, game, void: Input) -> str:
    page.goto(f"/gm/{game.pk}/correction/")
    page.check(f"input[name=void][value='{void.pk}']")
    page.click("button[name=preview]")
    page.wait_for_selector("#diff")
    return page.inner_text("#diff")


def test_a_correction_of_the_last_phase_that_changes_the_winner_says_so_and_reopens_the_game(page, django_user_model):
    """V1, T1: the civilians won at night 1; voiding the shot that killed 丙 brings the werewolf back, so
    nobody has won: the preview says so, and the confirm re-opens the game at day 1, a whole phase long, clocked."""
    user = login(page, django_user_model)
    game = _game(user, LAST)
    _act(game, "乙", card="狙击手", use="普通狙击", target="甲", manifesto=MANIFESTO)
    shot_bing = _act(game, "乙", card="狙击手", use="普通狙击", target="丙", manifesto=MANIFESTO)
    clock.phase_end_early(game=game, force=True)
    game.refresh_from_db()
    assert (game.status, game.winner) == (Game.Status.FINISHED, "平民")
    page.goto(f"/games/{game.pk}/")
    assert "胜方:平民" in page.inner_text("main")
    assert "身份不公开" not in page.inner_text("main") and "杀手" in page.inner_text("#final")  # Low: all revealed

    shown = _preview(page, game, shot_bing)
    change = page.inner_text("#game-change")
    assert "胜方:平民 → 无" in change and "重新开始:第1天从现在开始" in change
    assert "作废:第1夜 乙" in page.inner_text("#edits")
    assert "丙" in shown.split("第1夜")[1] and "死亡" in shown  # 丙 no longer dies
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.phases.filter(status="open").exists()  # nothing yet

    page.click("#confirm")
    assert "重新开始:第1天" in flash(page)
    game.refresh_from_db()
    assert (game.status, game.winner) == (Game.Status.RUNNING, "")
    day = game.phases.get(status=Phase.Status.OPEN)
    assert (day.kind, day.number) == ("day", 1)
    assert timedelta(hours=23) < day.ends_at - timezone.now() <= timedelta(hours=24)  # the clock runs again
    assert day.pk in clock.phases_ending_within(timedelta(hours=25)).values_list("pk", flat=True)
    summary = Announcement.objects.get(title__contains="游戏结束")
    assert summary.corrected_at is not None and summary.title.startswith("〔已更正〕")
    vote_post = Announcement.objects.get(kind="vote", corrected_at__isnull=True)
    assert "第1天" in vote_post.title and timezone.localtime(day.ends_at).strftime("%Y-%m-%d %H:%M") in vote_post.text
    notice = Announcement.objects.get(title__contains="更正公告")
    assert "胜方" in notice.text and "游戏继续" in notice.text
    page.goto(f"/games/{game.pk}/")
    assert "胜方" not in page.inner_text("main") and "第1天" in page.inner_text("main")
    page.goto(f"/gm/{game.pk}/")
    assert "第1天" in page.inner_text("main")


# Five seats with one-card players: a night-1 attack on 丁 kills them, so their day-1 vote no longer counts.
OPEN = [
    {"name": "甲", "camp": "杀手", "hand": ["庶民", "杀手"]},
    {"name": "乙", "camp": "平民", "hand": ["庶民", "狙击手"]},
    {"name": "丙", "camp": "狼人", "hand": ["庶民", "狼人"]},
    {"name": "丁", "camp": "平民", "hand": ["庶民"]},
    {"name": "戊", "camp": "平民", "hand": ["庶民", "束魂"]},
]


def test_a_correction_lists_what_it_changes_in_the_open_phase_t3_t5(page, django_user_model):
    """On day 1, adding a missed night-1 attack on 丁 kills 丁 at night 1: 丁's accepted day-1 vote becomes
    refused and the day's tally moves. The preview lists that under 第1天(进行中), and the confirm stores it."""
    user = login(page, django_user_model)
    game = _game(user, OPEN, name="进行中更正局")
    night1 = game.phases.get()
    day1 = end_phase(game)
    ding, _ = entries.vote_submit(
        game=game, seat=seat(game, "丁"), target=seat(game, "丙"), change=False, forum_at=day1.starts_at
    )
    assert ding.verdict.accepted
    page.goto(f"/gm/{game.pk}/correction/")
    page.select_option("select[name=add-phase]", str(night1.pk))
    page.select_option("#id_add-seat", str(seat(game, "甲").pk))
    page.fill("#id_add-forum_at", local(night1.starts_at + timedelta(minutes=5)))
    page.select_option("#id_add-use", "普通攻击")
    page.select_option("#id_add-target", "丁")
    page.fill("#id_add-manifesto", MANIFESTO)
    page.click("button[name=preview]")
    page.wait_for_selector("#diff")
    day = page.inner_text(f"#diff-{day1.pk}")
    assert "第1天(进行中)" in day and "若现在结束" in day
    assert "丁 投票 → 丙:接受 → 拒绝" in day  # the open phase's verdict the night changes
    assert "计票" in day and "丁的票权" in day  # and its tally
    assert "死亡" in page.inner_text(f"#diff-{night1.pk}")
    ding.verdict.refresh_from_db()
    assert ding.verdict.accepted  # nothing stored yet
    page.click("#confirm")
    assert "更正已生效" in flash(page)
    ding.verdict.refresh_from_db()
    assert not ding.verdict.accepted  # what the preview said is what is stored
    page.goto(f"/gm/{game.pk}/votes/")
    assert "丙\t2" in page.inner_text("#tally")  # 丙's own two cards (D1), 丁's vote no longer counted


def test_a_correction_redrafts_only_the_drafts_whose_text_changed(page, django_user_model):
    """Voiding a night-1 attack changes the dawn, not the day's vote post: the vote post stands (posted,
    it is not marked 〔已更正〕 on the public page) and only the dawn is re-drafted."""
    user = login(page, django_user_model)
    game = table_game(user)
    attack = _act(game, "甲", card="杀手", use="普通攻击", target="乙", manifesto=MANIFESTO)
    end_phase(game)
    vote_post = Announcement.objects.get(kind="vote")
    Announcement.objects.filter(pk=vote_post.pk).update(posted_at=timezone.now())
    _preview(page, game, attack)
    night = page.inner_text(f"#diff-{game.phases.get(kind='night').pk}")
    assert "公告草稿:【控制台测试局】第1夜结束,天亮了(改写)" in night and "投票帖" not in night
    page.click("#confirm")
    assert "更正已生效" in flash(page)
    vote_post.refresh_from_db()
    assert vote_post.corrected_at is None and not vote_post.title.startswith("〔已更正〕")
    assert Announcement.objects.filter(kind="vote").count() == 1
    assert Announcement.objects.filter(kind="dawn", corrected_at__isnull=False).count() == 1
    page.goto(f"/games/{game.pk}/")
    assert "已更正" not in page.inner_text("main")


def test_after_night_1_an_undecided_self_chosen_player_reads_independent_s4(page, django_user_model):
    """S4 ruling: no stance by the end of night 1 is 独立 — on the player's page and on the console; during
    night 1 the player still reads that the choice is open."""
    user = login(page, django_user_model)
    players = [
        {"name": "甲", "camp": "杀手", "hand": ["庶民", "杀手"]},
        {"name": "乙", "camp": "平民", "hand": ["庶民", "狙击手"]},
        {"name": "丙", "camp": "狼人", "hand": ["庶民", "狼人"]},
        {"name": "丁", "camp": "自选", "hand": ["庶民", "束魂"]},
    ]
    game = _game(user, players, name="自选局")
    page.goto(f"/p/{seat(game, '丁').token}/")
    assert "第1夜结束前不选即为独立" in page.inner_text("main")
    end_phase(game)
    page.goto(f"/p/{seat(game, '丁').token}/")
    main = page.inner_text("main")
    assert "你是独立的" in main and "还没有选择立场" not in main
    page.goto(f"/gm/{game.pk}/")
    row = page.locator("#seats tr", has_text="丁").inner_text()
    assert "独立" in row and "自选" in row and "第1夜未选立场" in row


def test_an_extension_a_pause_and_a_resume_draft_a_notice_with_the_new_deadline_t4(page, django_user_model):
    """The posted vote thread states the old deadline; an extension drafts a public notice with the new
    one, a pause one with the time left, a resume one with the new deadline."""
    user = login(page, django_user_model)
    game = table_game(user)
    day = end_phase(game)
    page.goto(f"/gm/{game.pk}/")
    page.fill("input[name=hours]", "6")
    page.click("text=延长(T4)")
    assert "延长公告" in flash(page)
    day.refresh_from_db()
    notice = Announcement.objects.get(kind="notice", title__contains="延长")
    assert notice.title == "【控制台测试局】第1天延长"
    new = timezone.localtime(day.ends_at).strftime("%Y-%m-%d %H:%M")
    assert (
        f"第1天延长 6 小时,新的截止时间:{new}(北京时间)" in notice.text and "投票帖上原来的截止时间作废" in notice.text
    )
    page.goto(f"/gm/{game.pk}/")
    page.click("text=暂停")
    assert "暂停公告" in flash(page)
    paused = Announcement.objects.get(kind="notice", title__contains="暂停")
    assert "计时停止,还剩 29 小时" in paused.text
    page.goto(f"/gm/{game.pk}/")
    page.click("button:text-is('继续')")
    assert "继续公告" in flash(page)
    day.refresh_from_db()
    resumed = Announcement.objects.get(kind="notice", title__contains="继续")
    assert timezone.localtime(day.ends_at).strftime("%Y-%m-%d %H:%M") in resumed.text
    page.goto(f"/gm/{game.pk}/announcements/")
    shown = page.inner_text("main")
    assert "第1天延长" in shown and "游戏暂停" in shown and "游戏继续" in shown


def test_the_vote_form_stores_and_shows_what_an_edited_post_counts_d3(page, django_user_model):
    """D3: "原投票帖被编辑过" with the original target unknown stores no target and says what it counts —
    the voter themself if no original was entered, the original vote if one was; never "投票 → X" beside a tally
    that counts another vote."""
    from tests.browser.console_kit import vote

    user = login(page, django_user_model)
    game = table_game(user)
    end_phase(game)
    said = vote(page, game, "甲", None, post="edited")
    assert "原投票帖被编辑过,原投票对象无法得知" in said and "按投自己(→ 甲)计票" in said
    assert Input.objects.get(seat=seat(game, "甲")).payload == {"edited": True}
    assert "已接受" in vote(page, game, "乙", "丁")
    said = vote(page, game, "乙", None, post="edited")
    assert "按原投票(→ 丁)计票" in said and "投票 → 乙" not in said
    page.goto(f"/gm/{game.pk}/votes/")
    assert "丁\t10" in page.inner_text("#tally")  # 乙's original vote (5) and 丁's own (5)
    assert "投票 → 乙" not in page.inner_text("main")
    assert "你编辑了原投票帖" in vote(page, game, "甲", "丙", post="change")  # the change right is gone


def test_the_votes_page_says_who_must_vote_again_and_why_and_drafts_the_request_d3(page, django_user_model):
    """D3: a conditional vote and a vote naming two players are invalid: the votes page names both voters
    and why (not just 未投票), and one click drafts the public request; a voter who has voted since is off the list."""
    from moderator.services import intake

    user = login(page, django_user_model)
    game = table_game(user)
    day = end_phase(game)
    at = day.starts_at + timedelta(minutes=5)
    for who, text in (("甲", "如果乙不投丙我就投乙"), ("乙", "投 丙 丁"), ("丙", "投 丁或者甲")):
        intake.pm_confirm(game, intake.Pasted(seat=seat(game, who), text=text, forum_at=at, vote_post=True))
    intake.pm_confirm(
        game, intake.Pasted(seat=seat(game, "丙"), text="投 丁", forum_at=at + timedelta(minutes=1), vote_post=True)
    )
    page.goto(f"/gm/{game.pk}/votes/")
    listed = page.inner_text("#revotes")
    assert "甲" in listed and "投票不能附条件" in listed and "乙" in listed and "只能明确投一个人" in listed
    who = [li.split("(")[0] for li in page.locator("#revotes li").all_inner_texts()]
    assert who == ["甲", "乙"]  # 丙 has voted again since
    ballots = page.inner_text("#ballots")
    assert "须重新投票" in ballots
    page.click("#draft-revote")
    assert "请重新投票" in flash(page)
    draft = Announcement.objects.get(kind="notice", title__contains="请重新投票")
    lines = [line.split(":")[0] for line in draft.text.splitlines() if "——" in line]
    assert lines == ["甲", "乙"] and "投票不能附条件" in draft.text
    assert timezone.localtime(day.ends_at).strftime("%Y-%m-%d %H:%M") in draft.text


def test_an_import_is_named_as_a_copy_waits_paused_and_stays_off_the_home_page_until_started(page, django_user_model):
    """Importing a running game's export next to the game itself makes no second live game of the same
    name on the home page: the copy is named 原名(副本), its clock waits (paused) and the home page lists it only
    once the 天神 starts it (继续)."""
    user = login(page, django_user_model)
    game = table_game(user)
    with page.expect_download() as download:
        page.evaluate(f"window.location = '{page.site}/gm/{game.pk}/export/'")
    page.goto("/games/import/")
    page.set_input_files("#id_file", download.value.path())
    page.click("button[type=submit]")
    said = flash(page)
    assert "已有同名游戏“控制台测试局”,导入的这局命名为“控制台测试局(副本)”" in said and "已暂停" in said
    copy = Game.objects.get(name="控制台测试局(副本)")
    assert copy.status == Game.Status.PAUSED and Game.objects.filter(name="控制台测试局").count() == 1
    assert not clock.due_phases(timezone.now() + timedelta(days=2)).filter(game=copy).exists()  # no clock yet
    page.goto("/")
    assert page.locator("main", has_text="控制台测试局").count() == 1 and "副本" not in page.inner_text("main")
    page.goto(f"/gm/{copy.pk}/")
    page.click("button:text-is('继续')")
    assert "游戏已继续" in flash(page)
    page.goto("/")
    assert "控制台测试局(副本)" in page.inner_text("main")


def test_an_early_end_reads_once_in_the_audit_and_bulk_rows_say_each_thing_once(page, django_user_model):
    """After an early end the audit does not also say the system closed the phase on time; a bulk row says
    "投票 → X" once (not "投票 投票 → X"), a skip reason ends with one 。."""
    user = login(page, django_user_model)
    game = table_game(user)
    page.goto(f"/gm/{game.pk}/end/")
    page.check("input[name=force]")
    page.click("#confirm-end")
    assert "第1夜已提前结束并结算" in flash(page)
    page.goto(f"/gm/{game.pk}/audit/")
    audit = page.inner_text("#audit")
    assert "第1夜提前结束" in audit and "按时结束" not in audit
    page.goto(f"/gm/{game.pk}/bulk/")
    at = timezone.localtime(game.phases.get(status="open").starts_at + timedelta(minutes=5)).strftime("%Y-%m-%d %H:%M")
    page.fill("#id_paste", f"=== 甲 {at}\n投 乙\n=== 路人 {at}\n投 甲\n")
    page.wait_for_selector("#bulk-summary")
    assert "投票 → 乙" in page.inner_text("#bulk-row-1") and "投票 投票" not in page.inner_text("#bulk-row-1")
    page.click("#bulk-confirm")
    said = flash(page)
    assert "跳过。" in said and "。。" not in said and "跳过;" not in said


def test_a_form_error_is_said_once_on_the_new_game_page(page, django_user_model):
    """The new-game page (and every console form) showed each error twice (the form's own list and again)."""
    login(page, django_user_model)
    page.goto("/games/new/")
    page.fill("#id_name", "三人局")
    page.fill("#id_players", "甲\n乙\n丙")
    page.fill("#id_camps", "平民,平民,平民")  # S1 refused by the service: an error of the whole form
    page.click("button[type=submit]")
    page.wait_for_selector(".errorlist")
    text = page.inner_text("main")
    errors = page.locator(".errorlist li").all_inner_texts()
    assert errors and all(text.count(e) == 1 for e in errors), errors


def test_a_forum_time_in_the_future_is_warned_about_not_silently_taken(page, django_user_model):
    """A PM whose forum time lies hours ahead (a typo in the date) is previewed with a warning; it can still be
    saved (the 天神 decides)."""
    user = login(page, django_user_model)
    game = table_game(user)
    page.goto(f"/gm/{game.pk}/pm/")
    page.select_option("#id_seat", str(seat(game, "乙").pk))
    page.fill("#id_forum_at", local(timezone.now() + timedelta(hours=3)))
    page.fill("#id_text", "束魂乙")
    page.click("button[name=preview]")
    page.wait_for_selector("#preview")
    assert "比现在晚 2 小时" in page.inner_text("#future") or "比现在晚 3 小时" in page.inner_text("#future")
    page.goto(f"/gm/{game.pk}/pm/")
    page.select_option("#id_seat", str(seat(game, "乙").pk))
    page.fill("#id_forum_at", local(timezone.now()))
    page.fill("#id_text", "束魂乙")
    page.click("button[name=preview]")
    page.wait_for_selector("#preview")
    assert page.locator("#future").count() == 0


def test_t5_does_not_wait_for_a_player_whose_only_card_is_pending_execution(page, django_user_model):
    """T5, N12: executed of their last card on day 1, 丁 holds nothing tonight (the card may still be
    pardoned): the dashboard does not list 丁 among those who have not acted."""
    from moderator.rules import views

    user = login(page, django_user_model)
    game = _game(user, OPEN, name="待处决局")
    day = end_phase(game)
    for voter in ("甲", "乙", "丙", "戊"):
        entries.vote_submit(
            game=game, seat=seat(game, voter), target=seat(game, "丁"), change=False, forum_at=day.starts_at
        )
    end_phase(game)
    state = storage.game_replay(game).state
    ding = state.seat("丁")
    assert ding.alive and not ding.hand and "丁" in state.pending_executions  # the case itself
    assert "丁" not in views.not_acted(state)
    page.goto(f"/gm/{game.pk}/")
    waiting = page.inner_text("#not-acted")
    assert "丁" not in waiting and "甲" in waiting


def test_a_preview_of_a_long_unbroken_pm_stays_within_the_window(page, django_user_model):
    """A PM with a long line without breaks made the preview 7,000 px wide at 1,280: it wraps now."""
    user = login(page, django_user_model)
    game = table_game(user)
    page.goto(f"/gm/{game.pk}/pm/")
    page.select_option("#id_seat", str(seat(game, "甲").pk))
    page.fill("#id_forum_at", local(timezone.now()))
    page.fill("#id_text", "杀乙。" + "很长的一行没有换行" * 60)
    page.click("button[name=preview]")
    page.wait_for_selector("#preview")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280


def test_the_dashboard_and_the_end_early_page_say_which_close_their_post_is_for(page, django_user_model):
    """T5: the dashboard's dry run is the close at the deadline (the next deadline a phase after it), the
    end-early page's the close now; each says which, and each post names the deadline that close would give."""
    user = login(page, django_user_model)
    game = table_game(user)
    night = game.phases.get()
    page.goto(f"/gm/{game.pk}/")
    shown = page.inner_text("#dryrun")
    assert "第1夜按时结束" in shown
    assert timezone.localtime(night.ends_at + timedelta(days=1)).strftime("%Y-%m-%d %H:%M") in shown
    page.goto(f"/gm/{game.pk}/end/")
    assert "如果第1夜现在提前结束" in page.inner_text("#dryrun")
