"""The 天神 trims the 杀人宣言 before confirming. The preview shows the exact text that will be published
and its count (N-kill); the confirm stores the edited text, the raw PM stays as it was, the edit is in the message's
record and the audit; a confirm whose edit differs from the preview stores nothing; the dawn draft publishes the
edited text."""

from __future__ import annotations

import pytest

from moderator.console.sentences import audit_sentence
from moderator.models import Announcement, AuditLog, Input, Message, Phase
from moderator.services import errors, intake, play, verdicts
from moderator.services.once import Once, form_nonce
from tests.browser.console_kit import MANIFESTO
from tests.intake.conftest import at, console_table, jia

pytestmark = pytest.mark.django_db
SECRET = "我白天说的身份其实是假的,别说出去哦"  # no action word: the parser cannot tell it from the 宣言
PM = f"今晚用杀手攻击乙。杀人宣言:{MANIFESTO}\n另:{SECRET}"


@pytest.fixture
def game():
    return console_table("宣言局")


def preview(game, manifestos=None, text=PM):
    return intake.pm_preview(
        game, intake.Pasted(seat=jia(game), text=text, forum_at=at(game), manifestos=manifestos or {})
    )


def test_the_parser_took_the_secret_line_and_the_preview_shows_it_before_anything_is_stored(game):
    [item] = preview(game).items
    assert SECRET in item.data["manifesto"]  # what the 天神 must be able to trim: the preview shows it word for word
    assert item.key == PM.index("用杀手攻击") and item.attack  # its box is "manifesto-<where the attack was written>"
    assert Message.objects.count() == 0


def test_a_trimmed_manifesto_is_stored_and_published_the_raw_pm_kept_and_the_edit_audited_nkill(game):
    [item] = preview(game).items
    edits = {item.key: MANIFESTO + "\r\n"}  # a browser's textarea: CRLF, a trailing line end
    shown = preview(game, edits)
    [edited] = shown.items
    assert edited.data["manifesto"] == MANIFESTO and edited.accepted and edited.cost == 1
    assert "已按修改后的文字计算" in edited.manifesto_note and f"将公布 {len(MANIFESTO)} 字" in edited.manifesto_note
    marked = "".join(piece for piece, label in shown.evidence if label == "manifesto")
    assert marked == MANIFESTO  # the words still published are the ones marked in the pasted text

    message, _, _ = intake.pm_confirm(
        game, intake.Pasted(seat=jia(game), text=PM, forum_at=at(game), manifestos=edits), seen=shown.digest
    )
    assert message.text == PM  # the raw PM stays as it was, forever
    assert Input.objects.get(message=message).payload["manifesto"] == MANIFESTO
    [edit] = message.parsed["manifesto_edits"]
    assert SECRET in edit["parsed"] and edit["published"] == MANIFESTO
    audit = AuditLog.objects.get(action="录入消息")
    assert audit.detail["manifesto_edits"] == [edit]
    assert "杀人宣言由天神修改后公布" in audit_sentence(audit)  # the audit page says it in a sentence

    night = game.phases.get(status=Phase.Status.OPEN)
    assert play.phase_close(phase=night, now=night.ends_at)
    dawn = Announcement.objects.get(kind=Announcement.Kind.DAWN)
    assert MANIFESTO[:20] in dawn.bbcode and SECRET not in dawn.bbcode and "身份" not in dawn.bbcode


def test_a_confirm_whose_manifesto_was_edited_after_the_preview_stores_nothing(game):
    """The 天神 previewed the trimmed text, then changed the box again and clicked confirm: the digest differs."""
    [item] = preview(game).items
    shown = preview(game, {item.key: MANIFESTO})
    with pytest.raises(verdicts.NotAsSeen):
        intake.pm_confirm(
            game,
            intake.Pasted(seat=jia(game), text=PM, forum_at=at(game), manifestos={item.key: PM}),
            seen=shown.digest,
        )
    with pytest.raises(verdicts.NotAsSeen):  # nor the untrimmed text with the trimmed preview's digest
        intake.pm_confirm(game, intake.Pasted(seat=jia(game), text=PM, forum_at=at(game)), seen=shown.digest)
    assert Message.objects.count() == 0 and Input.objects.count() == 0


def test_a_repeated_confirm_of_an_edited_preview_stores_once(game):
    [item] = preview(game).items
    edits = {item.key: MANIFESTO}
    shown, token = preview(game, edits), form_nonce()
    for _ in range(2):
        try:
            intake.pm_confirm(
                game,
                intake.Pasted(seat=jia(game), text=PM, forum_at=at(game), manifestos=edits),
                seen=shown.digest,
                once=Once(token, game.phases.get().pk),
            )
        except errors.PlayError:
            pass
    assert Message.objects.count() == 1 and Input.objects.get().payload["manifesto"] == MANIFESTO


def test_an_edit_below_the_minimum_length_is_flagged_and_the_attack_refused_in_a_sentence_nkill(game):
    [item] = preview(game).items
    [short] = preview(game, {item.key: "你的死期到了"}).items
    assert "将公布 6 字" in short.manifesto_note and "不到一次攻击需要的 100 字" in short.manifesto_note
    assert (
        not short.accepted and short.reason.startswith("杀人宣言不够") and "至少 100 字,现在只有 6 字" in short.reason
    )
    [empty] = preview(game, {item.key: "  \n "}).items
    assert empty.data.get("manifesto") is None and not empty.accepted and "现在只有 0 字" in empty.reason


def test_an_edit_of_an_input_that_is_not_an_attack_of_the_message_is_refused_and_says_why(game):
    with pytest.raises(errors.PlayError, match="要修改的杀人宣言已经不在这条消息里了"):
        preview(game, {9999: MANIFESTO})
