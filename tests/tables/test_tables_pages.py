"""The table pages: secrets never cached or shown early, the host's tools, live pages, and no input ever 500s."""

from __future__ import annotations

import random
import re

import pytest
from django.conf import settings
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from tables_client import ver
from tables_playout import choose
from tables_world import TABLE_PLAYERS

if "tables" in settings.INSTALLED_APPS:
    from tables import services, views
    from tables.models import Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tables_urls")]

SECRET_HEADERS = {
    "Cache-Control": "private, no-store",
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex, nofollow",
}


def private_url(table, seat):
    return f"/tables/{table.pk}/p/{table.players[seat]['token']}/"


def host_url(table):
    return f"/tables/{table.pk}/h/{table.host_token}/"


def assert_secret_page(response):
    assert response.status_code == 200
    for header, value in SECRET_HEADERS.items():
        assert response[header] == value
    assert '<meta name="robots" content="noindex, nofollow">' in response.content.decode()


def play_to_the_end(client, table, rng, url_for=private_url):
    for _ in range(3000):
        table.refresh_from_db()
        state = table.load()
        if table.rules.winner(state):
            return
        seat, spec, values, _, _ = choose(table.rules, state, rng)
        data = {"type": spec["type"], "label": spec["label"], "version": str(table.version), **values}
        response = client.post(url_for(table, seat), data)
        assert response.status_code == 302, response.content.decode()[-500:]
    raise AssertionError("the game did not end")


def test_seeds_are_128_bit_draws_from_secrets_and_the_created_page_never_shows_them(client):
    response = client.post("/tables/", {"kind": "noir", "players": "甲,乙", "mode": "physical"})
    other = services.create_table("noir", ["甲", "乙"])
    table = Table.objects.exclude(pk=other.pk).get()
    assert table.seed != other.seed and 0 <= int(table.seed) < 2**128
    assert max(int(table.seed), int(other.seed)).bit_length() > 64  # not 31-bit any more (fails 1 time in 2**63)
    text = response.content.decode()
    assert table.seed not in text and str(table.round_seed()) not in text and "种子" not in text
    assert table.host_token in text and all(p["token"] in text for p in table.players)
    assert_secret_page(response)


def test_the_seed_of_a_game_appears_only_once_it_is_over(client):
    table = services.create_table("anhuoxian", TABLE_PLAYERS["anhuoxian"], mode="physical")
    seed = str(table.round_seed())
    assert seed not in client.get(f"/tables/{table.pk}/").content.decode()
    play_to_the_end(client, table, random.Random(1))
    assert f"本局随机种子 {seed}" in client.get(f"/tables/{table.pk}/").content.decode()
    assert table.seed not in client.get(f"/tables/{table.pk}/").content.decode()


def test_private_and_host_pages_are_never_cached_referred_or_indexed_and_the_public_page_has_its_own_header(client):
    table = services.create_table("sanguosha", TABLE_PLAYERS["sanguosha"], mode="physical")
    assert_secret_page(client.get(private_url(table, 0)))
    assert_secret_page(client.get(host_url(table)))
    public = client.get(f"/tables/{table.pk}/")
    assert "noindex" not in public.content.decode() and "天神助手" not in public.content.decode()
    assert "桌游记录" in public.content.decode()
    assert client.get(f"/tables/{table.pk}/h/wrong/").status_code == 404


def test_table_creation_is_limited_per_address(client):
    for _ in range(views.CREATE_LIMIT):
        assert client.post("/tables/", {"kind": "noir", "players": "甲,乙"}).status_code == 200
    response = client.post("/tables/", {"kind": "noir", "players": "甲,乙"})
    assert response.status_code == 429 and "开桌太频繁" in response.content.decode()
    assert Table.objects.count() == views.CREATE_LIMIT
    other = client.post("/tables/", {"kind": "noir", "players": "甲,乙"}, REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 200


def test_the_direnjie_card_game_keeps_every_private_line_of_a_six_player_game(client):
    table = services.create_table("direnjie_cards", TABLE_PLAYERS["direnjie_cards"], seed=6)
    play_to_the_end(client, table, random.Random(6))
    table.refresh_from_db()
    mine = [e["text"] for e in table.load().log if e["to"] is not None and 0 in e["to"]]
    assert len(mine) > 20
    page = client.get(private_url(table, 0)).content.decode()
    missing = [line for line in mine if line.replace("<", "&lt;") not in page]
    assert not missing


def test_the_host_undoes_the_last_record_with_a_reason_and_the_state_is_rebuilt(client):
    table = services.create_table("anhuoxian", TABLE_PLAYERS["anhuoxian"], mode="physical")
    before = table.load().to_dict()
    data = {"type": "hand", "label": "手牌数变化", "target": "2", "delta": "-2", "version": ver(table)}
    response = client.post(private_url(table, 1), data)
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.load().hand[2] == before["hand"][2] - 2
    assert client.post(host_url(table), {"op": "undo", "reason": "记错人了", "version": ver(table)}).status_code == 302
    table.refresh_from_db()
    assert table.state == before and table.actions.get().undone
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "主持人撤销了:阿丙 失去 2 张牌,手牌 1 张。〔阿乙 记录〕 理由:记错人了" in page
    assert "没有可以撤销" in client.post(host_url(table), {"op": "undo", "version": ver(table)}).content.decode()


def test_the_host_corrects_a_value_with_a_logged_reason(client):
    table = services.create_table("sanguosha", TABLE_PLAYERS["sanguosha"], mode="physical")
    data = {"type": "correct", "label": "更正数值", "target": "3", "field": "hand", "value": "9", "reason": "补记"}
    assert client.post(host_url(table), {**data, "version": ver(table)}).status_code == 302
    table.refresh_from_db()
    assert table.load().hand[3] == 9
    assert "主持人更正:曹操 的手牌数 4 → 9。理由:补记" in client.get(f"/tables/{table.pk}/").content.decode()
    refused = client.post(private_url(table, 0), {**data, "version": ver(table)})
    assert refused.status_code == 400


def test_a_series_rotates_the_lord_and_keeps_a_running_score(client):
    response = client.post(
        "/tables/",
        {"kind": "sanguosha", "mode": "physical", "players": ",".join(TABLE_PLAYERS["sanguosha"]), "rotate_lord": "on"},
    )
    table = Table.objects.get()
    host = re.search(r'id="host-link">([^<]+)<', response.content.decode()).group(1)
    assert host.endswith(host_url(table))
    assert table.load().lord == 0
    play_to_the_end(client, table, random.Random(2))
    table.refresh_from_db()
    first = table.rules.score(table.load())
    unconfirmed = client.post(host_url(table), {"op": "next", "version": ver(table)})
    assert unconfirmed.status_code == 400 and "请勾选确认" in unconfirmed.content.decode()
    assert client.post(host_url(table), {"op": "next", "confirm": "1", "version": ver(table)}).status_code == 302
    table.refresh_from_db()
    assert table.round == 2 and table.load().lord == 4 and table.load().phase == "lord_general"  # the 下家: the right
    assert services.totals(table) == first
    assert "第 2 局" in client.get(f"/tables/{table.pk}/").content.decode()


def test_a_direnjie_series_stops_at_the_target_score():
    table = services.create_table("direnjie_cards", ["甲", "乙"], mode="physical", options={"target": 1})
    state = table.load()
    state.phase, state.answers = "over", [{"T": 1, "W": 1, "L": 1, "killer": None}] * 2
    state.mission = {"T": 1, "W": 2, "L": 2}
    Table.objects.filter(pk=table.pk).update(state=state.to_dict())
    table.refresh_from_db()
    assert services.series_over(table)
    with pytest.raises(services.RuleError, match="系列赛已经结束"):
        services.next_game(table.pk)


def test_the_host_recovers_or_replaces_a_lost_private_link(client):
    table = services.create_table("noir", TABLE_PLAYERS["noir"])
    page = client.get(host_url(table)).content.decode()
    assert private_url(table, 1) in page
    old = private_url(table, 1)
    assert client.post(host_url(table), {"op": "reset", "seat": "1", "version": ver(table)}).status_code == 302
    table.refresh_from_db()
    assert client.get(old).status_code == 404 and client.get(private_url(table, 1)).status_code == 200
    assert client.post(host_url(table), {"op": "reset", "seat": "²", "version": ver(table)}).status_code == 400


def test_the_deduction_sheet_cycles_its_marks_and_only_its_owner_sees_it(client):
    table = services.create_table("direnjie_cards", TABLE_PLAYERS["direnjie_cards"][:3], mode="physical")
    url = private_url(table, 0) + "sheet/"
    for shown in ("", "✓"):
        assert client.post(url, {"cell": "W3:1", "was": shown}).status_code == 302
    assert client.post(url, {"cell": "W3:1", "was": "✓"}).status_code == 302  # the second tap sent twice: no change
    table.refresh_from_db()
    assert table.players[0]["sheet"] == {"W3:1": "✗"}
    # The cell's spoken name carries its mark: a screen reader hears "W3 · 李元芳:✗ 没有/不是", not "W3:1".
    assert 'value="W3:1" aria-label="W3 · 李元芳:✗ 没有/不是">✗<' in client.get(private_url(table, 0)).content.decode()
    assert 'W3:1" aria-label="W3 · 李元芳:✗' not in client.get(private_url(table, 1)).content.decode()
    assert "推理表" not in client.get(f"/tables/{table.pk}/").content.decode()
    assert client.post(url, {"cell": "Z9:1"}).status_code == 400


def test_pages_announce_your_turn_and_a_version_that_moves_with_every_record(client):
    table = services.create_table("anhuoxian", TABLE_PLAYERS["anhuoxian"], mode="physical", options={"first": 2})
    assert "轮到你了" in client.get(private_url(table, 2)).content.decode()
    assert "【轮到你】" in client.get(private_url(table, 2)).content.decode()
    assert "轮到你了" not in client.get(private_url(table, 1)).content.decode()
    version = client.get(f"/tables/{table.pk}/v/").json()["version"]
    client.post(private_url(table, 2), {"type": "end_turn", "label": "结束 阿丙 的回合", "version": ver(table)})
    assert client.get(f"/tables/{table.pk}/v/").json()["version"] == version + 1
    assert "轮到你了" in client.get(private_url(table, 1)).content.decode()


texts = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["²", "-1", "0", "1", "2", "99", "999999", "9" * 5000, "deck", "none", "host", " ", "１"]),
)


@pytest.mark.parametrize(("kind", "mode"), [(k, m) for k in TABLE_PLAYERS for m in ("digital", "physical")])
def test_random_values_posted_to_every_table_form_never_give_a_500(client, kind, mode):
    @hsettings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def post_random(data):
        table = services.create_table(kind, TABLE_PLAYERS[kind], seed=5, mode=mode)  # the same start every time
        state = table.load()
        seat = data.draw(st.sampled_from([None, *range(len(TABLE_PLAYERS[kind]))]))
        specs = (
            table.rules.forms(state, "host" if seat is None else seat)
            if (seat is not None or mode == "physical")
            else []
        )
        url = host_url(table) if seat is None else private_url(table, seat)
        if not specs:
            return
        spec = data.draw(st.sampled_from(specs))
        values = {p["name"]: data.draw(st.lists(texts, max_size=3)) for p in spec["params"]}
        response = client.post(url, {"type": spec["type"], "label": spec["label"], "version": ver(table), **values})
        assert response.status_code in (302, 400)

    post_random()


@hsettings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    values=st.dictionaries(
        st.sampled_from(
            [
                "kind",
                "mode",
                "players",
                "name",
                "team_of",
                "start",
                "target",
                "noir_killer",
                "kill_target",
                "first",
                "roles",
                "serums",
                "deck",
                "killer",
                "teams",
                "rotate_lord",
                "warrant",
                "sgs_seat_lot",
                "sgs_rule2",
                "sgs_protected",
                "sgs_countdown",
                "sgs_rebirth",
                "sgs_generals",
            ]
        ),
        texts,
    )
)
def test_random_values_posted_to_the_create_form_never_give_a_500(values):
    from django.core.cache import cache
    from tables_client import SigningClient

    cache.clear()
    response = SigningClient().post("/tables/", values)
    assert response.status_code in (200, 400)


def visible_words(html):
    """ASCII words of three letters or more in the text a player reads (no markup, scripts, links or tokens)."""
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", html)
    text = re.sub(r"https?://\S+", " ", text)
    return set(re.findall(r"\b[A-Za-z_]{3,}\b", text))


@pytest.mark.parametrize(("kind", "mode"), [(k, m) for k in TABLE_PLAYERS for m in ("digital", "physical")])
def test_pages_show_chinese_never_internal_codes(client, kind, mode):
    table = services.create_table(kind, TABLE_PLAYERS[kind], seed=3, mode=mode)
    rng = random.Random(3)
    seen = set()
    for _ in range(25):
        table.refresh_from_db()
        state = table.load()
        for url in [
            f"/tables/{table.pk}/",
            host_url(table),
            *(private_url(table, p) for p in range(len(TABLE_PLAYERS[kind]))),
        ]:
            seen |= visible_words(client.get(url).content.decode())
        if table.rules.winner(state):
            break
        seat, spec, values, _, _ = choose(table.rules, state, rng)
        data = {"type": spec["type"], "label": spec["label"], "version": ver(table), **values}
        assert client.post(private_url(table, seat), data).status_code == 302
    assert not seen


def test_a_browser_post_from_a_no_referrer_page_is_accepted_because_the_url_token_stands_for_the_csrf_token():
    from tables_client import SigningClient

    table = services.create_table("anhuoxian", TABLE_PLAYERS["anhuoxian"], mode="physical", options={"first": 0})
    browser = SigningClient(enforce_csrf_checks=True)
    data = {"type": "end_turn", "label": "结束 阿甲 的回合", "version": ver(table)}
    assert browser.post(private_url(table, 0), data, HTTP_ORIGIN="null").status_code == 302
    assert browser.post("/tables/", {"kind": "noir", "players": "甲,乙"}, HTTP_ORIGIN="null").status_code == 403


def test_a_sanguosha_series_ends_once_everyone_has_been_the_lord():
    table = services.create_table(
        "sanguosha", TABLE_PLAYERS["sanguosha"][:4], mode="physical", options={"rotate_lord": True}
    )
    lords = []
    for _ in range(4):
        state = table.load()
        lords.append(state.lord)
        state.phase, state.winning_side = "over", "反贼"
        Table.objects.filter(pk=table.pk).update(state=state.to_dict())
        table.refresh_from_db()
        if table.round < 4:
            table = services.next_game(table.pk)
    assert lords == [0, 3, 2, 1] and services.series_over(table)
    with pytest.raises(services.RuleError, match="每人都当过一次主公"):
        services.next_game(table.pk)
