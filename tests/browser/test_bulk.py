"""In a real headless Chromium: a 天神 pastes a 30-post vote thread, the preview appears while pasting
(htmx, no page load), one click stores it; the tally equals entering the posts one by one. Also the dawn dry-run."""

import pytest
from django.template.loader import render_to_string
from django.utils import timezone

from moderator import rules
from moderator.models import Message, Phase
from moderator.parser.thread import split_posts
from moderator.rules.scenario import DEFAULT_MANIFESTO
from moderator.services import intake, storage
from moderator.services import preview as dryrun
from tests import entries
from tests.browser import console_kit
from tests.browser.test_gm_flow import shot
from tests.intake.conftest import TABLE, corpus, day_one, table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tally(game):
    return rules.end_phase(storage.game_replay(game).state)[1].tally


def login(page, django_user_model, game):
    game.gms.add(console_kit.login(page, django_user_model))


def test_a_gm_pastes_a_thirty_post_thread_and_confirms_it_in_one_step(page, django_user_model):
    game = table()
    day_one(game)
    login(page, django_user_model, game)
    page.goto(f"/gm/{game.pk}/bulk/")
    loads = []
    page.on("load", lambda: loads.append(1))
    page.fill("#id_paste", corpus("discuz_day1_30.txt"))  # an input event: htmx previews after 0.5 s
    page.wait_for_selector("#bulk-summary")
    assert loads == [], "the preview came with a page load"
    summary = page.inner_text("#bulk-summary")
    assert "31 条帖子,将保存 25 条,跳过 6 条" in summary
    assert "“吃瓜群众”不是本局的玩家" in page.inner_text("#bulk-preview")
    assert not Message.objects.exists()
    shot(page, "bulk_preview")
    page.click("#bulk-confirm")
    page.wait_for_selector(".flash .success")
    assert "批量录入完成:保存了 25 条消息" in page.inner_text(".flash")
    assert Message.objects.filter(game=game).count() == 25

    by_hand = table("逐条录入局")
    day_one(by_hand)
    seats = {s.player_name: s for s in by_hand.seats.all()}
    end = by_hand.phases.get(status=Phase.Status.OPEN).ends_at
    seen = set()
    for post in split_posts(corpus("discuz_day1_30.txt"), authors=list(TABLE)):
        at = timezone.make_aware(post.at)
        if post.author not in seats or at > end or (post.author, at, post.body) in seen:
            continue
        seen.add((post.author, at, post.body))
        intake.pm_confirm(
            by_hand,
            intake.Pasted(seat=seats[post.author], text=post.body, forum_at=at, vote_post=True, edited=post.edited),
        )
    assert tally(game) == tally(by_hand) and tally(game)["李朗"] > 0


def test_the_dawn_dry_run_reads_as_a_preview(page):
    game = table()
    night = game.phases.get(status=Phase.Status.OPEN)
    attack = {"card": "杀手", "use": "普通攻击", "target": "李元芳", "manifesto": DEFAULT_MANIFESTO}
    seat = game.seats.get(player_name="狄如燕")
    entries.action_submit(game=game, seat=seat, payload=attack, forum_at=night.starts_at + timezone.timedelta(hours=3))
    html = render_to_string("console/_dryrun.html", {"game": game, "dryrun": dryrun.close_preview(game)})
    page.set_content(render_to_string("base.html").replace("<main></main>", f"<main>{html}</main>"))
    assert "这只是预览" in page.inner_text(".dryrun-mark")
    assert "李元芳昨夜受到了攻击" in page.inner_text(".dryrun-post")
    shot(page, "dawn_dry_run")


def test_previews_while_typing_never_queue_up_the_latest_wins(page, django_user_model):
    """The live preview fires 0.5 s after typing stops; a preview still on its way when the 天神 types
    again is cancelled (hx-sync: one in flight, the latest wins), so previews never queue up and an old one never
    overwrites a newer one."""
    game = table()
    day_one(game)
    login(page, django_user_model, game)
    page.goto(f"/gm/{game.pk}/bulk/")
    held, failed = [], []
    page.route(f"**/gm/{game.pk}/bulk/", lambda route: held.append(route))  # the server "is slow": held here
    page.on("requestfailed", lambda request: failed.append(request))
    page.fill("#id_paste", corpus("discuz_day1_30.txt"))
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert len(held) == 1
    page.fill("#id_paste", corpus("discuz_day1.txt"))  # typed again while the first preview is on its way
    for _ in range(100):  # the second request and the first one's cancellation arrive as separate events
        if len(held) == 2 and failed:
            break
        page.wait_for_timeout(100)
    assert len(held) == 2 and [r.url for r in failed] == [held[0].request.url]  # the first was cancelled
    held[1].continue_()
    page.wait_for_selector("#bulk-summary")
    assert "31 条帖子" not in page.inner_text("#bulk-summary")  # the latest paste's preview, not the first


def test_a_phpwind_thread_of_the_seed_forum_in_bulk_reads_every_author_and_an_edited_post_counts_for_its_editor(
    page, django_user_model
):
    """D3: the seed forum's PHPWind page ("Posted: … | N 楼" under each post) is read in bulk —
    every row is the poster's own (never "Posted"), with its own time; 张环's post, shown edited, counts for 张环:
    the text after the edit is not the original vote, and the original cannot be known."""
    game = table()
    day_one(game)
    login(page, django_user_model, game)
    page.goto(f"/gm/{game.pk}/bulk/")
    page.fill("#id_paste", corpus("phpwind_posted_day1.txt"))
    page.wait_for_selector("#bulk-summary")
    shown = page.inner_text("#bulk-preview")
    assert "9 条帖子,将保存 8 条,跳过 1 条" in page.inner_text("#bulk-summary")  # the 天神's opening post
    authors = page.eval_on_selector_all("#bulk-preview input[name$=author]", "els => els.map(e => e.value)")
    assert authors == [
        "天神",
        "李元芳",
        "曾泰",
        "狄如燕",
        "张环",
        "虎敬晖",
        "李朗",
        "狄仁杰",
        "李元芳",
    ]  # never "Posted"
    assert "原投票帖被编辑过,原投票对象无法得知" in shown and "按投自己(→ 张环)计票" in shown
    page.click("#bulk-confirm")
    page.wait_for_selector(".flash .success")
    assert Message.objects.filter(game=game).count() == 8
    zhang = Message.objects.get(game=game, sender_name="张环")
    assert zhang.forum_at.astimezone().strftime("%H:%M") == "10:15" and zhang.text == "投票:李朗"
    assert [i.payload for i in zhang.inputs.all()] == [{"edited": True}]
    counted = tally(game)
    assert counted["张环"] >= 5 and counted["李朗"] == 5 + 5  # 张环 on itself; 李元芳's change and 虎敬晖 on 李朗
    page.goto(f"/gm/{game.pk}/votes/")
    assert "原投票帖被编辑过,原投票对象无法得知" in page.inner_text("main")
