"""The trackers' last rough edges: the electronic 三国杀 says what it is, a 搜查令's undo says what stays, and a
tampered form reads as a sentence."""

from __future__ import annotations

import random
import re

import pytest
from django.conf import settings
from tables_client import ver
from tables_playout import choose

if "tables" in settings.INSTALLED_APPS:
    from tables import services
    from tables.models import Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tables_urls")]

FIVE = ["阿甲", "阿乙", "阿丙", "阿丁", "阿戊"]


def private_url(table, seat):
    return f"/tables/{table.pk}/p/{table.players[seat]['token']}/"


def host_url(table):
    return f"/tables/{table.pk}/h/{table.host_token}/"


def title_of(html: str) -> str:
    found = re.search(r"<title>(.*?)</title>", html, flags=re.S)
    assert found
    return found.group(1)


def test_the_electronic_sanguosha_is_named_basic_card_practice_in_its_name_tab_title_and_the_list(client):
    digital = services.create_table("sanguosha", FIVE, mode="digital")
    physical = services.create_table("sanguosha", FIVE, mode="physical")
    assert "基本牌练习" in digital.name and "基本牌练习" not in physical.name
    assert "基本牌练习" in title_of(client.get(f"/tables/{digital.pk}/").content.decode())
    assert "基本牌练习" not in title_of(client.get(f"/tables/{physical.pk}/").content.decode())
    named = services.create_table("sanguosha", FIVE, mode="digital", name="周五练习桌")
    listing = client.get("/tables/").content.decode()
    row = re.search(r"周五练习桌</a></td><td>(.*?)</td>", listing)
    assert row and "基本牌练习" in row.group(1)
    assert "基本牌练习" in title_of(client.get(f"/tables/{named.pk}/").content.decode())


def test_undoing_a_warrant_after_its_user_saw_the_role_says_plainly_that_the_knowledge_stays(client):
    table = services.create_table("anhuoxian", FIVE, mode="physical", options={"warrant": True, "first": 0})
    seen = client.post(
        private_url(table, 0),
        {"type": "warrant", "label": "使用搜查令(只有你看到身份)", "target": "2", "version": ver(table)},
    )
    assert seen.status_code == 302
    role = Table.objects.get(pk=table.pk).load().roles[2]
    assert f"搜查令:阿丙 的身份是{role}" in client.get(private_url(table, 0)).content.decode()
    before = client.get(host_url(table)).content.decode()
    assert "阿甲 已经看到了 阿丙 的身份" in before and "收不回来" in before  # said before the host undoes it
    undo = client.post(host_url(table), {"op": "undo", "reason": "点错了", "version": ver(table)})
    assert undo.status_code == 302
    public = client.get(f"/tables/{table.pk}/").content.decode()
    assert "主持人撤销了" in public and "阿甲 知道的身份收不回来" in public
    assert role not in public.split("主持人撤销了")[1].split("</li>")[0]  # the note names nobody's role


def test_a_tampered_form_shows_a_sentence_naming_the_offered_choices_never_an_internal_code(client):
    table = services.create_table("noir", ["福尔摩斯", "莫里亚蒂"], seed=3, options={"killer": 0})
    rng = random.Random(3)
    for _ in range(10):  # the first turns (a kill, the inspector's identity) until someone may shift a row
        table.refresh_from_db()
        state = table.load()
        shifters = [p for p in range(2) if any(f["type"] == "shift" for f in table.rules.forms(state, p))]
        if shifters:
            break
        seat, spec, values, _, _ = choose(table.rules, state, rng)
        data = {"type": spec["type"], "label": spec["label"], "version": ver(table), **values}
        assert client.post(private_url(table, seat), data).status_code == 302
    killer = shifters[0]
    data = {"type": "shift", "label": "推移一排", "axis": "diag", "index": "0", "dir": "1", "version": ver(table)}
    response = client.post(private_url(table, killer), data)
    html = response.content.decode()
    assert response.status_code == 400
    assert "「方向」只能从表单给出的选项中选:横排、直排" in html
    text = re.sub(r"<(script|style)[^>]*>.*?</\1>|<[^>]+>", " ", html, flags=re.S)
    assert not re.findall(r"\b(axis|row|col|dir|target)\b", text)


def test_a_physical_record_with_a_seat_the_form_did_not_offer_is_refused_with_the_names_offered(client):
    table = services.create_table("sanguosha", FIVE, mode="physical")
    data = {"type": "correct", "label": "更正数值", "target": "0", "field": "stamina", "value": "1", "reason": "x"}
    response = client.post(host_url(table), {**data, "version": ver(table)})
    html = response.content.decode()
    assert response.status_code == 400 and "「项目」只能从表单给出的选项中选:体力、体力上限、手牌数" in html
    assert "stamina" in html and "(field)" not in html  # the raw input is quoted back, the code is not
