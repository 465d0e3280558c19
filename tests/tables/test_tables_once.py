"""The table pages' forms carry one-time tokens signed by the server (tables/once.py), as the 神探狄仁杰 pages' do: a
form sent again (the same token: a double click, a resend) changes nothing and says so; a missing, forged, expired
or foreign token (another seat's page, another table, another kind of form) changes nothing and gets a page saying
why.  These tests post with a plain client, with the tokens a page gave them or made up."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from tables_client import ver

from tables import services
from tables.models import Table
from tables.once import issue_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tables_urls")]
FIVE = ["阿甲", "阿乙", "阿丙", "阿丁", "阿戊"]
TOKEN = re.compile(r'name="once" value="([^"]+)"')


def private_url(table: Table, seat: int) -> str:
    return f"/tables/{table.pk}/p/{table.players[seat]['token']}/"


def host_url(table: Table) -> str:
    return f"/tables/{table.pk}/h/{table.host_token}/"


def form_on(page: str, marker: str) -> dict[str, str]:
    """The hidden fields of the form on ``page`` that contains ``marker`` (its label or op)."""
    for form in re.findall(r"<form.*?</form>", page, flags=re.S):
        if marker in form:
            return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    raise AssertionError(f"no form with {marker}")


HAND = 3  # 暗火线's opening hand, which the form below takes one card from


def anhuoxian(client: Client) -> tuple[Table, dict[str, str]]:
    """A physical 暗火线 table and the first seat's 手牌数变化 form as its page gives it."""
    table = services.create_table("anhuoxian", FIVE, mode="physical", options={"first": 0})
    assert table.load().hand[2] == HAND
    fields = form_on(client.get(private_url(table, 0)).content.decode(), 'value="手牌数变化"')
    return table, {**fields, "target": "2", "delta": "-1"}


def state(table: Table):
    return Table.objects.get(pk=table.pk).load()


def test_every_form_of_a_table_page_carries_a_token_signed_for_its_url_and_one_send_is_recorded():
    client = Client()
    table, data = anhuoxian(client)
    page = client.get(private_url(table, 0)).content.decode()
    assert page.count('name="once"') == page.count("<form") > 0
    assert client.post(private_url(table, 0), data).status_code == 302
    assert state(table).hand[2] == HAND - 1 and table.actions.count() == 1


def test_the_same_form_sent_again_changes_nothing_and_the_page_says_it_was_sent_already():
    client = Client()
    table, data = anhuoxian(client)
    assert client.post(private_url(table, 0), data).status_code == 302
    again = client.post(private_url(table, 0), data)
    html = again.content.decode()
    assert again.status_code == 400 and "这个表单已经提交过了" in html and 'role="alert"' in html
    assert state(table).hand[2] == HAND - 1 and table.actions.count() == 1  # the latest state, once


def test_a_record_only_its_maker_sees_sent_twice_with_one_token_is_recorded_once():
    """The killer's claim moves no version (no other page changes): the token alone tells its resend apart."""
    client = Client()
    table = services.create_table("direnjie_cards", FIVE, mode="physical", options={"killer": True})
    label = "我拿到了杀手牌 A(只有你自己看得到)"
    data = {**form_on(client.get(private_url(table, 2)).content.decode(), label)}
    assert client.post(private_url(table, 2), data).status_code == 302
    version = ver(table)
    again = client.post(private_url(table, 2), data)
    assert again.status_code == 400 and "这个表单已经提交过了" in again.content.decode()
    assert table.actions.count() == 1 and ver(table) == version


@pytest.mark.parametrize(
    ("tamper", "status", "says"),
    [
        (lambda token: "", 400, "缺少一次性令牌"),
        (lambda token: token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB"), 400, "不是本站签发的"),
        (lambda token: "x" * 500, 400, "不是本站签发的(长度不对)"),
        (lambda token: token.replace(":", ";", 1), 400, "不是本站签发的"),
    ],
    ids=["missing", "forged", "too-long", "garbled"],
)
def test_a_missing_or_forged_token_changes_nothing_and_gets_a_page_saying_why(tamper, status, says):
    client = Client()
    table, data = anhuoxian(client)
    response = client.post(private_url(table, 0), {**data, "once": tamper(data["once"])})
    html = response.content.decode()
    assert response.status_code == status and says in html and "什么都没有改动" in html
    assert "回到牌桌页面" in html and response["Cache-Control"] == "private, no-store"
    assert state(table).hand[2] == HAND and not table.actions.exists() and ver(table) == "0"


def test_another_pages_token_is_refused_here():
    """Signed for another seat's link, another table, another kind of form (the sheet's), or expired."""
    client = Client()
    table, data = anhuoxian(client)
    other = services.create_table("anhuoxian", FIVE, mode="physical", options={"first": 0})
    url = private_url(table, 0)
    cases = [
        (issue_for("tables:private", table.pk, table.players[1]["token"]), 403, "发给另一个私人链接"),
        (issue_for("tables:private", other.pk, table.players[0]["token"]), 403, "属于另一张牌桌"),
        (issue_for("tables:sheet", table.pk, table.players[0]["token"]), 400, "为另一种操作签发"),
        (issue_for("tables:host", table.pk, table.host_token), 403, "发给另一个私人链接"),
    ]
    for token, status, says in cases:
        response = client.post(url, {**data, "once": token})
        assert response.status_code == status and says in response.content.decode(), says
    assert state(table).hand[2] == HAND and not table.actions.exists()


def test_an_expired_token_is_refused(settings):
    client = Client()
    table, data = anhuoxian(client)
    settings.ONCE_MAX_AGE = -1  # every token is older than that
    response = client.post(private_url(table, 0), data)
    assert response.status_code == 400 and "这个表单已过期" in response.content.decode()
    assert not table.actions.exists()


def test_the_hosts_undo_and_new_link_sent_again_change_nothing_more():
    client = Client()
    table, data = anhuoxian(client)
    assert client.post(private_url(table, 0), data).status_code == 302
    host = client.get(host_url(table)).content.decode()
    undo = {**form_on(host, 'value="undo"'), "reason": "点错"}
    reset = form_on(host, 'name="seat" value="1"')
    assert client.post(host_url(table), undo).status_code == 302
    again = client.post(host_url(table), undo)
    assert again.status_code == 400 and "这个表单已经提交过了" in again.content.decode()
    assert table.actions.filter(undone=True).count() == 1
    reset["version"] = ver(table)  # the same form, as if the page had refreshed its version but not its token
    assert client.post(host_url(table), reset).status_code == 302
    link = Table.objects.get(pk=table.pk).players[1]["token"]
    assert client.post(host_url(table), {**reset, "version": ver(table)}).status_code == 400
    assert Table.objects.get(pk=table.pk).players[1]["token"] == link


def test_a_sheet_tap_sent_again_with_its_token_changes_nothing():
    client = Client()
    table = services.create_table("direnjie_cards", ["狄仁杰", "李元芳", "曾泰"], mode="physical")
    page = client.get(private_url(table, 0)).content.decode()
    cell = re.search(r'<form method="post" action="sheet/">(.*?)</form>', page, flags=re.S).group(1)
    token = TOKEN.search(cell).group(1)
    data = {"cell": "W3:1", "once": token}
    assert client.post(private_url(table, 0) + "sheet/", data).status_code == 302
    again = client.post(private_url(table, 0) + "sheet/", data)
    assert again.status_code == 400 and "这个表单已经提交过了" in again.content.decode()
    assert Table.objects.get(pk=table.pk).players[0]["sheet"] == {"W3:1": "✓"}


def test_the_create_form_needs_the_token_its_page_gave_and_made_one_table_per_token():
    client = Client()
    data = {"kind": "noir", "players": "甲,乙"}
    forged = client.post("/tables/", {**data, "once": "abc"})
    assert forged.status_code == 400 and "不是本站签发的" in forged.content.decode() and not Table.objects.exists()
    assert "回到开桌页面" in forged.content.decode()
    once = TOKEN.search(client.get("/tables/").content.decode()).group(1)
    for _ in range(2):
        assert client.post("/tables/", {**data, "once": once}).status_code == 200
    assert Table.objects.count() == 1
