"""A PM entered out of forum order (T3: inputs are judged by their forum time, not their time of entry): the preview
judges it as the confirm will — the phase replayed in forum order — and names every other verdict it changes; the
structured forms and the bulk paste ask before such a change; nothing changes a verdict the 天神 did not see."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.models import Input, Message
from moderator.parser.thread import Post
from moderator.services import bulk, intake, play, verdicts
from tests import entries
from tests.browser.console_kit import TABLE
from tests.tokens import signed
from tests.world import game_make

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    g = game_make(name="乱序局", players=TABLE, started_at=timezone.now() - timedelta(hours=3))
    return g


def at(game, minutes: int):
    return game.phases.get().starts_at + timedelta(minutes=minutes)


def seat(game, name):
    return game.seats.get(player_name=name)


def stored_verdicts(game) -> dict[str, str]:
    names = dict(game.seats.values_list("number", "player_name"))
    rows = Input.objects.filter(game=game).select_related("verdict", "seat")
    return {
        f"{r.seat.player_name} {intake.codec.describe(r.kind, r.payload, names)}": verdicts.verdict_text(r.verdict)
        for r in rows
    }


def test_it_previews_an_earlier_pm_in_forum_order_and_names_the_verdict_it_changes(game):
    """AP4: 乙 holds 3 AP. The 20:00 束魂 (2) is entered first and accepted; then the 19:00 禁锢 (2): in forum order
    the 禁锢 comes first, and the 束魂 is left with 1 AP — refused. The preview says so before anything is stored."""
    yi = seat(game, "乙")
    intake.pm_confirm(game, intake.Pasted(seat=yi, text="束魂 丙", forum_at=at(game, 60)))
    preview = intake.pm_preview(game, intake.Pasted(seat=yi, text="禁锢 丁", forum_at=at(game, 30)))
    assert preview.later == 1
    assert [(i.sentence, i.accepted, i.cost) for i in preview.items] == [("禁锢(禁锢/反狙击) → 丁", True, 2)]
    [change] = preview.changes
    assert (change.who, change.what, change.before) == ("乙", "束魂 → 丙", "接受(−2 点)")
    assert change.after.startswith("拒绝:") and "点" in change.after
    assert Message.objects.count() == 1 and Input.objects.count() == 1  # the dry run was rolled back

    intake.pm_confirm(game, intake.Pasted(seat=yi, text="禁锢 丁", forum_at=at(game, 30)), seen=preview.digest)
    assert stored_verdicts(game) == {"乙 禁锢(禁锢/反狙击) → 丁": "接受(−2 点)", "乙 束魂 → 丙": change.after}


def test_an_in_order_pm_changes_nothing_else_and_says_nothing_about_order(game):
    yi = seat(game, "乙")
    intake.pm_confirm(game, intake.Pasted(seat=yi, text="禁锢 丁", forum_at=at(game, 30)))
    preview = intake.pm_preview(game, intake.Pasted(seat=yi, text="束魂 丙", forum_at=at(game, 60)))
    assert preview.later == 0 and preview.changes == [] and not preview.items[0].accepted
    intake.pm_confirm(game, intake.Pasted(seat=yi, text="束魂 丙", forum_at=at(game, 60)), seen=preview.digest)
    shown = verdicts.verdict_text(preview.items[0])
    assert stored_verdicts(game) == {"乙 禁锢(禁锢/反狙击) → 丁": "接受(−2 点)", "乙 束魂 → 丙": shown}


def test_a_confirm_that_would_not_store_what_the_preview_showed_stores_nothing(game):
    yi = seat(game, "乙")
    preview = intake.pm_preview(game, intake.Pasted(seat=yi, text="禁锢 丁", forum_at=at(game, 30)))
    assert preview.changes == []
    intake.pm_confirm(game, intake.Pasted(seat=yi, text="束魂 丙", forum_at=at(game, 60)))  # entered meanwhile
    with pytest.raises(verdicts.NotAsSeen) as refused:
        intake.pm_confirm(game, intake.Pasted(seat=yi, text="禁锢 丁", forum_at=at(game, 30)), seen=preview.digest)
    assert [c.what for c in refused.value.outcome.changes] == ["束魂 → 丙"]
    assert Message.objects.count() == 1


def test_a_confirm_without_a_preview_may_not_change_another_verdict(game):
    yi = seat(game, "乙")
    intake.pm_confirm(game, intake.Pasted(seat=yi, text="束魂 丙", forum_at=at(game, 60)))
    with pytest.raises(verdicts.NotAsSeen):
        intake.pm_confirm(game, intake.Pasted(seat=yi, text="禁锢 丁", forum_at=at(game, 30)), seen="")
    assert Input.objects.count() == 1


def test_the_action_form_shows_the_change_and_stores_only_on_a_second_confirmed_click(gm, gm_client, game):
    """The structured form has no preview: an out-of-order entry that changes another verdict is shown first (T3);
    the confirm carries a new one-time token, and a repeated click changes nothing."""
    game.gms.add(gm)
    yi = seat(game, "乙")
    intake.pm_confirm(game, intake.Pasted(seat=yi, text="束魂 丙", forum_at=at(game, 60)))
    local = timezone.localtime(at(game, 30)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "seat": yi.pk,
        "forum_at": local,
        "use": "禁锢",
        "target": "丁",
        **signed(gm_client, "console_action", game),
    }
    page = gm_client.post(f"/gm/{game.pk}/action/", form).content.decode()
    assert Input.objects.count() == 1
    assert "早于本时段已经录入的 1 条输入" in page and "束魂 → 丙" in page and "拒绝:" in page
    seen = page.split('name="seen" value="')[1].split('"')[0]
    confirm = {**form, **signed(gm_client, "console_action", game), "seen": seen}
    assert gm_client.post(f"/gm/{game.pk}/action/", confirm).status_code == 302
    assert Input.objects.count() == 2
    assert stored_verdicts(game)["乙 束魂 → 丙"].startswith("拒绝:")
    again = gm_client.post(f"/gm/{game.pk}/action/", confirm, follow=True).content.decode()
    assert "已经提交过了" in again and Input.objects.count() == 2


def test_the_vote_form_asks_before_an_earlier_post_changes_a_vote_verdict(gm, gm_client, game):
    """D3: a change post is judged against the original by forum time; an original vote entered after its own
    change (but stamped earlier) turns the change into an accepted one, and the form says so first."""
    game.gms.add(gm)
    night = game.phases.get()
    assert play.phase_close(phase=night, now=night.ends_at)
    day = game.phases.get(status="open")
    yi, bing = seat(game, "乙"), seat(game, "丙")
    entries.vote_submit(game=game, seat=yi, target=bing, change=True, forum_at=day.starts_at + timedelta(hours=3))
    local = timezone.localtime(day.starts_at + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    form = {"seat": yi.pk, "forum_at": local, "post": "original", "target": seat(game, "丁").pk}
    page = gm_client.post(
        f"/gm/{game.pk}/votes/", {**form, **signed(gm_client, "console_votes", game)}
    ).content.decode()
    assert Input.objects.filter(phase=day).count() == 1
    assert "早于本时段已经录入的 1 条输入" in page and 'id="verdict-changes"' in page, page
    table = page.split('id="verdict-changes"')[1].split("</table>")[0]
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td>(.*?)</td>", table, re.S)]
    assert cells[0] == "乙" and "改票" in cells[1] and cells[2].startswith("拒绝")  # the change, refused before
    seen = page.split('name="seen" value="')[1].split('"')[0]
    gm_client.post(f"/gm/{game.pk}/votes/", {**form, **signed(gm_client, "console_votes", game), "seen": seen})
    assert Input.objects.filter(phase=day).count() == 2
    changed = stored_verdicts(game)["乙 改票 → 丙"]
    assert changed == cells[3] and changed.startswith("接受")  # stored as the page said it would be


def test_the_bulk_preview_judges_an_earlier_post_in_forum_order_and_names_the_change(game):
    yi = seat(game, "乙")
    intake.pm_confirm(game, intake.Pasted(seat=yi, text="束魂 丙", forum_at=at(game, 60)))
    naive = timezone.localtime(at(game, 30)).replace(tzinfo=None)
    posts = [Post("乙", naive, "禁锢 丁", False, 1)]
    preview = bulk.bulk_preview(game=game, posts=posts, vote_post=False)
    assert preview.later == 1 and [c.what for c in preview.changes] == ["束魂 → 丙"]
    assert [(i.sentence, i.accepted) for i in preview.rows[0].items] == [("禁锢(禁锢/反狙击) → 丁", True)]
    assert Input.objects.count() == 1
    with pytest.raises(verdicts.NotAsSeen):
        bulk.bulk_confirm(game=game, posts=posts, vote_post=False, seen="")
    bulk.bulk_confirm(game=game, posts=posts, vote_post=False, seen=preview.digest)
    assert stored_verdicts(game)["乙 束魂 → 丙"] == preview.changes[0].after


def test_a_stale_preview_page_stores_nothing_and_shows_the_new_preview(gm, gm_client, game):
    """The preview was shown; then another input of the same player was entered; the confirm of the old page would
    change its verdict: nothing is stored, and the page shows the new preview with the change."""
    game.gms.add(gm)
    yi = seat(game, "乙")
    local = timezone.localtime(at(game, 30)).strftime("%Y-%m-%dT%H:%M")
    form = {"seat": yi.pk, "forum_at": local, "text": "禁锢 丁", "phase": game.phases.get().pk}
    page = gm_client.post(
        f"/gm/{game.pk}/pm/", {**form, **signed(gm_client, "console_pm", game), "preview": "1"}
    ).content.decode()
    seen = page.split('name="seen" value="')[1].split('"')[0]
    intake.pm_confirm(game, intake.Pasted(seat=yi, text="束魂 丙", forum_at=at(game, 60)))  # meanwhile, in another tab
    page = gm_client.post(
        f"/gm/{game.pk}/pm/", {**form, **signed(gm_client, "console_pm", game), "confirm": "1", "seen": seen}
    ).content.decode()
    assert Message.objects.count() == 1
    assert "这条输入会改变本时段其他输入的结果" in page and 'id="verdict-changes"' in page and "束魂 → 丙" in page


def test_a_confirm_with_another_sender_time_or_text_than_the_preview_stores_nothing(game):
    """Review finding: the digest covered only the inputs' sentences and verdicts, so a confirm with the sender
    switched (丁 sending 乙's 束魂) stored it under 丁. What the preview showed — sender, forum minute, words,
    refusals — is what the confirm stores, or nothing."""
    yi, ding = seat(game, "乙"), seat(game, "丁")
    preview = intake.pm_preview(game, intake.Pasted(seat=yi, text="束魂 丙", forum_at=at(game, 30)))
    for changed in (
        {"seat": ding, "text": "束魂 丙", "forum_at": at(game, 30)},
        {"seat": yi, "text": "束魂 丙", "forum_at": at(game, 40)},
        {"seat": yi, "text": "束魂 丙。谢谢天神", "forum_at": at(game, 30)},
    ):
        with pytest.raises(verdicts.NotAsSeen):
            intake.pm_confirm(game, intake.Pasted(**changed), seen=preview.digest)
    assert not Message.objects.exists() and not Input.objects.exists()
    intake.pm_confirm(game, intake.Pasted(seat=yi, text="束魂 丙", forum_at=at(game, 30)), seen=preview.digest)
    assert stored_verdicts(game) == {"乙 束魂 → 丙": "接受(−2 点)"}


def test_a_bulk_confirm_of_an_edited_row_is_not_what_the_preview_showed(game):
    """Review finding: the bulk digest held no sentence, so a row edited after the preview (乙 束魂 丙 → 束魂 丁)
    was stored with the old preview's digest."""
    naive = timezone.make_naive(at(game, 30)).replace(second=0, microsecond=0)
    shown = bulk.bulk_preview(game=game, posts=[Post("乙", naive, "束魂 丙")], vote_post=False)
    with pytest.raises(verdicts.NotAsSeen):
        bulk.bulk_confirm(game=game, posts=[Post("乙", naive, "束魂 丁")], vote_post=False, seen=shown.digest)
    assert not Message.objects.exists()
    bulk.bulk_confirm(game=game, posts=[Post("乙", naive, "束魂 丙")], vote_post=False, seen=shown.digest)
    assert stored_verdicts(game) == {"乙 束魂 → 丙": "接受(−2 点)"}
