"""V4, the declared draw: the indicator (`rules.views.deadlock`: no survivor holds an attack and the last two counts
were deadlocked), the service (`clock.game_declare_draw`: logged, post drafted, game over with 平局) and the console
page with its confirm form."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from moderator.game.state import SeatSpec
from moderator.models import Announcement, AuditLog, Game
from moderator.rules.engine import end_phase, open_phase, start_game, submit_message
from moderator.rules.scenario import by_message, load
from moderator.rules.views import deadlock
from moderator.scenarios import play_scenario
from moderator.services import clock
from moderator.services.errors import PlayError
from tests import entries

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "golden"))
from golden import START, compare

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "c_V4_deadlock_no_attack_two_tied_days.yaml"


def _scenario(hands: dict[str, list[str]] | None = None):
    scenario = load(yaml.safe_load(SCENARIO.read_text(encoding="utf-8")))
    if hands:
        players = [{**p, "hand": hands.get(p["name"], p["hand"])} for p in scenario.players]
        scenario = replace(scenario, players=players)
    return scenario


def _after_each_close(scenario):
    """The pure engine through the scenario: (state after the close, every result so far) per phase."""
    state = start_game([SeatSpec(p["name"], p["camp"], p["hand"]) for p in scenario.players], start=scenario.start)
    results, out = [], []
    for plan in scenario.phases:
        for message in by_message(plan.steps):
            state, _ = submit_message(state, [s.inp for s in message])
        state, result = end_phase(state)
        results.append(result)
        out.append((state, list(results)))
        state, _ = open_phase(state)
    return out


# --- the indicator (pure) -----------------------------------------------------------------------------------------


def test_it_shows_the_deadlock_after_two_tied_days_without_an_attack_V4():
    shown = [deadlock(state, results) for state, results in _after_each_close(_scenario())]
    assert shown == [False, False, True]  # one deadlocked count is not enough; the night between changes nothing


@pytest.mark.parametrize("card", ["杀手", "狼人", "狙击手", "束魂", "巫医", "绝杀/特赦", "阿米巴"])
def test_it_does_not_show_it_while_a_survivor_holds_an_attack_V4(card):
    scenario = _scenario({"乙": ["庶民", card]})
    state, results = _after_each_close(scenario)[-1]
    assert deadlock(state, results) is False


@pytest.mark.parametrize("card", ["保镖", "防弹衣/狼毒", "诅咒/庇佑", "纵火/圣人"])
def test_cards_that_cannot_cost_another_player_a_card_are_no_attack_V4(card):
    state, results = _after_each_close(_scenario({"乙": ["庶民", card]}))[-1]
    assert deadlock(state, results) is True


def test_a_spent_final_kill_is_no_attack_any_more_V4_N11():
    state, results = _after_each_close(_scenario({"乙": ["庶民", "绝杀/特赦"]}))[-1]
    seat = state.seat("乙")
    spent = replace(
        state, seats=tuple(replace(s, doom_used=frozenset({"绝杀/特赦"})) if s is seat else s for s in state.seats)
    )
    assert deadlock(spent, results) is True


def test_it_reads_the_stored_results_as_well_and_needs_both_counts_deadlocked_V4():
    state, results = _after_each_close(_scenario())[-1]
    stored = [{"phase": list(r.phase), "executed": list(r.executed)} for r in results]
    assert deadlock(state, stored) is True
    stored[0]["executed"] = ["甲"]
    assert deadlock(state, stored) is False


# --- the service and the page -------------------------------------------------------------------------------------


@pytest.fixture
def deadlocked(db):
    """The deadlock scenario played through the services; its night 3 is open."""
    play_scenario(_scenario(), start_at=START)
    return Game.objects.get(name__startswith="情景:僵局")


def test_the_gm_declares_a_draw_logged_posted_and_the_game_is_over_V4(deadlocked, gm):
    assert clock.draw_shown(deadlocked) is True
    post = clock.game_declare_draw(game=deadlocked, actor=gm)
    deadlocked.refresh_from_db()
    assert (deadlocked.status, deadlocked.winner) == (Game.Status.FINISHED, "平局")
    log = AuditLog.objects.get(game=deadlocked, action="game_declare_draw")
    assert (log.actor, log.detail["deadlock_shown"], log.detail["alive"]) == (gm, True, ["甲", "乙"])
    assert post.kind == Announcement.Kind.DAWN and post.phase.label == "第3夜"
    problem = compare("V4_declared_draw", f"===== {post.title}\n----- bbcode\n{post.bbcode}\n----- text\n{post.text}\n")
    assert problem is None, problem
    with pytest.raises(PlayError, match="现在是“已结束”"):
        clock.game_declare_draw(game=deadlocked)
    seat = deadlocked.seats.get(player_name="甲")
    with pytest.raises(PlayError, match="不再接受输入"):
        entries.action_submit(game=deadlocked, seat=seat, payload={"use": "防弹衣"}, forum_at=post.phase.starts_at)


def test_the_draw_page_shows_the_deadlock_and_declares_only_with_its_token_and_confirmation_V4(
    deadlocked, gm, gm_client
):
    deadlocked.gms.add(gm)
    page = gm_client.get(f"/gm/{deadlocked.pk}/draw/").content.decode()
    assert "<strong>僵局:</strong>" in page and 'name="once"' in page and "宣布平局" in page
    token = {k: v for k, v in _hidden(page).items() if k in ("once", "phase", "csrfmiddlewaretoken")}
    gm_client.post(f"/gm/{deadlocked.pk}/draw/", token)  # not confirmed: nothing happens
    deadlocked.refresh_from_db()
    assert deadlocked.status == Game.Status.RUNNING
    page = gm_client.get(f"/gm/{deadlocked.pk}/draw/").content.decode()
    token = {k: v for k, v in _hidden(page).items() if k in ("once", "phase")}
    gm_client.post(f"/gm/{deadlocked.pk}/draw/", {**token, "confirm": "1"})
    gm_client.post(f"/gm/{deadlocked.pk}/draw/", {**token, "confirm": "1"})  # the same form twice: one declaration
    deadlocked.refresh_from_db()
    assert (deadlocked.status, deadlocked.winner) == (Game.Status.FINISHED, "平局")
    assert AuditLog.objects.filter(game=deadlocked, action="game_declare_draw").count() == 1


def test_the_page_says_there_is_no_deadlock_while_an_attack_is_held_V4(db, gm, gm_client):
    play_scenario(_scenario({"乙": ["庶民", "狼人"]}), start_at=START)
    game = Game.objects.get(name__startswith="情景:僵局")
    game.gms.add(gm)
    page = gm_client.get(f"/gm/{game.pk}/draw/").content.decode()
    assert "现在不是僵局" in page and "<strong>僵局:</strong>" not in page


def _hidden(page: str) -> dict[str, str]:
    import re

    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
