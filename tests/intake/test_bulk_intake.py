"""A whole vote thread or a batch of PMs in one paste — one preview, inline fixes, one confirm."""

from datetime import timedelta

import pytest
from django.utils import timezone

from bench.forms import check, form_data, swap
from moderator import rules
from moderator.models import AuditLog, Input, Message, UsedToken
from moderator.parser.thread import split_posts
from moderator.services import bulk, errors, intake, storage
from moderator.services.once import Once, form_nonce, open_phase_id
from tests.intake.conftest import AUTHORS, corpus, day_one, table

pytestmark = pytest.mark.django_db


def tally(game) -> dict:
    return rules.end_phase(storage.game_replay(game).state)[1].tally


def posts(name):
    return split_posts(corpus(name), authors=AUTHORS)


def test_the_preview_says_what_each_post_would_do_and_stores_nothing(day):
    preview = bulk.bulk_preview(game=day, posts=posts("discuz_day1.txt"), vote_post=True)
    said = {(r.post.author, r.post.at.strftime("%H:%M")): [a["sentence"] for a in r.actions] for r in preview.rows}
    assert said[("李元芳", "09:30")] == ["投票 → 曾泰"]
    assert said[("曾泰", "09:41")] == ["投票 → 李元芳"]  # the quoted "投 曾泰" is 李元芳's, not his
    assert said[("张环", "10:15")] == [
        "原投票帖被编辑过,原投票对象无法得知(D3)"
    ]  # D3: the edited text is not the original
    assert said[("李元芳", "12:30")] == ["改票 → 李朗"]
    assert said[("狄如燕", "10:02")] == []
    assert not Message.objects.exists() and not Input.objects.exists()


def test_unknown_authors_times_outside_the_phase_and_duplicates_are_shown_and_skipped(day):
    preview = bulk.bulk_preview(game=day, posts=posts("discuz_day1_30.txt"), vote_post=True)
    skipped = {(r.post.author, r.post.at.strftime("%d %H:%M")): r.skip for r in preview.skipped}
    assert "不是本局的玩家" in skipped[("吃瓜群众", "05 09:40")]
    assert "晚于第1天结束" in skipped[("张环", "06 09:20")]
    assert "出现了两次" in skipped[("李元芳", "05 12:33")]
    assert "不是本局的玩家" in skipped[("天神", "05 09:02")]
    assert len(preview.kept) == 31 - 1 - 3 - 1 - 1


def test_confirming_stores_each_post_once_as_its_own_message_with_one_token(day, gm):
    once = Once(form_nonce(), open_phase_id(day))
    result = bulk.bulk_confirm(game=day, posts=posts("discuz_day1_30.txt"), vote_post=True, user=gm, once=once)
    assert Message.objects.filter(game=day).count() == len(result.stored) == 25
    assert UsedToken.objects.filter(token=once.token, action="批量录入").count() == 1
    assert AuditLog.objects.filter(action="批量录入").count() == 1
    assert Message.objects.get(sender_name="曾泰", text__contains="凭什么").text.startswith("[quote]李元芳 发表于")
    with pytest.raises(errors.PlayError, match="已经提交过了"):
        bulk.bulk_confirm(game=day, posts=posts("discuz_day1_30.txt"), vote_post=True, user=gm, once=once)
    again = bulk.bulk_confirm(game=day, posts=posts("discuz_day1_30.txt"), vote_post=True, user=gm)
    assert again.stored == [] and sum("已经录入过了" in r.skip for r in again.skipped) == 26  # 25 and the copy
    assert Message.objects.filter(game=day).count() == 25


def test_the_tally_equals_entering_the_posts_one_by_one_D4(day):
    bulk.bulk_confirm(game=day, posts=posts("discuz_day1_30.txt"), vote_post=True)
    by_hand = table("逐条录入局")
    day_one(by_hand)
    seats = {s.player_name: s for s in by_hand.seats.all()}
    seen = set()
    for post in posts("discuz_day1_30.txt"):
        key = (post.author, post.at, post.body)
        if post.author not in seats or (post.at.day == 6 and post.at.hour >= 9) or key in seen:
            continue
        seen.add(key)
        at = timezone.make_aware(post.at)
        intake.pm_confirm(
            by_hand,
            intake.Pasted(seat=seats[post.author], text=post.body, forum_at=at, vote_post=True, edited=post.edited),
        )
    assert tally(day) == tally(by_hand)
    assert tally(day)["李朗"] > 0


def test_a_batch_of_night_pms_is_read_with_each_senders_hand(night):
    preview = bulk.bulk_preview(game=night, posts=split_posts(corpus("inbox.html"), authors=AUTHORS), vote_post=False)
    said = [(r.post.author, [(a["label"], a["sentence"], a["accepted"]) for a in r.actions]) for r in preview.rows]
    assert said[0] == ("李元芳", [("特权", "束魂 → 狄仁杰", True)])
    assert said[1][1][0][:2] == ("特权", "巫医 → 狄如燕") or said[1][1][0][1].startswith("治疗")
    assert said[2] == ("张环", [("", "空过(本时段不行动)", True)])  # no "空过 空过": the sentence says it


def test_the_page_splits_previews_lets_the_gm_fix_a_row_and_confirms_once(gm_client, gm, day):
    day.gms.add(gm)
    url = f"/gm/{day.pk}/bulk/"
    page = gm_client.get(url).content.decode()
    paste = corpus("phpwind_day1.txt").replace("阿飞", "李朗").replace("小明", "曾泰").replace("老王", "张环")
    data = form_data(page, "bulk")
    data.update(paste=[paste], split=["1"])
    page = gm_client.post(url, data).content.decode()  # without htmx: the whole page, the preview in it
    assert "将保存 3 条,跳过 1 条" in page and "“路人甲”不是本局的玩家" in page
    data = form_data(page, "bulk")
    assert data["paste"] == [paste.replace("\r\n", "\n")]  # the textarea gives back what was pasted
    data.update({"refresh": ["1"], "row-3-author": ["虎敬晖"]})  # the 天神's fix; htmx posts the whole form
    fixed = gm_client.post(url, data, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fixed and "将保存 4 条,跳过 0 条" in fixed
    page = swap(page, "bulk-preview", fixed)  # htmx swaps the preview in, with its digest
    data = form_data(page, "bulk", submit=("confirm", "1"))
    done = gm_client.post(url, data, follow=True).content.decode()
    assert "批量录入完成:保存了 4 条消息" in done
    assert Message.objects.filter(game=day, sender_name="虎敬晖", text="围观一下").exists()
    assert gm_client.post(url, data, follow=True).status_code == 200
    assert Message.objects.filter(game=day).count() == 4  # the repeated confirm stored nothing


def test_a_ticked_skip_box_is_sent_as_a_browser_sends_it_and_that_post_is_not_stored(gm_client, gm, day):
    """The 天神 ticks 跳过 on a row: the browser sends the box as "on" (it has no value attribute); the preview then
    skips that post and the confirm stores the others only."""
    day.gms.add(gm)
    url = f"/gm/{day.pk}/bulk/"
    page = gm_client.get(url).content.decode()
    paste = corpus("phpwind_day1.txt").replace("阿飞", "李朗").replace("小明", "曾泰").replace("老王", "张环")
    data = form_data(page, "bulk")
    data.update(paste=[paste], split=["1"])
    page = gm_client.post(url, data).content.decode()
    assert "将保存 3 条,跳过 1 条" in page
    page = check(page, "row-0-skip")
    data = form_data(page, "bulk")
    assert data["row-0-skip"] == ["on"]
    fixed = gm_client.post(url, {**data, "refresh": ["1"]}, HTTP_HX_REQUEST="true").content.decode()
    assert "将保存 2 条,跳过 2 条" in fixed
    data = form_data(swap(page, "bulk-preview", fixed), "bulk", submit=("confirm", "1"))
    assert "批量录入完成:保存了 2 条消息" in gm_client.post(url, data, follow=True).content.decode()
    assert Message.objects.filter(game=day).count() == 2


SECOND_POSTS = """=== 李元芳 2024-03-05 10:00
投 曾泰
=== 李元芳 2024-03-05 11:00
再想想,我投李朗
=== 李元芳 2024-03-05 12:00
算了还是投曾泰吧
=== 狄仁杰 2024-03-05 10:05
投 张环
=== 狄仁杰 2024-03-06 08:30
最后改一下,投李朗
"""


def test_a_separate_second_vote_post_in_a_thread_is_the_change_as_one_by_one_d3(day):
    """D3: "再想想,我投李朗" after a vote is the one change, in a pasted thread as in the single paste; a
    third post is refused (the change is used), and one in the last hour is refused (too late)."""
    preview = bulk.bulk_preview(game=day, posts=split_posts(SECOND_POSTS, authors=AUTHORS), vote_post=True)
    said = {(r.post.author, r.post.at.strftime("%H:%M")): r.actions for r in preview.rows}
    [second] = said[("李元芳", "11:00")]
    assert second["sentence"] == "投票 → 李朗" and second["accepted"] and "按改票处理" in second["reason"]
    [third] = said[("李元芳", "12:00")]
    assert not third["accepted"] and "改票只能一次,你已经改过票了" in third["reason"]
    [late] = said[("狄仁杰", "08:30")]
    assert not late["accepted"] and "最后一小时不能改票" in late["reason"]

    bulk.bulk_confirm(game=day, posts=split_posts(SECOND_POSTS, authors=AUTHORS), vote_post=True)
    state = storage.game_replay(day).state
    assert state.votes["李元芳"].target == "李朗" and state.votes["狄仁杰"].target == "张环"


def test_a_second_vote_post_pasted_alone_is_the_change_and_an_edited_one_is_not_d3(day):
    """The single paste gives what the thread gives: the separate post is the change; the same words in the original
    post, edited ("本帖最后由 … 编辑"), are not a separate post: the original stands and the change is forfeited."""
    seat = day.seats.get(player_name="李元芳")
    at = day.phases.get(status="open").starts_at
    for hours, text in ((1, "投 曾泰"), (2, "再想想,我投李朗")):
        intake.pm_confirm(
            day, intake.Pasted(seat=seat, text=text, forum_at=at + timedelta(hours=hours), vote_post=True)
        )
    assert storage.game_replay(day).state.votes["李元芳"].target == "李朗"
    other = day.seats.get(player_name="狄仁杰")
    intake.pm_confirm(day, intake.Pasted(seat=other, text="投 曾泰", forum_at=at + timedelta(hours=1), vote_post=True))
    _, [item], _ = intake.pm_confirm(
        day,
        intake.Pasted(
            seat=other, text="再想想,我投李朗", forum_at=at + timedelta(hours=2), vote_post=True, edited=True
        ),
    )
    assert item.accepted and "按原投票(→ 曾泰)计票,改票权作废" in item.reason
    assert storage.game_replay(day).state.votes["狄仁杰"].target == "曾泰"
