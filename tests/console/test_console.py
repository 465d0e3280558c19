"""The 天神's console — intake with preview, refusals, votes, voids, corrections, drafts, audit, export."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from moderator.models import Announcement, AuditLog, Game, Input, Message, Phase
from moderator.services import play, storage, transfer
from tests import entries
from tests.tokens import signed

pytestmark = pytest.mark.django_db
MANIFESTO = "天下大势,分久必合,合久必分。" * 8


def _at(phase, hours=1):
    return (phase.starts_at + timedelta(hours=hours)).astimezone().strftime("%Y-%m-%dT%H:%M")


def _action(use):
    """The one stored input that uses this privilege."""
    (rec,) = [r for r in Input.objects.filter(kind="action") if r.payload["use"] == use]
    return rec


SUB = "/gm/%d/substitute/"


def _seat(game, name):
    return game.seats.get(player_name=name)


def once(client, url, to: str | None = None) -> dict:
    """The one-time token and phase of the form on the page that posts to `to` (else of the first form; and the
    digest of what it shows, if it carries one), as a browser would send them back: a token is signed for its form."""
    page = client.get(url).content.decode()
    if to is not None and f'action="{to}"' in page:
        page = page.split(f'action="{to}"', 1)[1].split("</form>", 1)[0]
    fields = {name: re.search(rf'name="{name}" value="([^"]*)"', page) for name in ("once", "phase", "seen")}
    return {name: found.group(1) for name, found in fields.items() if found}


def shown(page: str) -> dict:
    """What a correction's preview page carries back with its confirm: the digest of what it showed, and its time."""
    return {name: re.search(rf'name="{name}" value="([^"]*)"', page).group(1) for name in ("seen", "at")}


def _pm(client, game, sender, text, hours=1, confirm=False):
    phase = game.phases.get(status=Phase.Status.OPEN)
    data = {"seat": _seat(game, sender).pk, "forum_at": _at(phase, hours), "text": text, "preview": "1"}
    page = client.post(f"/gm/{game.pk}/pm/", data)
    if not confirm:
        return page
    fields = {
        name: re.search(rf'name="{name}" value="([^"]*)"', page.content.decode()).group(1) for name in ("once", "phase")
    }
    data = {**data, **fields, "confirm": "1"}
    del data["preview"]
    return client.post(f"/gm/{game.pk}/pm/", data, follow=True)


def test_only_the_games_gm_sees_the_console(client, game, django_user_model):
    assert client.get(f"/gm/{game.pk}/").status_code == 302
    client.force_login(django_user_model.objects.create_user("路人", password="pw-123456"))
    assert client.get(f"/gm/{game.pk}/").status_code == 404


def test_the_preview_shows_what_was_understood_and_the_cost_and_stores_nothing(gm_client, game):
    page = _pm(gm_client, game, "甲", f"今晚用杀手攻击乙。杀人宣言:{MANIFESTO}").content.decode()
    assert "将被接受" in page and "普通攻击" in page and "合计扣除 1 点" in page
    assert not Input.objects.exists() and not Message.objects.exists()


def test_confirming_stores_the_raw_text_and_each_input_with_its_verdict(gm_client, game):
    text = f"束魂 乙;狙击 丙。{MANIFESTO}"
    page = _pm(gm_client, game, "乙", text, confirm=True).content.decode()
    message = Message.objects.get()
    assert message.text == text and message.entered_by.username == "tianshen"
    assert "已保存 乙 的消息" in page
    # 乙 holds no 狙击手: the parser refuses it and says so; the 束魂 is accepted for 2 AP (AP1: 2 + 1 庶民).
    assert "你手里没有狙击手牌" in page or "没有狙击手" in page
    binding = _action("束魂")
    assert binding.status == "accepted" and binding.cost == 2 and binding.message == message
    assert AuditLog.objects.filter(action="录入消息").count() == 1


def test_a_garbled_pm_is_kept_and_explained_never_a_500(gm_client, game):
    page = _pm(gm_client, game, "丙", "@@@###今晚??? 嗯嗯", confirm=True).content.decode()
    assert Message.objects.get().text == "@@@###今晚??? 嗯嗯"
    assert "没有(整条消息都没有读懂,原文已保存)" in page


def test_an_action_without_the_ap_is_refused_with_the_reason(gm_client, game):
    page = _pm(gm_client, game, "甲", f"一击必杀 乙。{MANIFESTO}").content.decode()
    assert "将被接受" in page  # 2 + 2 庶民 − 1 保镖 upkeep = 3 AP at night 1 (AP1, AP3) is enough for 3
    _pm(gm_client, game, "甲", f"一击必杀 乙。{MANIFESTO}", confirm=True)
    page = _pm(gm_client, game, "甲", f"一击必杀 丙。{MANIFESTO}").content.decode()
    assert "行动点数不足" in page and "你现在只有 0 点" in page


def test_a_message_timed_before_the_phase_is_refused_clearly(gm_client, game):
    phase = game.phases.get(status=Phase.Status.OPEN)
    data = {"seat": _seat(game, "甲").pk, "forum_at": _at(phase, -2), "text": "束魂乙", "preview": "1"}
    page = gm_client.post(f"/gm/{game.pk}/pm/", data).content.decode()
    assert "属于已经结束的时段" in page


def test_the_dashboard_lists_inputs_and_who_has_not_acted(gm_client, game):
    _pm(gm_client, game, "乙", "束魂 乙", confirm=True)
    page = gm_client.get(f"/gm/{game.pk}/").content.decode()
    assert "第1夜" in page and "束魂 → 乙" in page
    not_acted = page.split('id="not-acted">')[1].split("</p>")[0]
    assert "乙" not in not_acted and all(n in not_acted for n in "甲丙丁")


def test_voiding_an_input_refunds_nothing_but_removes_its_effect_and_is_logged(gm_client, game):
    _pm(gm_client, game, "乙", "束魂 乙", confirm=True)
    rec = Input.objects.get()
    token = once(gm_client, f"/gm/{game.pk}/void/{rec.pk}/")
    gm_client.post(f"/gm/{game.pk}/void/{rec.pk}/", {"reason": "录错了", **token})
    rec = Input.objects.get()
    assert rec.status == "voided" and rec.reason == "录错了"
    assert storage.game_replay(game).state.seat("乙").ap == 3  # replayed without it
    assert AuditLog.objects.get(action="作废输入").detail["reason"] == "录错了"
    assert gm_client.post(f"/gm/{game.pk}/void/nonsense/").status_code == 404
    again = gm_client.post(f"/gm/{game.pk}/void/{rec.pk}/", {"reason": "录错了", **token}, follow=True)
    assert "已经提交过了" in again.content.decode() and AuditLog.objects.filter(action="作废输入").count() == 1


def test_a_void_confirmed_from_a_page_shown_before_another_input_voids_nothing(gm_client, game):
    """The void page of a 束魂 on 丙 shows that the void changes nothing at the deadline; an attack on 丙 entered after
    it was shown makes the void change the night (N1, N7: the 束魂 stops the attack), so its confirm voids nothing and
    says to look again; the page shown again voids it."""
    _pm(gm_client, game, "乙", "束魂 丙", confirm=True)
    rec = Input.objects.get()
    url = f"/gm/{game.pk}/void/{rec.pk}/"
    shown = once(gm_client, url)
    assert shown["seen"]
    _pm(gm_client, game, "甲", f"杀丙。{MANIFESTO}", confirm=True)  # entered while the void page was open
    stale = gm_client.post(url, {"reason": "录错了", **shown}, follow=True).content.decode()
    assert "和确认页上显示的不同" in stale and "什么都没有作废" in stale
    assert Input.objects.get(pk=rec.pk).status != "voided" and not AuditLog.objects.filter(action="作废输入").exists()
    gm_client.post(url, {"reason": "录错了", **once(gm_client, url)})
    assert Input.objects.get(pk=rec.pk).status == "voided"


def _close(game):
    phase = game.phases.get(status=Phase.Status.OPEN)
    assert play.phase_close(phase=phase)
    return phase


def test_after_the_close_the_dawn_draft_is_ready_to_copy(gm_client, game):
    _pm(gm_client, game, "甲", f"杀乙。{MANIFESTO}", confirm=True)
    _close(game)
    page = gm_client.get(f"/gm/{game.pk}/announcements/").content.decode()
    dawn = Announcement.objects.get(kind="dawn")
    assert "乙昨夜受到了攻击,他丢了一张庶民牌" in dawn.text and "[b]" in dawn.bbcode and "[b]" not in dawn.text
    assert MANIFESTO[:20] in dawn.text and "甲" not in dawn.text.split("杀人宣言")[1]  # A2: no author
    assert "复制 BBCode" in page and Announcement.objects.filter(kind="vote").exists()


def test_votes_are_entered_and_the_running_tally_shows_weights(gm_client, game):
    _close(game)
    phase = game.phases.get(status=Phase.Status.OPEN)
    for voter, target in (("甲", "丁"), ("丙", "丁"), ("丁", "甲")):
        gm_client.post(
            f"/gm/{game.pk}/votes/",
            {
                "seat": _seat(game, voter).pk,
                "target": _seat(game, target).pk,
                "forum_at": _at(phase),
                **once(gm_client, f"/gm/{game.pk}/votes/"),
            },
        )
    page = gm_client.get(f"/gm/{game.pk}/votes/").content.decode()
    tally = page.split('id="tally"')[1].split("</table>")[0]
    assert "<td>丁</td><td>10</td>" in tally and "<td>甲</td><td>5</td>" in tally
    assert "(未投票,视为自投 D1)" in page  # 乙 has not voted
    late = {"seat": _seat(game, "甲").pk, "target": _seat(game, "乙").pk, "change": "on", "forum_at": _at(phase, 23.5)}
    late |= once(gm_client, f"/gm/{game.pk}/votes/")
    gm_client.post(f"/gm/{game.pk}/votes/", late)
    (change,) = [r for r in Input.objects.filter(kind="vote") if "change" in r.payload]
    assert "最后一小时不能改票" in change.reason


def test_a_correction_re_resolves_shows_the_difference_and_applies_on_confirmation(gm_client, game):
    _pm(gm_client, game, "甲", f"杀乙。{MANIFESTO}", confirm=True)
    night1 = _close(game)
    assert night1.result["lost"] == {"乙": {"特权": 0, "庶民": 1}}
    attack = _action("普通攻击")
    page = gm_client.post(f"/gm/{game.pk}/correction/", {"void": f"{attack.pk}", "preview": "1"}).content.decode()
    assert "更正后的差异" in page and "第1夜" in page and "昨夜平安无事" in page
    night1.refresh_from_db()
    assert night1.result["lost"] == {"乙": {"特权": 0, "庶民": 1}}  # the preview kept nothing
    token = once(gm_client, f"/gm/{game.pk}/correction/") | shown(page)
    gm_client.post(
        f"/gm/{game.pk}/correction/", {"void": f"{attack.pk}", "confirm": "1", "reason": "天神录错", **token}
    )
    night1.refresh_from_db()
    assert night1.result["lost"] == {}
    assert "昨夜平安无事" in Announcement.objects.filter(kind="dawn").order_by("-id").first().text
    assert AuditLog.objects.get(action="更正").detail["reason"] == "天神录错"
    assert storage.game_replay(game).state.seat("乙").ap == 3


def test_a_correction_can_add_a_missed_input_to_a_closed_night(gm_client, game):
    night1 = _close(game)
    phase_at = (night1.starts_at + timedelta(hours=2)).astimezone().strftime("%Y-%m-%dT%H:%M")
    data = {
        "add-phase": night1.pk,
        "add-seat": _seat(game, "甲").pk,
        "add-forum_at": phase_at,
        "add-card": "杀手",
        "add-use": "普通攻击",
        "add-target": "丙",
        "add-manifesto": MANIFESTO,
    }
    preview = gm_client.post(f"/gm/{game.pk}/correction/", {**data, "preview": "1"}).content.decode()
    data |= {"confirm": "1", **once(gm_client, f"/gm/{game.pk}/correction/"), **shown(preview)}
    gm_client.post(f"/gm/{game.pk}/correction/", data)
    night1.refresh_from_db()
    assert night1.result["lost"] == {"丙": {"特权": 0, "庶民": 1}}


def test_the_audit_page_lists_every_act(gm_client, game):
    _pm(gm_client, game, "乙", "束魂 乙", confirm=True)
    page = gm_client.get(f"/gm/{game.pk}/audit/").content.decode()
    assert "录入消息" in page and "tianshen" in page


def test_export_and_import_replay_to_the_same_state(gm_client, game):
    _pm(gm_client, game, "甲", f"杀乙。{MANIFESTO}", confirm=True)
    _pm(gm_client, game, "乙", "束魂 乙", confirm=True)
    _close(game)
    exported = gm_client.get(f"/gm/{game.pk}/export/")
    assert exported["Content-Disposition"].startswith("attachment")
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("game.json", exported.content, content_type="application/json")
    gm_client.post("/games/import/", {**signed(gm_client, "console_import"), "file": upload, "name": "导入的局"})
    copy = Game.objects.get(name="导入的局")
    a, b = storage.game_replay(game), storage.game_replay(copy)
    assert [(s.name, s.names, s.ap, s.alive) for s in a.state.seats] == [
        (s.name, s.names, s.ap, s.alive) for s in b.state.seats
    ]
    assert [p.result for p in game.phases.order_by("starts_at")] == [
        p.result for p in copy.phases.order_by("starts_at")
    ]
    assert transfer.export_game(copy)["inputs"] == transfer.export_game(game)["inputs"]


def test_importing_garbage_says_so(gm_client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    page = gm_client.post(
        "/games/import/", {**signed(gm_client, "console_import"), "file": SimpleUploadedFile("x.json", b"{not json")}
    ).content.decode()
    assert "无法导入" in page
    page = gm_client.post(
        "/games/import/",
        {**signed(gm_client, "console_import"), "file": SimpleUploadedFile("x.json", b'{"format": "other"}')},
    ).content.decode()
    assert "这不是本系统导出的游戏文件" in page


def test_a_substitute_takes_a_seat_and_the_phase_gets_twelve_more_hours(gm_client, game):
    phase = game.phases.get(status=Phase.Status.OPEN)
    end = phase.ends_at
    form = {"seat": _seat(game, "丙").pk, "player_name": "替补丙", **once(gm_client, f"/gm/{game.pk}/", SUB % game.pk)}
    page = gm_client.post(f"/gm/{game.pk}/substitute/", form).content.decode()  # first what it would change
    later = timezone.localtime(end + timedelta(hours=12)).strftime("%Y-%m-%d %H:%M")
    assert f"延长到 <strong>{later}</strong>" in page and "替补公告" in page and "交接" in page
    phase.refresh_from_db()
    assert phase.ends_at == end and not game.seats.filter(player_name="替补丙").exists()  # nothing saved yet
    gm_client.post(f"/gm/{game.pk}/substitute/", {**form, "confirm": "1"})
    phase.refresh_from_db()
    assert phase.ends_at - end == timedelta(hours=12)  # T4
    assert game.seats.filter(player_name="替补丙").exists()
    assert storage.game_replay(game).state.seat("替补丙").names == ("庶民", "巫医", "绝杀/特赦", "纵火/圣人", "阿米巴")
    page = gm_client.post(
        f"/gm/{game.pk}/substitute/",
        {"seat": _seat(game, "甲").pk, "player_name": "乙", **once(gm_client, f"/gm/{game.pk}/", SUB % game.pk)},
        follow=True,
    )
    assert "已经在这局游戏里了" in page.content.decode()


def test_the_preview_marks_the_words_each_input_was_read_from(gm_client, game):
    """The 天神 sees the evidence of each input in the pasted message."""
    page = _pm(gm_client, game, "乙", "大家好。今晚束魂乙,谢谢").content.decode()
    evidence = page.split('id="evidence"')[1].split("</pre>")[0]
    marked = re.findall(r'<mark class="input">(.*?)</mark>', evidence)
    assert marked and all("束魂" in m or "乙" in m for m in marked) and "大家好" not in "".join(marked)


def test_an_early_end_not_sent_from_its_confirmation_page_ends_nothing_t5(gm_client, game):
    """Review finding: an end-early POST without the digest of the close it showed skipped the check; now the end
    comes only from the confirmation page, which shows the post the close will draft."""
    form = {"force": "1", **signed(gm_client, "console_clock:end", game)}  # a valid token, but not from that page
    page = gm_client.post(f"/gm/{game.pk}/clock/end/", form, follow=True).content.decode()
    assert "请从确认页操作" in page
    assert game.phases.get(kind="night", number=1).status == Phase.Status.OPEN
    page = gm_client.post(f"/gm/{game.pk}/clock/end/", {"force": "1", **once(gm_client, f"/gm/{game.pk}/end/")})
    assert game.phases.get(kind="night", number=1).status == Phase.Status.CLOSED


def test_a_stale_end_early_page_ends_nothing_and_the_page_shown_again_ends_the_night_t5(gm_client, game):
    """An attack entered after the end-early page was shown makes that page's confirm end nothing: the night, its end
    time and the log as they were. The page shown again ends the night with the close it shows (the attack's line)."""
    end = f"/gm/{game.pk}/clock/end/"
    stale = once(gm_client, f"/gm/{game.pk}/end/", end)
    night = game.phases.get(kind="night", number=1)
    planned = night.ends_at
    attack = {"card": "杀手", "use": "普通攻击", "target": "乙", "manifesto": MANIFESTO}
    seat = game.seats.get(player_name="甲")
    entries.action_submit(game=game, seat=seat, payload=attack, forum_at=night.starts_at + timedelta(minutes=10))
    page = gm_client.post(end, {**stale, "force": "1"}, follow=True).content.decode()
    assert "和确认页上显示的不同" in page
    night.refresh_from_db()
    assert (night.status, night.ends_at, night.announced_end) == (Phase.Status.OPEN, planned, None)
    assert not game.audit.filter(action=AuditLog.Action.PHASE_END_EARLY).exists()
    assert not Announcement.objects.filter(game=game, kind=Announcement.Kind.DAWN).exists()
    page = gm_client.post(end, {**once(gm_client, f"/gm/{game.pk}/end/", end), "force": "1"}, follow=True)
    assert "第1夜已提前结束并结算" in page.content.decode()
    night.refresh_from_db()
    assert night.status == Phase.Status.CLOSED and night.announced_end == planned
    assert "乙昨夜受到了攻击" in Announcement.objects.get(game=game, kind=Announcement.Kind.DAWN).text


def test_the_substitution_preview_of_a_paused_game_says_the_time_left_t4(gm_client, game):
    """Review finding: paused, the extension grows the time left, not the end; the preview said "从 14:08 延长到 14:08"."""
    gm_client.post(f"/gm/{game.pk}/clock/pause/", once(gm_client, f"/gm/{game.pk}/", f"/gm/{game.pk}/clock/pause/"))
    form = {"seat": _seat(game, "丙").pk, "player_name": "替补丙", **once(gm_client, f"/gm/{game.pk}/", SUB % game.pk)}
    page = gm_client.post(f"/gm/{game.pk}/substitute/", form).content.decode()
    left = game.phases.get(status=Phase.Status.OPEN).paused_remaining
    hours = int(left.total_seconds() // 3600) + 12
    assert "游戏暂停中" in page and f"延长到 <strong>{hours} 小时" in page


def test_the_preview_shows_the_manifesto_that_will_be_published_and_nothing_after_it(gm_client, game):
    """A PS to the 天神 after the 杀人宣言 (a secret) is never part of it: the preview shows the manifesto
    word for word and marks its words in the pasted text; the confirmed input stores exactly that."""
    text = "今晚用杀手攻击乙。杀人宣言:你的死期到了\nPS 天神:我的保镖在第四张,千万别说出去"
    page = _pm(gm_client, game, "甲", text).content.decode()
    shown = re.findall(r'<blockquote class="manifesto">(.*?)</blockquote>', page, re.S)
    assert shown == ["你的死期到了"]
    evidence = page.split('id="evidence"')[1].split("</pre>")[0]
    assert re.findall(r'<mark class="manifesto">(.*?)</mark>', evidence) == ["你的死期到了"]
    _pm(gm_client, game, "甲", text, confirm=True)
    assert _action("普通攻击").payload["manifesto"] == "你的死期到了"


def test_the_gm_trims_the_manifesto_in_the_preview_and_a_new_paste_drops_the_trim(gm_client, game):
    """The box under the attack holds the 宣言 to publish; a trim is previewed word for word; the boxes
    belong to the text they were shown for — a new paste previewed with the old boxes is read afresh."""
    text = f"今晚用杀手攻击乙。杀人宣言:{MANIFESTO}\n另:我白天说的身份其实是假的"  # no action word: taken
    page = _pm(gm_client, game, "甲", text).content.decode()
    box = re.search(r'<textarea name="(manifesto-\d+)" form="intake"', page).group(1)
    key = re.search(r'name="manifesto_text" value="([^"]*)"', page).group(1)
    phase = game.phases.get(status=Phase.Status.OPEN)
    data = {"seat": _seat(game, "甲").pk, "forum_at": _at(phase), "preview": "1", box: MANIFESTO, "manifesto_text": key}
    trimmed = gm_client.post(f"/gm/{game.pk}/pm/", {**data, "text": text}).content.decode()
    assert re.findall(r'<blockquote class="manifesto">(.*?)</blockquote>', trimmed, re.S) == [MANIFESTO]
    assert "天神修改过" in trimmed and "已按修改后的文字计算" in trimmed
    other = f"今晚用杀手攻击丙。杀人宣言:{MANIFESTO}再见了\n"  # a new paste, the old box still in the form
    fresh = gm_client.post(f"/gm/{game.pk}/pm/", {**data, "text": other}).content.decode()
    assert re.findall(r'<blockquote class="manifesto">(.*?)</blockquote>', fresh, re.S) == [f"{MANIFESTO}再见了"]
    assert "天神修改过" not in fresh and not Message.objects.exists()


def test_the_preview_says_whom_a_pronoun_was_read_as_when_one_player_is_named(gm_client, game):
    """他 with one player named in the message is read as that player, and the preview says so."""
    page = _pm(gm_client, game, "甲", "乙很可疑,今晚用杀手攻击他").content.decode()
    assert "普通攻击(杀手) → 乙(“他”按上文读作乙,请核对)" in page
    assert "将被拒绝:杀人宣言不够" in page  # N-kill: the engine judges the read input as usual


def test_the_preview_says_whom_a_pronoun_in_a_vote_post_was_read_as(gm_client, game):
    """A vote post's 他 with one player named before it is a vote for that player, and the preview says so."""
    _close(game)
    page = _pm(gm_client, game, "甲", "丁太可疑了,投他").content.decode()
    assert "(“他”按上文读作丁,请核对)" in page
