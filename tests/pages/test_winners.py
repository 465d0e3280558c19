"""V2 ruling: a 共赢 self-chosen belongs to the camp — when the camp wins, both players win, alive or dead.
The private page of each co-winner says so, the loser's says he lost, and the public page and the final posts name
both winners (the game is played through the services from its scenario file)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from django.urls import reverse
from pages_scan import text_of

from moderator.models import Announcement, Game
from moderator.rules.scenario import load
from moderator.scenarios import play_scenario

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
BOTH = "获胜的游戏者:甲、乙(与杀手阵营共赢的自选立场者)。"


def _finished(stem: str) -> Game:
    scenario = load(yaml.safe_load((SCENARIOS / f"{stem}.yaml").read_text(encoding="utf-8")))
    assert play_scenario(scenario) == []
    game = Game.objects.get(name=f"情景:{scenario.name}")
    assert game.status == Game.Status.FINISHED and game.winner == "杀手"
    return game


def _private(client, game: Game, name: str) -> str:
    seat = game.seats.get(player_name=name)
    response = client.get(reverse("seat_private", args=[seat.token]))
    assert response.status_code == 200
    return " ".join(text_of(response.content.decode()).split())


def test_the_dead_killer_and_the_lone_cowin_survivor_both_read_that_they_won_v2(client):
    game = _finished("c_V2_cowin_self_chosen_alone_wins_for_the_camp")
    killer, partner, civilian = (_private(client, game, n) for n in ("甲", "乙", "丙"))
    assert "游戏结束:你获胜了!杀手阵营获胜(你虽然已经死亡,你的阵营获胜,你也获胜)。" in killer
    assert "游戏结束:你获胜了!你与杀手阵营共赢,杀手阵营获胜即是你获胜。" in partner
    assert "游戏结束:你没有获胜(杀手阵营获胜)。" in civilian
    assert "你获胜了" not in civilian


def test_the_public_page_and_the_final_posts_name_both_winners_v2(client):
    game = _finished("c_V2_cowin_self_chosen_alone_wins_for_the_camp")
    page = " ".join(text_of(client.get(reverse("game_public", args=[game.pk])).content.decode()).split())
    assert "获胜的玩家:甲、乙(与杀手阵营共赢的自选立场者)" in page
    finals = Announcement.objects.filter(game=game, title__contains="游戏结束")
    dawn = Announcement.objects.filter(game=game, kind=Announcement.Kind.DAWN).order_by("-id").first()
    assert finals.count() == 1 and BOTH in finals.get().text
    assert BOTH in dawn.text and "游戏结束:杀手阵营获胜!" in dawn.text


def test_while_the_game_goes_on_no_page_speaks_of_winning(client):
    scenario = load(
        yaml.safe_load((SCENARIOS / "c_V2_cowin_self_chosen_alone_wins_for_the_camp.yaml").read_text("utf-8"))
    )
    short = scenario.__class__(scenario.name, scenario.players, scenario.ap, scenario.start, scenario.phases[:1])
    assert play_scenario(short) == []
    game = Game.objects.get(name=f"情景:{scenario.name}")
    for name in ("甲", "乙", "丙"):
        page = _private(client, game, name)
        assert "你获胜了" not in page and "你没有获胜" not in page and "游戏结束" not in page


def test_the_gms_dashboard_names_both_winners_v2(gm, gm_client):
    game = _finished("c_V2_cowin_self_chosen_alone_wins_for_the_camp")
    game.gms.add(gm)
    page = " ".join(text_of(gm_client.get(f"/gm/{game.pk}/").content.decode()).split())
    assert "获胜的玩家:甲、乙(共赢的自选立场者)(V2:生死不论)。" in page
