"""The console in a real headless Chromium: what the 天神 entered is what counts — votes and edited posts, voids,
corrections, substitutions, the dry run and early ends."""

from __future__ import annotations

import pytest

from moderator.models import Announcement, Input, Phase
from moderator.services import setup, storage
from tests import entries
from tests.browser.console_kit import (
    MANIFESTO,
    action,
    end_phase,
    flash,
    login,
    seat,
    shot,
    table_game,
    vote,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _day(page, django_user_model):
    """Signed in, the four-seat table with day 1 open (night 1 ended quietly)."""
    user = login(page, django_user_model)
    game = table_game(user)
    end_phase(game)
    return game


def test_it_keeps_the_original_vote_when_the_post_was_edited_and_forfeits_the_change_d3(page, django_user_model):
    game = _day(page, django_user_model)
    page.goto(f"/gm/{game.pk}/votes/")
    form = page.inner_text("#vote-form")
    assert "失去改票权" in form and "最后一小时内不能改" in form  # D3's consequences on the form
    assert page.locator("input[name=post]").count() == 3  # one exclusive choice, not two boxes
    assert "已接受" in vote(page, game, "甲", "丁")
    # The 天神 sees that 甲 edited the original post to name 乙: the original stands, the change right is gone.
    assert "已接受" in vote(page, game, "甲", "乙", post="edited")
    assert "改票权作废" in page.inner_text(".flash")
    assert "已拒绝" in vote(page, game, "甲", "乙", post="change")
    assert "编辑了原投票帖" in page.inner_text(".flash")
    state = storage.game_replay(game).state
    assert state.votes["甲"].target == "丁" and "甲" in state.vote_changed
    tally = page.inner_text("#tally")
    assert "丁\t" in tally and "乙\t" not in tally.replace("乙\t5", "")  # 乙 has only their own 5


def test_an_edited_post_whose_original_is_unknown_counts_for_the_editor_d3(page, django_user_model):
    game = _day(page, django_user_model)
    assert "已接受" in vote(page, game, "乙", None, post="edited")
    assert storage.game_replay(game).state.votes["乙"].target == "乙"


def test_a_separate_second_vote_post_is_the_one_change_then_no_more_d3(page, django_user_model):
    """D3: "再想想,我投乙" as a separate later post is the change while a change is allowed; a third
    post is refused because the one change is used; the same target again is no change and keeps the right."""
    game = _day(page, django_user_model)
    assert "已接受" in vote(page, game, "甲", "丁")
    assert "已接受" in vote(page, game, "乙", "甲")
    assert "已拒绝" in vote(page, game, "乙", "甲")
    assert "和原投票相同,不算改票,改票权保留" in page.inner_text(".flash")
    assert "已接受" in vote(page, game, "甲", "乙")
    assert "另发的投票帖按改票处理" in page.inner_text(".flash")
    assert "已拒绝" in vote(page, game, "甲", "丙")
    assert "改票只能一次,你已经改过票了" in page.inner_text(".flash")
    state = storage.game_replay(game).state
    assert state.votes["甲"].target == "乙" and state.votes["甲"].changed and "甲" in state.vote_changed
    assert "乙" not in state.vote_changed  # 乙's repeat was no change


def test_a_void_shows_what_it_would_change_before_it_is_confirmed(page, django_user_model):
    game = _day(page, django_user_model)
    vote(page, game, "甲", "丁")
    assert "已接受" in vote(page, game, "甲", "乙")  # a separate second post: the one change (D3)
    assert "已拒绝" in vote(page, game, "甲", "丙")  # a third: the change is used
    first = Input.objects.filter(kind="vote").order_by("seq").first()
    page.goto(f"/gm/{game.pk}/")
    page.click(f"a[href='/gm/{game.pk}/void/{first.pk}/']")
    page.wait_for_selector("#void-diff")
    changes = page.inner_text("#verdict-changes")
    assert "投票 → 丙" in changes and "拒绝" in changes and "接受" in changes  # without 丁, 丙 is the change
    assert "丙" in page.inner_text("#close-changes")  # the dry-run tally moves too
    assert not hasattr(Input.objects.get(pk=first.pk), "void")  # nothing happened yet
    shot(page, "void")
    page.fill("input[name=reason]", "录错了人")
    page.click("#confirm-void")
    assert "已作废" in flash(page)
    assert hasattr(Input.objects.get(pk=first.pk), "void")


def test_a_correction_rewrites_only_what_changed_keeps_the_old_posts_and_drafts_a_notice(page, django_user_model):
    user = login(page, django_user_model)
    game = table_game(user)
    assert "已接受" in action(page, game, "甲", "普通攻击", "乙", manifesto=MANIFESTO)
    day1 = end_phase(game)
    setup.seat_substitute(seat=seat(game, "丙"), player_name="风清扬", at=day1.starts_at)  # S5 on day 1
    vote(page, game, "甲", "丁")
    end_phase(game)
    day1.refresh_from_db()
    announced = day1.announced_end
    attack = Input.objects.get(kind="action")
    page.goto(f"/gm/{game.pk}/correction/")
    page.check(f"input[name=void][value='{attack.pk}']")
    page.click("button[name=preview]")
    page.wait_for_selector("#diff")
    diff = page.inner_text("main").split("更正后的差异")[1].split("已结束时段的输入")[0]
    night_rows = page.inner_text(f"#diff-{game.phases.get(kind='night', number=1).pk}")
    assert "丢牌" in night_rows and "被救" not in night_rows  # only what the void changed
    assert "第1天" in diff  # 乙 keeps a card: the day's weights and verdicts really change
    assert page.locator("#diff").bounding_box()["y"] < page.locator("details.phase-inputs").first.bounding_box()["y"]
    shot(page, "correction")
    page.click("#confirm")
    assert "更正已生效" in flash(page)
    night1 = game.phases.get(kind="night", number=1)
    posts = list(night1.announcements.exclude(kind="private").order_by("id"))
    old = [a for a in posts if a.corrected_at]
    assert old and all(a.title.startswith("〔已更正〕") for a in old)
    new_vote_post = next(a for a in posts if a.kind == "vote" and not a.corrected_at)
    assert announced.astimezone().strftime("%Y-%m-%d %H:%M") in new_vote_post.text  # T5: the announced deadline
    notice = Announcement.objects.get(kind="notice", title__contains="更正公告")
    assert "第1夜" in notice.text and "丢牌" in notice.text
    page.goto(f"/gm/{game.pk}/announcements/")
    assert "已更正" in page.inner_text("main") and "更正公告" in page.inner_text("main")


def test_a_substitution_rotates_the_link_and_drafts_the_handover_and_a_new_vote_post(page, django_user_model):
    game = _day(page, django_user_model)
    old_link = f"/p/{seat(game, '乙').token}/"
    page.goto(old_link)
    assert "束魂" in page.inner_text("main")
    page.goto(f"/gm/{game.pk}/")
    page.select_option("#substitute select[name=seat]", str(seat(game, "乙").pk))
    page.fill("#substitute input[name=player_name]", "风清扬")
    page.click("#substitute button")
    page.wait_for_selector("#confirm-substitute")  # first what it would change; nothing is saved yet
    shown = page.inner_text("#substitution-preview")
    assert "风清扬 接替 乙" in shown and "延长到" in shown and "交接" in shown and "投票帖" in shown
    shot(page, "substitute_preview")
    assert page.goto(old_link).status == 200
    page.go_back()
    page.click("#confirm-substitute")
    assert "旧的私人链接已失效" in flash(page)
    assert page.goto(old_link).status == 404
    substitute = seat(game, "风清扬")
    page.goto(f"/p/{substitute.token}/")
    assert "束魂" in page.inner_text("main")
    handover = Announcement.objects.get(kind="private", recipient="风清扬")
    assert "庶民、束魂" in handover.text and "行动点数" in handover.text and f"/p/{substitute.token}/" in handover.text
    notice = Announcement.objects.get(kind="notice")
    assert "风清扬" in notice.text and "乙" in notice.text and "12 小时" in notice.text
    day = game.phases.get(status=Phase.Status.OPEN)
    vote_post = Announcement.objects.filter(kind="vote", corrected_at__isnull=True).latest("id")
    assert "风清扬" in vote_post.text and day.ends_at.astimezone().strftime("%Y-%m-%d %H:%M") in vote_post.text
    assert Announcement.objects.filter(kind="vote", title__startswith="〔已更正〕").exists()


def test_before_the_orders_exist_the_dashboard_shows_no_order_and_no_bottom_card_o1(page, django_user_model):
    user = login(page, django_user_model)
    game = setup.game_create(name="未定顺序局", player_names=list("甲乙丙丁戊己庚"), gm=user, camp_seed=1, deal_seed=1)
    from datetime import timedelta

    from django.utils import timezone

    setup.game_start(game=game, at=timezone.now() - timedelta(minutes=10))
    page.goto(f"/gm/{game.pk}/")
    hands = page.inner_text("#seats")
    assert hands.count("尚未决定") == 7 and "〔底牌〕" not in hands


def test_the_dry_run_names_the_card_each_executed_player_would_lose_d6(page, django_user_model):
    game = _day(page, django_user_model)
    for voter in ("甲", "乙", "丙"):
        vote(page, game, voter, "丁")
    page.goto(f"/gm/{game.pk}/")
    executions = page.inner_text("#executions")
    assert "丁" in executions and "庶民" in executions  # 丁's order starts with 庶民 (D6: the first card)


def test_ending_a_phase_early_asks_first_and_names_who_has_not_acted_t5(page, django_user_model):
    user = login(page, django_user_model)
    game = table_game(user)
    action(page, game, "乙", None)  # 乙 passes: T5 waits for them no longer
    page.goto(f"/gm/{game.pk}/")
    assert "空过" in page.inner_text("#inputs") and "乙" not in page.inner_text("#not-acted")
    page.click("#end-phase")
    page.wait_for_selector("#confirm-end")
    assert page.inner_text("#waiting") == "还没有行动的玩家:甲、丙、丁。"
    assert game.phases.get(kind="night", number=1).status == Phase.Status.OPEN  # nothing ended on the first click
    shot(page, "end_confirm")
    page.check("input[name=force]")
    page.click("#confirm-end")
    assert "第1夜已提前结束并结算" in flash(page)
    page.goto(f"/gm/{game.pk}/audit/")
    audit = page.inner_text("#audit")
    assert "第1夜提前结束" in audit and "甲、丙、丁" in audit
    assert "phase_end_early" not in audit and "{" not in audit


def test_the_end_early_page_shows_the_post_it_will_draft_and_a_stale_page_ends_nothing_t5(page, django_user_model):
    """An early end shows what it will change before it is saved: the dawn post as the close will draft it. If an
    input is entered after the page was shown (another tab, another 天神), its confirm ends nothing and says why."""
    user = login(page, django_user_model)
    game = table_game(user)
    page.goto(f"/gm/{game.pk}/end/")
    page.wait_for_selector("#confirm-end")
    assert "第1夜结束,天亮了" in page.inner_text("#dryrun") and "昨夜平安无事" in page.inner_text("#dryrun")
    entries.action_submit(  # meanwhile 甲 attacks 乙, entered elsewhere: the close would now differ
        game=game,
        seat=seat(game, "甲"),
        payload={"card": "杀手", "use": "普通攻击", "target": "乙", "manifesto": MANIFESTO},
        forum_at=game.phases.get().starts_at,
    )
    page.check("input[name=force]")
    page.click("#confirm-end")
    assert "和确认页上显示的不同" in flash(page)
    assert game.phases.get(kind="night", number=1).status == Phase.Status.OPEN
    page.goto(f"/gm/{game.pk}/end/")
    shown = page.inner_text("#dryrun .dryrun-post")
    assert "乙昨夜受到了攻击" in shown
    page.check("input[name=force]")
    page.click("#confirm-end")
    assert "第1夜已提前结束并结算" in flash(page)
    dawn = Announcement.objects.get(game=game, kind=Announcement.Kind.DAWN)
    deadline = "现在是第1天"  # the next phase's deadline: minutes apart if the click crossed a minute
    assert dawn.text.split(deadline)[0].strip() == shown.split(deadline)[0].strip()


def test_rotating_a_private_link_asks_first_and_a_no_changes_nothing(page, django_user_model):
    """A player's link is replaced only after the 天神 says yes: the question comes from the site's own script (the
    CSP allows no inline handler), and a "no" keeps the link."""
    user = login(page, django_user_model)
    game = table_game(user)
    first = game.seats.order_by("number").first()
    before = first.token
    page.goto(f"/gm/{game.pk}/")
    page.once("dialog", lambda d: d.dismiss())
    page.locator("button.rotate").first.click()
    page.wait_for_timeout(300)
    first.refresh_from_db()
    assert first.token == before
    page.once("dialog", lambda d: d.accept())
    page.locator("button.rotate").first.click()
    page.wait_for_load_state()
    first.refresh_from_db()
    assert first.token != before
