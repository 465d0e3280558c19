"""The PM intake page in Chromium: a PM entered out of forum order is previewed as the confirm will judge it (T3,
AP4), and an unclear name's candidates are one-click choices."""

from __future__ import annotations

from datetime import timedelta

import pytest

from moderator.models import Input, Message
from moderator.services import intake, verdicts
from tests.browser.console_kit import MANIFESTO, flash, local, login, seat, shot, table_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def paste(page, game, who: str, text: str, forum_at) -> None:
    page.goto(f"/gm/{game.pk}/pm/")
    page.select_option("#id_seat", str(seat(game, who).pk))
    page.fill("#id_forum_at", local(forum_at))
    page.fill("#id_text", text)
    page.click("button[name=preview]")
    page.wait_for_selector("#preview")


def stored_verdicts(game) -> dict[str, str]:
    names = dict(game.seats.values_list("number", "player_name"))
    rows = Input.objects.filter(game=game).select_related("verdict")
    return {intake.codec.describe(r.kind, r.payload, names): verdicts.verdict_text(r.verdict) for r in rows}


def test_an_earlier_pm_is_previewed_in_forum_order_and_the_confirm_stores_what_was_shown_t3_ap4(
    page, django_user_model
):
    """乙 holds 3 AP. 束魂 丙 at +20 min is entered first (accepted, −2); then 禁锢 丁 stamped +10 min. In forum
    order the 禁锢 comes first: the preview says the message is earlier than 1 input, the 禁锢 is accepted and the
    束魂 becomes refused (1 AP left) — and after the confirm the stored verdicts are exactly those."""
    game = table_game(login(page, django_user_model))
    start = game.phases.get().starts_at
    paste(page, game, "乙", "束魂 丙", start + timedelta(minutes=20))
    page.click("#confirm")
    assert "已保存" in flash(page)

    paste(page, game, "乙", "禁锢 丁", start + timedelta(minutes=10))
    assert "早于本时段已经录入的 1 条输入" in page.inner_text("#out-of-order")
    row = page.inner_text("#verdict-changes")
    assert "束魂 → 丙" in row and "接受(−2 点)" in row and "拒绝:" in row
    shown_after = page.inner_text("#verdict-changes tr:nth-child(2) td:nth-child(4)")
    shot(page, "intake-out-of-order")
    assert Message.objects.filter(game=game).count() == 1
    page.click("#confirm")
    assert "已保存" in flash(page)
    assert stored_verdicts(game) == {"禁锢(禁锢/反狙击) → 丁": "接受(−2 点)", "束魂 → 丙": shown_after}


def test_a_candidate_of_an_unclear_name_is_one_click_and_the_confirm_stores_that_input(page, django_user_model):
    """ "今晚杀他" after two names: the refusal's candidates are buttons; a click previews the attack on the chosen
    player (天神选定:乙) with its cost, the raw text unchanged; the confirm stores exactly that input."""
    game = table_game(login(page, django_user_model))
    text = f"乙和丙都很可疑,今晚杀他。杀人宣言:{MANIFESTO}"
    paste(page, game, "甲", text, game.phases.get().starts_at + timedelta(minutes=10))
    assert "没有读出任何行动" in page.inner_text("#preview ~ table")
    assert page.locator("button.candidate").all_inner_texts() == ["丙", "乙"]
    page.click("button.candidate:text-is('乙')")
    page.wait_for_selector(".chosen")
    assert "天神选定:乙" in page.inner_text(".chosen")
    row = page.inner_text("#preview ~ table")
    assert "→ 乙(由天神选定)" in row and "将被接受" in row
    assert page.input_value("#id_text") == text
    shot(page, "intake-candidate-chosen")
    page.click("#confirm")
    assert "天神选定:乙" in flash(page)
    message = Message.objects.get(game=game)
    assert message.text == text and message.parsed["refusals"][0]["choice"] == "乙"
    rec = Input.objects.get(game=game)
    assert rec.payload["target"] == seat(game, "乙").number and rec.verdict.accepted and rec.verdict.cost == 1


def test_the_action_form_shows_what_an_earlier_entry_would_change_and_asks_before_saving_t3_ap4(
    page, django_user_model
):
    """The structured form has no preview: an entry stamped earlier than 乙's accepted 束魂 that would leave it
    without AP is not saved on the first click; the page names the change and saves only on the confirm."""
    game = table_game(login(page, django_user_model))
    start = game.phases.get().starts_at
    paste(page, game, "乙", "束魂 丙", start + timedelta(minutes=20))
    page.click("#confirm")
    flash(page)
    page.goto(f"/gm/{game.pk}/action/")
    page.select_option("#id_seat", str(seat(game, "乙").pk))
    page.fill("#id_forum_at", local(start + timedelta(minutes=10)))
    page.select_option("#id_use", "禁锢")
    page.select_option("#id_target", "丁")
    page.click("form button[type=submit]")
    page.wait_for_selector("#ripple")
    assert "早于本时段已经录入的 1 条输入" in page.inner_text("#ripple")
    shown_after = page.inner_text("#verdict-changes tr:nth-child(2) td:nth-child(4)")
    assert shown_after.startswith("拒绝:") and Input.objects.filter(game=game).count() == 1
    page.click("#confirm-ripple")
    assert "已接受" in flash(page)
    assert stored_verdicts(game)["束魂 → 丙"] == shown_after
