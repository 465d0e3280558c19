"""No identity leaks through any page another seat, the host or the spectator can load, nor
through the live updates (``/v/``).  Each test loads every such page before and after the secret event."""

from __future__ import annotations

import random
import re

import pytest
from tables_client import ver

from tables import services
from tables.models import Table
from tables.rules import GAMES

dj = GAMES["direnjie_cards"]  # its rules and its view, as the site uses them

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tables_urls")]

FIVE = ["阿甲", "阿乙", "阿丙", "阿丁", "阿戊"]
CSRF = re.compile(r'name="(?:csrfmiddlewaretoken|once)" value="[^"]*"')  # new on every render: no state in them


def private_url(table: Table, seat: int) -> str:
    return f"/tables/{table.pk}/p/{table.players[seat]['token']}/"


def host_url(table: Table) -> str:
    return f"/tables/{table.pk}/h/{table.host_token}/"


def pages(client, table: Table, *, besides: set[int]) -> dict[str, str]:
    """Every page a seat not in ``besides``, the host and the spectator can load, and the live-update answer."""
    table.refresh_from_db()
    urls = [f"/tables/{table.pk}/", f"/tables/{table.pk}/v/", host_url(table)]
    urls += [private_url(table, p) for p in range(len(table.players)) if p not in besides]
    out = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        out[url] = CSRF.sub("", response.content.decode())
    return out


def post(client, table: Table, url: str, **data: str):
    return client.post(url, {**data, "version": ver(table)})


# --- the 狄仁杰 电子牌 killer's decline looks exactly like having no clue ---------------------------------------------


def find_step3(want_killer: bool) -> tuple[int, dj.State]:
    """A 5-player killer-expansion game at step 3: the killer holding a clue, or a detective holding none."""
    from tables_playout import random_step

    for seed in range(200):
        s = dj.new_game(FIVE, seed, {"killer": True})
        rng = random.Random(seed)
        for _ in range(400):
            if s.phase == "over":
                break
            if s.phase == "submit":
                me = s.current
                can = dj.possible_clue(s.hands[me], me == s.killer)
                if (want_killer and me == s.killer and can) or (not want_killer and me != s.killer and not can):
                    return seed, s
            s, _ = random_step(dj, s, rng)
    raise AssertionError("no such turn in 200 games")


@pytest.mark.parametrize("killer_declines", [True, False], ids=["killer-declines", "detective-has-none"])
def test_a_killer_declining_a_clue_looks_exactly_like_a_hand_with_none_on_every_other_page(client, killer_declines):
    seed, state = find_step3(want_killer=killer_declines)
    table = services.create_table("direnjie_cards", FIVE, seed=seed, options={"killer": True})
    Table.objects.filter(pk=table.pk).update(state=state.to_dict())
    me, name = state.current, FIVE[state.current]
    others = {me, state.killer}  # the actor's and the killer's own pages may differ; nobody else's
    before = pages(client, table, besides=others)
    for url, html in before.items():
        if not url.endswith("/v/"):
            assert f"步骤3:提交线索</strong> · 等待 <strong>{name}</strong>" in html, url
    mine = client.get(private_url(table, me)).content.decode()
    label = "不提交线索(杀手)" if killer_declines else "没有可组成的线索:不提交"
    assert label in mine
    assert post(client, table, private_url(table, me), type="no_submit", label=label).status_code == 302
    after = pages(client, table, besides=others)
    for url, html in after.items():
        assert "没有可组成的线索" not in html, url
        if url.endswith("/v/"):
            assert html == '{"version": 1}' and before[url] == '{"version": 0}', url
        else:
            assert f"步骤3:{name} 没有提交线索。" in html, url
    # everything this step wrote, in both cases: one public sentence, then step 4 waits for the same player
    after_state = Table.objects.get(pk=table.pk).load()
    assert after_state.log[len(state.log) :] == [{"text": f"步骤3:{name} 没有提交线索。", "to": None}]
    assert after_state.phase == "refill" and after_state.current == me


# --- 狄仁杰 实体牌: the private killer claim is invisible, withdrawable and out of the host's undo ---------------------


def test_the_private_killer_claim_changes_no_other_page_nor_the_version_and_the_host_cannot_undo_it(client):
    table = services.create_table("direnjie_cards", FIVE, mode="physical", options={"killer": True})
    before = pages(client, table, besides={2})
    response = post(
        client, table, private_url(table, 2), type="claim_killer", label="我拿到了杀手牌 A(只有你自己看得到)"
    )
    assert response.status_code == 302
    assert pages(client, table, besides={2}) == before  # spectator, host, seats 0,1,3,4 and /v/: byte for byte
    assert Table.objects.get(pk=table.pk).load().killer == 2
    assert "你声明自己拿到了杀手牌 A" in client.get(private_url(table, 2)).content.decode()
    # the host's undo does not see it (nothing public to undo), and says so without a trace
    refused = post(client, table, host_url(table), op="undo", reason="试试")
    assert "没有可以撤销" in refused.content.decode()
    assert Table.objects.get(pk=table.pk).load().killer == 2
    assert pages(client, table, besides={2}) == before


def test_a_mis_tapped_killer_claim_is_withdrawn_by_its_maker_and_the_real_claim_counts_again(client):
    table = services.create_table("direnjie_cards", FIVE, mode="physical", options={"killer": True})
    claim = {"type": "claim_killer", "label": "我拿到了杀手牌 A(只有你自己看得到)"}
    assert post(client, table, private_url(table, 2), **claim).status_code == 302
    before = pages(client, table, besides={2, 3})
    assert post(client, table, private_url(table, 3), **claim).status_code == 302  # 阿丁 taps it by mistake
    assert Table.objects.get(pk=table.pk).load().killer == 3
    withdraw = {"type": "withdraw_claim", "label": "撤回:我没有拿到杀手牌 A(点错了;只有你自己看得到)"}
    assert withdraw["label"] in client.get(private_url(table, 3)).content.decode()
    assert post(client, table, private_url(table, 3), **withdraw).status_code == 302
    assert Table.objects.get(pk=table.pk).load().killer == 2
    assert pages(client, table, besides={2, 3}) == before
    assert "我拿到了杀手牌 A" in client.get(private_url(table, 3)).content.decode()  # offered again, as to everyone


# --- physical decks: a death another seat records shows no identity until the victim or the host confirms ----------


@pytest.mark.parametrize("kind", ["anhuoxian", "sanguosha"])
@pytest.mark.parametrize("answer", ["confirm", "reject"])
def test_a_death_recorded_by_another_seat_reveals_no_identity_until_the_victim_or_host_confirms(client, kind, answer):
    table = services.create_table(kind, FIVE, mode="physical")
    state = table.load()
    victim = next(p for p in range(5) if not state.revealed[p])
    recorder = next(p for p in range(5) if p != victim)
    role = state.roles[victim]
    if kind == "sanguosha":  # generals first: each the first candidate, the lord first
        for seat in [state.lord, *(p for p in range(5) if p != state.lord)]:
            current = Table.objects.get(pk=table.pk).load()
            services.act(table.pk, seat, {"type": "choose_general", "general": current.candidates[seat][0]})
    data = {"type": "death", "label": "阵亡", "target": str(victim), "source": "none"}
    assert post(client, table, private_url(table, recorder), **data).status_code == 302
    seen = pages(client, table, besides={victim})
    row = re.compile(rf"<td>{FIVE[victim]}[^<]*</td>\s*(<td>[^<]*</td>\s*)?<td>{role}</td>")
    for url, html in seen.items():
        assert f"亮出身份:{role}" not in html and not row.search(html), url
        if not url.endswith("/v/"):
            assert "阵亡(待确认)" in html and "阵亡待确认" in html, url
    assert "确认我阵亡(亮出身份)" in client.get(private_url(table, victim)).content.decode()
    # another seat cannot confirm it for the victim
    other = {"type": "confirm_death", "label": f"确认{FIVE[victim]}阵亡(亮出身份)"}
    assert post(client, table, private_url(table, recorder), **other).status_code == 400
    label = "确认我阵亡(亮出身份)" if answer == "confirm" else "驳回我的阵亡记录"
    kind_ = "confirm_death" if answer == "confirm" else "reject_death"
    assert post(client, table, private_url(table, victim), type=kind_, label=label).status_code == 302
    shown = pages(client, table, besides={victim})
    for url, html in shown.items():
        if url.endswith("/v/"):
            continue
        assert (f"亮出身份:{role}" in html) == (answer == "confirm"), url
    assert Table.objects.get(pk=table.pk).load().alive[victim] == (answer == "reject")


def test_the_host_or_the_victim_records_a_death_at_once_and_the_killer_is_the_last_damage_source(client):
    table = services.create_table("anhuoxian", FIVE, mode="physical")
    hit = {"type": "hp", "label": "体力变化", "target": "1", "source": "3"}
    for _ in range(4):
        assert post(client, table, private_url(table, 0), **hit, delta="-1").status_code == 302
    page = client.get(private_url(table, 0)).content.decode()
    dying = page.split("阿乙 阵亡</strong>")[1].split("</form>")[0]
    assert dying.index("阿丁") < dying.index("无来源")  # 阿丁 hit last: preselected (the first option)
    state = Table.objects.get(pk=table.pk).load()
    loot = state.hand[1]
    assert post(client, table, host_url(table), type="death", label="阿乙 阵亡", source="3").status_code == 302
    state = Table.objects.get(pk=table.pk).load()
    assert not state.alive[1] and state.revealed[1] and state.hand[3] == 3 + loot and state.hand[1] == 0


def test_in_the_answer_phase_another_seats_claim_changes_neither_the_killers_answer_form_nor_any_other_page():
    from tables.rules import direnjie_table as djt

    s = djt.new_game(FIVE, 1, {"killer": True})
    s.phase, s.last_round = "answer", True
    s = djt.apply(s, {"type": "claim_killer", "player": 2})[0]
    seen = {p: (djt.view(s, p), djt.forms(s, p)) for p in range(5) if p != 3}
    s = djt.apply(s, {"type": "claim_killer", "player": 3})[0]  # a mis-tap, or a lie
    assert {p: (djt.view(s, p), djt.forms(s, p)) for p in range(5) if p != 3} == seen
    names = [p["name"] for p in djt.forms(s, 2)[-1]["params"]] if djt.forms(s, 2) else []
    assert "killer" not in names  # the real killer is not asked to name a killer
