"""In a real headless Chromium at a phone's size: each game's physical-deck table is created from the
form and played to the end through the players' private pages; pages update themselves when someone else acts."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from django.conf import settings
from tables_playout import choose, private_url
from tables_world import TABLE_PLAYERS

if "tables" in settings.INSTALLED_APPS:
    from tables import services
    from tables.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tables_urls")]
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def shot(page, name):
    """Screenshots of the table pages for docs/ (written when SCREENSHOTS=1)."""
    if os.environ.get("SCREENSHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def create(page, kind, selects=None, seats=None, **extra):
    """A table made on the creation form with the first `seats` players of the game's list (all of them by default)."""
    page.goto("/tables/")
    page.select_option("#id_kind", kind)
    page.select_option("#id_mode", "physical")
    for field, value in (selects or {}).items():
        page.select_option(f"#id_{field}", value)
    page.fill("#id_players", ",".join(TABLE_PLAYERS[kind][:seats]))
    for field, value in extra.items():
        page.fill(f"#id_{field}", value)
    page.click("button[type=submit]")
    page.wait_for_selector("#host-link")
    assert "随机种子" not in page.inner_text("main")
    table = Table.objects.get()
    # Deal again from a recorded seed so that every run of this test plays the same game.
    table.seed = "17"
    table.state = table.new_state().to_dict()
    table.save()
    return table


def post_in_browser(page, table, seat, spec, values):
    if not page.url.endswith(private_url(table, seat)):
        # After a seat's own post the browser is back on that seat's page, rendered after the record: no reload.
        page.goto(private_url(table, seat))
    box = page.locator("form.action", has=page.locator(f'input[name="label"][value="{spec["label"]}"]')).first
    for p in spec["params"]:
        chosen = values.get(p["name"], [])
        if p["kind"] in ("multi", "seats"):
            for value in chosen:
                box.locator(f'input[name="{p["name"]}"][value="{value}"]').check()
        elif p["kind"] == "sources":
            for i, value in enumerate(chosen):
                box.locator(f'select[name="{p["name"]}"]').nth(i).select_option(value)
        elif p["kind"] in ("number", "text"):
            box.locator(f'input[name="{p["name"]}"]').fill(chosen[0])
        elif p["kind"] != "hidden":
            box.locator(f'select[name="{p["name"]}"]').select_option(chosen[0])
    with page.expect_navigation():
        box.locator("button[type=submit]").click()
    assert page.locator('[role="alert"]').count() == 0, page.inner_text('[role="alert"]')


def play_in_browser(page, table, rng, limit=400):
    for step in range(limit):
        table.refresh_from_db()
        state = table.load()
        if table.rules.winner(state):
            return step
        seat, spec, values, _, _ = choose(table.rules, state, rng)
        post_in_browser(page, table, seat, spec, values)
    raise AssertionError("the table did not reach the end")


def finish(page, table, name):
    page.goto(f"/tables/{table.pk}/")
    text = page.inner_text("main")
    assert "结果" in text and "获胜" in text and "本局随机种子" in text
    shot(page, name)
    assert table.rebuild().to_dict() == Table.objects.get().state


def test_a_sanguosha_table_with_its_own_box_is_played_to_the_end(phone):
    table = create(phone, "sanguosha")
    lord = table.load().lord
    phone.goto(private_url(table, lord))
    assert "你的身份是主公" in phone.inner_text("main") and "曹操(魏 · 男 · 4 体力)" in phone.content()
    shot(phone, "tables-sanguosha-lord")
    play_in_browser(phone, table, random.Random(5))
    finish(phone, table, "tables-sanguosha-end")


def test_an_anhuoxian_table_is_played_to_the_end_and_pages_follow_without_reloading(phone):
    table = create(phone, "anhuoxian", roles="1,2,1")
    state = table.load()
    nxt = (state.current - 1) % 4
    phone.goto(private_url(table, nxt))
    assert phone.locator(".yourturn").count() == 0
    services.act(table.pk, state.current, {"type": "end_turn"})
    phone.wait_for_selector(".yourturn", timeout=10_000)  # no navigation: the page polled and swapped itself
    assert phone.title().startswith("【轮到你】")
    shot(phone, "tables-anhuoxian-your-turn")
    play_in_browser(phone, table, random.Random(2))
    finish(phone, table, "tables-anhuoxian-end")


def test_a_direnjie_card_table_with_real_cards_is_played_to_the_end(phone):
    table = create(phone, "direnjie_cards", seats=3, start="1")
    phone.goto(private_url(table, 0))
    phone.locator('button[value="T3:1"]').click()
    phone.wait_for_selector('button[value="T3:1"]:has-text("✓")')
    shot(phone, "tables-direnjie-sheet")
    # Three players, rng 26: 31 records to the end (rng 3 took 67; six players took 154), the same six kinds of form
    # and every branch of tables/rules that rng 3 reached (coverage.py, branch arcs of the same random play without
    # the browser; six players reach 3 arcs more, which the six-player tests of test_tables_pages.py play).
    play_in_browser(phone, table, random.Random(26))
    finish(phone, table, "tables-direnjie-end")


def test_a_noir_table_is_played_to_the_end_with_the_killer_chosen_at_creation(phone):
    table = create(phone, "noir", selects={"noir_killer": "1"})
    assert table.load().killer == 1
    play_in_browser(phone, table, random.Random(4), limit=600)
    finish(phone, table, "tables-noir-end")


def test_on_a_phone_the_host_page_fits_and_a_double_clicked_record_applies_once(phone):
    """The host page fits 390 px, and a form sent twice (a double click) applies once."""
    table = services.create_table("sanguosha", TABLE_PLAYERS["sanguosha"], mode="physical")
    phone.goto(f"/tables/{table.pk}/h/{table.host_token}/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    for seat in [table.load().lord, *(p for p in range(5) if p != table.load().lord)]:
        general = Table.objects.get(pk=table.pk).load().candidates[seat][0]
        services.act(table.pk, seat, {"type": "choose_general", "general": general})
    phone.goto(private_url(table, 2))
    form = phone.locator("form.action", has_text="手牌数变化")
    form.locator("select[name=target]").select_option("3")
    form.locator("select[name=delta]").select_option("-1")
    before = Table.objects.get(pk=table.pk).load().hand[3]
    form.locator("button").dblclick()  # a double click: two posts with the same version
    phone.get_by_text("曹操 失去 1 张牌").first.wait_for()  # whichever answer the browser shows last
    phone.wait_for_load_state("networkidle")
    assert Table.objects.get(pk=table.pk).load().hand[3] == before - 1
    assert Table.objects.get(pk=table.pk).actions.filter(action__type="hand").count() == 1
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
