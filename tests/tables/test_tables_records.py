"""A record sent twice, or by two seats at once, applies once; a malformed token is
a 404; the create form sent four times makes one table; the host's corrections stay within the rules' bounds."""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection
from tables_client import ver

from tables import services
from tables.models import Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tables_urls")]

FIVE = ["阿甲", "阿乙", "阿丙", "阿丁", "阿戊"]


def private_url(table: Table, seat: int) -> str:
    return f"/tables/{table.pk}/p/{table.players[seat]['token']}/"


def host_url(table: Table) -> str:
    return f"/tables/{table.pk}/h/{table.host_token}/"


def state(table: Table):
    return Table.objects.get(pk=table.pk).load()


def test_the_same_hit_sent_twice_applies_once_and_the_second_says_why(client):
    table = services.create_table("anhuoxian", FIVE, mode="physical")
    data = {"type": "hp", "label": "体力变化", "target": "2", "delta": "-1", "source": "none", "version": ver(table)}
    assert client.post(private_url(table, 0), data).status_code == 302
    again = client.post(private_url(table, 0), data)
    assert again.status_code == 400 and "这次提交没有生效" in again.content.decode()
    assert state(table).hp[2] == 3
    assert Table.objects.get(pk=table.pk).actions.count() == 1


def test_two_seats_recording_the_same_hit_from_the_same_page_version_apply_once(client):
    table = services.create_table("sanguosha", FIVE, mode="physical")
    current = state(table)
    for seat in [current.lord, *(p for p in range(5) if p != current.lord)]:
        services.act(table.pk, seat, {"type": "choose_general", "general": state(table).candidates[seat][0]})
    hp = state(table).hp[2]
    data = {"type": "hp", "label": "体力变化", "target": "2", "delta": "-1", "source": "3", "version": ver(table)}
    answers = [client.post(private_url(table, seat), data).status_code for seat in (0, 4)]
    assert sorted(answers) == [302, 400] and state(table).hp[2] == hp - 1


def test_the_hosts_end_turn_sent_twice_skips_nobody(client):
    table = services.create_table("anhuoxian", FIVE, mode="physical", options={"first": 0})
    data = {"type": "end_turn", "label": "结束 阿甲 的回合", "version": ver(table)}
    assert client.post(host_url(table), data).status_code == 302
    assert client.post(host_url(table), data).status_code == 400
    assert state(table).current == 4  # counter-clockwise: the previous seat, once


def test_undo_sent_twice_undoes_one_record_and_says_what_it_was(client):
    table = services.create_table("anhuoxian", FIVE, mode="physical")
    for target in ("1", "2"):
        data = {"type": "hand", "label": "手牌数变化", "target": target, "delta": "-1", "version": ver(table)}
        assert client.post(private_url(table, 0), data).status_code == 302
    undo = {"op": "undo", "reason": "点错", "version": ver(table)}
    assert client.post(host_url(table), undo).status_code == 302
    assert client.post(host_url(table), undo).status_code == 400
    s = state(table)
    assert s.hand[1] == 2 and s.hand[2] == 3
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "主持人撤销了:阿丙 失去 1 张牌,手牌 2 张。〔阿甲 记录〕 理由:点错" in page
    assert "第 2 条" not in page


def test_a_form_without_its_version_changes_nothing(client):
    table = services.create_table("anhuoxian", FIVE, mode="physical")
    response = client.post(private_url(table, 0), {"type": "hand", "label": "手牌数变化", "target": "1", "delta": "1"})
    assert response.status_code == 400 and "缺少局面版本" in response.content.decode()
    assert not Table.objects.get(pk=table.pk).actions.exists()


def test_next_game_needs_its_confirmation_and_sent_twice_starts_one_game(client):
    table = services.create_table("direnjie_cards", ["甲", "乙"], mode="physical", options={"target": 50})
    s = table.load()
    s.phase, s.answers, s.mission = "over", [{"T": 1, "W": 1, "L": 1, "killer": None}] * 2, {"T": 1, "W": 2, "L": 2}
    Table.objects.filter(pk=table.pk).update(state=s.to_dict())
    page = client.get(host_url(table)).content.decode()
    assert 'name="confirm" value="1" required' in page
    data = {"op": "next", "confirm": "1", "version": ver(table)}
    assert client.post(host_url(table), data).status_code == 302
    assert client.post(host_url(table), data).status_code == 400
    assert Table.objects.get(pk=table.pk).round == 2


def test_the_create_form_sent_four_times_makes_one_table_and_shows_its_links_each_time(client):
    page = client.get("/tables/").content.decode()
    once = re.search(r'name="once" value="([^"]+)"', page).group(1)
    data = {"kind": "noir", "players": "甲,乙", "once": once}
    hosts = set()
    for _ in range(4):
        response = client.post("/tables/", data)
        assert response.status_code == 200
        hosts.add(re.search(r'id="host-link">([^<]+)<', response.content.decode()).group(1))
    assert Table.objects.count() == 1 and len(hosts) == 1
    fresh = re.search(r'name="once" value="([^"]+)"', client.get("/tables/").content.decode()).group(1)
    assert fresh != once


@pytest.mark.parametrize("token", ["é", "²", "１", "ＡＢ", "%F0%9F%98%80", "a" * 300])
def test_a_malformed_token_is_a_404_never_a_500(client, token):
    table = services.create_table("direnjie_cards", ["甲", "乙"], mode="physical")
    for url in (f"/tables/{table.pk}/p/{token}/", f"/tables/{table.pk}/h/{token}/"):
        assert client.get(url).status_code == 404
        assert client.post(url, {"type": "hand"}).status_code == 404
    assert client.post(f"/tables/{table.pk}/p/{token}/sheet/", {"cell": "T1:0"}).status_code == 404


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [("hand", "-3", "手牌数不能是负数"), ("hp", "9", "体力只能填"), ("max_hp", "0", "体力上限至少是 1")],
)
def test_the_hosts_correction_stays_within_the_rules(client, field, value, message):
    table = services.create_table("anhuoxian", FIVE, mode="physical")
    data = {"type": "correct", "label": "更正数值", "target": "1", "field": field, "value": value, "reason": "补记"}
    response = client.post(host_url(table), {**data, "version": ver(table)})
    assert response.status_code == 400 and message in response.content.decode()
    assert state(table).hand[1] == 3 and state(table).hp[1] == 4


def test_a_dead_general_discards_his_hand():
    table = services.create_table("sanguosha", FIVE, mode="physical")
    for seat in [state(table).lord, *(p for p in range(5) if p != state(table).lord)]:
        services.act(table.pk, seat, {"type": "choose_general", "general": state(table).candidates[seat][0]})
    victim = next(p for p in range(5) if p != state(table).lord)
    services.act(table.pk, None, {"type": "death", "target": victim, "source": "none"})
    s = state(table)
    assert s.hand[victim] == 0 and "弃置所有手牌" in "".join(e["text"] for e in s.log)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_record_sent_concurrently_applies_once_on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (row locks)")
    table = services.create_table("anhuoxian", FIVE, mode="physical")
    version = Table.objects.get(pk=table.pk).version
    outcomes: list[str] = []
    start = threading.Barrier(4)

    def record() -> None:
        start.wait()
        try:
            services.act(table.pk, 0, {"type": "hp", "target": 2, "delta": -1, "source": "none"}, version)
            outcomes.append("applied")
        except services.StaleForm:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=record) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["applied", "stale", "stale", "stale"]
    assert state(table).hp[2] == 3


def test_anhuoxian_warrant_is_a_private_peek_and_the_final_death_moves_the_loot(client):
    from tables.rules import anhuoxian_table as aht

    s = aht.new_game(FIVE, 7, {"warrant": True, "first": 0})
    target = 1
    s2, events = aht.apply(s, {"type": "warrant", "player": 0, "target": target})
    assert events[0] == {"text": "阿甲 使用搜查令查看了 阿乙 的身份牌。〔阿甲 记录〕", "to": None}
    assert events[1] == {"text": f"搜查令:阿乙 的身份是{s.roles[target]}。", "to": [0]}
    assert all(row["role"] is None for row in aht.view(s2, None)["seats"])
    # the final death: the killer takes the victim's cards even though the game ends with it
    s = aht.new_game(FIVE, 7, {"first": 0})
    terrorists = [p for p in range(5) if s.roles[p] == "绑匪"]
    killer = next(p for p in range(5) if p not in terrorists)
    for victim in terrorists:
        before, loot = s.hand[killer], s.hand[victim]
        s = aht.apply(s, {"type": "death", "player": "host", "target": victim, "source": killer})[0]
        assert s.hand[killer] == before + loot
    assert s.phase == "over"


def test_noir_offers_no_kill_form_without_a_living_neighbour():
    from tables.rules import noir, noir_view

    s = noir.new_game(["甲", "乙"], 3, {"killer": 0})
    for row in s.grid:
        for cell in row:
            if cell["name"] != s.killer_identity:
                cell["dead"] = True
    assert all(f["type"] != "kill" for f in noir_view.forms(s, 0))
