"""The console says what each ruling decides — a refused 变形 names the pending form and when it completes
(M2), a refused pardon says which of the three reasons holds and that it costs nothing (N12), a message whose
manifestos cover only some of its attacks says why the rest are refused (N-kill). The 天神 reads these sentences in
the PM preview; confirming stores the refusals with their reasons and spends no AP."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
import yaml

from moderator.models import Game, Input, Phase
from moderator.rules.scenario import load
from moderator.scenarios import play_scenario
from moderator.services import storage

pytestmark = pytest.mark.django_db
MANIFESTO = "天下大势,分久必合,合久必分。" * 8  # 120 characters: one attack's worth (N-kill)


def _pm(client, game, sender, text, hours=1, confirm=False) -> str:
    phase = game.phases.get(status=Phase.Status.OPEN)
    forum_at = (phase.starts_at + timedelta(hours=hours)).astimezone().strftime("%Y-%m-%dT%H:%M")
    data = {"seat": game.seats.get(player_name=sender).pk, "forum_at": forum_at, "text": text, "preview": "1"}
    page = client.post(f"/gm/{game.pk}/pm/", data)
    if confirm:
        html = page.content.decode()
        fields = {n: re.search(rf'name="{n}" value="([^"]*)"', html).group(1) for n in ("once", "phase")}
        data = {**{k: v for k, v in data.items() if k != "preview"}, **fields, "confirm": "1"}
        page = client.post(f"/gm/{game.pk}/pm/", data, follow=True)
    return page.content.decode()


def _ap(game, name: str) -> int:
    return storage.game_replay(game).state.seat(name).ap


def test_a_second_transformation_is_refused_naming_the_pending_form_and_when_it_completes_m2(gm_client, game):
    _pm(gm_client, game, "丙", "阿米巴变形为狙击手", confirm=True)
    before = _ap(game, "丙")
    page = _pm(gm_client, game, "丙", "阿米巴变形为束魂", hours=2)
    assert "这张阿米巴正在变成“狙击手”,第2夜结束时完成;一次只能有一个变形" in page and "M2" in page
    _pm(gm_client, game, "丙", "阿米巴变形为束魂", hours=2, confirm=True)
    refused = [r for r in Input.objects.filter(kind="action") if r.payload.get("into") == "束魂"]
    assert [r.status for r in refused] == ["refused"] and "第2夜结束时完成" in refused[0].reason
    assert _ap(game, "丙") == before


def test_a_pardon_of_someone_not_executed_yesterday_is_refused_with_that_reason_and_costs_nothing_n12(gm_client, game):
    before = _ap(game, "丙")
    page = _pm(gm_client, game, "丙", "特赦甲")
    assert "“甲”昨天没有被处决,只能特赦昨天被处决的人(N12);不扣行动点数" in page
    _pm(gm_client, game, "丙", "特赦甲", confirm=True)
    assert _ap(game, "丙") == before
    (rec,) = [r for r in Input.objects.filter(kind="action") if r.payload.get("use") == "特赦"]
    assert rec.status == "refused" and rec.cost == 0


def test_attacks_beyond_what_the_messages_manifesto_covers_are_refused_saying_why_nkill(gm_client, game):
    page = _pm(gm_client, game, "丁", f"狼人咬甲,狙击乙。杀人宣言:{MANIFESTO}")
    assert "杀人宣言不够:今夜 2 次攻击需要合计至少 200 字" in page
    assert "同一条短消息里的攻击按书写顺序接受到宣言够为止" in page


def test_the_dashboard_says_a_player_executed_with_his_last_card_is_alive_until_dawn_n14_d6(gm_client, gm):
    path = Path(__file__).resolve().parents[1] / "scenarios" / "c_N14_D6_executed_last_card_alive_until_dawn.yaml"
    scenario = load(yaml.safe_load(path.read_text(encoding="utf-8")))
    upto_day_1 = scenario.__class__(scenario.name, scenario.players, scenario.ap, scenario.start, scenario.phases[:2])
    assert play_scenario(upto_day_1) == []
    game = Game.objects.get(name=f"情景:{scenario.name}")
    game.gms.add(gm)
    page = gm_client.get(f"/gm/{game.pk}/").content.decode()
    assert "甲的最后一张牌在昨天的处决中丢掉:天亮公布之前仍然活着,照常得到今夜的 2 点" in page
