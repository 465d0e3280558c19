"""In Chromium: a PM whose 杀人宣言 runs on into a line that leaks a secret. The preview shows the exact text
that will be published; the 天神 trims it in the preview, sees the new count, and confirms; a confirm after a further
edit that was not previewed stores nothing; the dawn draft and the public page publish the trimmed text only."""

from __future__ import annotations

from datetime import timedelta

import pytest

from moderator.models import Announcement, AuditLog, Input, Message
from moderator.services import announce
from tests.browser.console_kit import MANIFESTO, end_phase, flash, local, login, seat, shot, table_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SECRET = "我白天说的身份其实是假的,别说出去哦"  # no action word: the parser cannot tell it from the 宣言
PM = f"今晚用杀手攻击乙。杀人宣言:{MANIFESTO}\n另:{SECRET}\nPS 天神:底牌是杀手,辛苦了"


def repreview(page) -> None:
    page.click("button.manifesto-repreview")
    page.wait_for_selector("#preview")


def test_the_gm_trims_a_leaking_manifesto_in_the_preview_and_only_the_trimmed_text_is_published_nkill_a2(
    page, django_user_model
):
    game = table_game(login(page, django_user_model))
    page.goto(f"/gm/{game.pk}/pm/")
    page.select_option("#id_seat", str(seat(game, "甲").pk))
    page.fill("#id_forum_at", local(game.phases.get().starts_at + timedelta(minutes=10)))
    page.fill("#id_text", PM)
    page.click("button[name=preview]")
    page.wait_for_selector("#preview")
    # What the parser took is shown word for word, secret included, and is in the box to edit.
    assert SECRET in page.inner_text("blockquote.manifesto")
    assert SECRET in page.input_value("textarea.manifesto-edit")

    # Trimmed below the minimum first: flagged in a sentence, the attack would be refused (N-kill).
    page.fill("textarea.manifesto-edit", "你的死期到了")
    repreview(page)
    row = page.inner_text("#preview ~ table")
    assert "将公布 6 字" in row and "不到一次攻击需要的 100 字" in row and "将被拒绝:杀人宣言不够" in row

    # Trimmed to the manifesto proper: the exact text to publish, its count, accepted.
    page.fill("textarea.manifesto-edit", MANIFESTO)
    repreview(page)
    assert page.inner_text("blockquote.manifesto") == MANIFESTO
    row = page.inner_text("#preview ~ table")
    assert "天神修改过" in row and f"将公布 {len(MANIFESTO)} 字" in row and "将被接受" in row
    assert page.input_value("#id_text") == PM  # the pasted PM itself is untouched
    shot(page, "intake-manifesto-trimmed")

    # A further edit not previewed: the confirm stores nothing and shows the new preview.
    page.fill("textarea.manifesto-edit", MANIFESTO + SECRET)
    page.click("#confirm")
    page.wait_for_selector("#preview")
    assert Message.objects.count() == 0 and Input.objects.count() == 0
    assert SECRET in page.inner_text("blockquote.manifesto")

    page.fill("textarea.manifesto-edit", MANIFESTO)
    repreview(page)
    page.click("#confirm")
    assert "杀人宣言按天神修改后的文字公布" in flash(page)
    assert MANIFESTO in page.inner_text("#manifesto-edits")  # the message's page: the raw PM above, the edit here
    message = Message.objects.get(game=game)
    assert message.text.replace("\r\n", "\n") == PM  # the raw PM as pasted (a browser sends CRLF), forever
    assert Input.objects.get(game=game).payload["manifesto"] == MANIFESTO
    assert AuditLog.objects.get(action="录入消息").detail["manifesto_edits"][0]["published"] == MANIFESTO

    end_phase(game)  # dawn of day 1: the draft and the public page
    dawn = Announcement.objects.get(game=game, kind=Announcement.Kind.DAWN)
    assert MANIFESTO[:20] in dawn.bbcode
    page.goto(f"/gm/{game.pk}/announcements/")
    drafts = page.inner_text("body")
    announce.announcement_post(game=game, pk=dawn.pk)  # the 天神 posted it: the public page shows it
    page.goto(f"/games/{game.pk}/")
    public = page.inner_text("body")
    assert MANIFESTO[:20] in public
    for shown in (dawn.bbcode, drafts, public):
        assert SECRET not in shown and "身份" not in shown and "底牌是杀手" not in shown
