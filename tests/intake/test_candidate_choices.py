"""A refusal's candidates are one-click choices. A choice turns that refusal into the input the parser says
it would give, marked 天神选定; the raw text is never rewritten; the choice is kept in the message's record and the
audit log; nothing is chosen without a click, and a choice that cannot be applied says why."""

from __future__ import annotations

import pytest
from django.utils import timezone

from moderator.models import AuditLog, Input, Message
from moderator.services import errors, intake
from tests.browser.console_kit import MANIFESTO
from tests.intake.conftest import at, console_table, jia
from tests.tokens import signed

pytestmark = pytest.mark.django_db
UNCLEAR = f"乙和丙都很可疑,今晚杀他。杀人宣言:{MANIFESTO}"


@pytest.fixture
def game():
    return console_table("选定局")


def test_without_a_click_the_unclear_name_stays_a_refusal_with_its_candidates(game):
    preview = intake.pm_preview(game, intake.Pasted(seat=jia(game), text=UNCLEAR, forum_at=at(game)))
    assert preview.items == [] and preview.refusals[0]["candidates"] == ["丙", "乙"]
    assert preview.choices == []


def test_a_chosen_candidate_becomes_the_attack_with_its_manifesto_and_is_stored_as_previewed_n1_nkill(game):
    preview = intake.pm_preview(game, intake.Pasted(seat=jia(game), text=UNCLEAR, forum_at=at(game), choices={0: "乙"}))
    [item] = preview.items
    assert item.sentence.startswith("普通攻击") and item.sentence.endswith("→ 乙(由天神选定)")
    assert (item.accepted, item.cost) == (True, 1)
    assert preview.refusals[0]["choice"] == "乙" and preview.choices == ["0:乙"]

    message, items, _ = intake.pm_confirm(
        game, intake.Pasted(seat=jia(game), text=UNCLEAR, forum_at=at(game), choices={0: "乙"}), seen=preview.digest
    )
    assert message.text == UNCLEAR  # the raw text is never altered
    assert [(i.sentence, i.accepted, i.cost) for i in items] == [(item.sentence, True, 1)]
    rec = Input.objects.get(message=message)
    assert rec.payload["target"] == game.seats.get(player_name="乙").number and rec.payload["manifesto"] == MANIFESTO
    assert message.parsed["refusals"][0]["choice"] == "乙" and message.parsed["inputs"][0]["chosen"] is True
    audit = AuditLog.objects.get(action="录入消息")
    assert audit.detail["chosen"] == [{"text": "今晚杀他", "choice": "乙"}]


def test_a_choice_that_is_not_a_candidate_or_not_about_a_privilege_is_refused_and_says_why(game):
    with pytest.raises(errors.PlayError, match=r"不是.*的候选"):
        intake.pm_preview(game, intake.Pasted(seat=jia(game), text=UNCLEAR, forum_at=at(game), choices={0: "丁"}))
    with pytest.raises(errors.PlayError, match="不能直接选定"):  # B3: an aimed shot without its position
        intake.pm_preview(
            game, intake.Pasted(seat=jia(game), text="乙很可疑,瞄准狙击他", forum_at=at(game), choices={0: "乙"})
        )
    with pytest.raises(errors.PlayError, match="不存在"):
        intake.pm_preview(game, intake.Pasted(seat=jia(game), text=UNCLEAR, forum_at=at(game), choices={5: "乙"}))
    assert Message.objects.count() == 0


def test_the_page_turns_a_click_on_a_candidate_into_the_input_and_the_confirm_stores_it(gm, gm_client, game):
    game.gms.add(gm)
    form = {
        "seat": jia(game).pk,
        "forum_at": timezone.localtime(at(game)).strftime("%Y-%m-%dT%H:%M"),
        "text": UNCLEAR,
        **signed(gm_client, "console_pm", game),
    }
    page = gm_client.post(f"/gm/{game.pk}/pm/", {**form, "preview": "1"}).content.decode()
    assert 'name="pick" value="0:乙"' in page and "天神选定" not in page
    page = gm_client.post(f"/gm/{game.pk}/pm/", {**form, "pick": "0:乙"}).content.decode()
    assert "天神选定:乙" in page and 'name="chosen" value="0:乙"' in page
    seen = page.split('name="seen" value="')[1].split('"')[0]
    done = gm_client.post(f"/gm/{game.pk}/pm/", {**form, "confirm": "1", "chosen": "0:乙", "seen": seen}, follow=True)
    assert "天神选定:乙" in done.content.decode()
    assert Input.objects.get().payload["target"] == game.seats.get(player_name="乙").number
    audit = gm_client.get(f"/gm/{game.pk}/audit/").content.decode()
    assert "→ 乙(由天神选定)" in audit
