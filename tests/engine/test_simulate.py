"""The whole-game simulator (bench/simulate.py): every invariant holds over 100 random games on a fixed seed (AP6,
O2, O4, D4, D5, V1–V5, T5, T7, N-kill, replay determinism); `make test` runs it (SIMULATE_TEST_GAMES=200 the run it
used to make), and the big runs are the bench's: `python -m bench.simulate` plays 1,000 games, `--games 10000`."""

import os
from dataclasses import replace
from pathlib import Path

import yaml

from bench.simulate import Checker, Violation, main, play_game, replay, scenario, shrink, violations
from moderator.game.state import CloseResult
from moderator.rules import SeatSpec, start_game
from moderator.rules.scenario import load, play

GAMES = os.environ.get("SIMULATE_TEST_GAMES", "100")


def test_it_plays_100_random_games_without_an_invariant_violation(tmp_path: Path):
    assert main(["--games", GAMES, "--seed", "20250611", "--out", str(tmp_path)]) == 0
    assert not list(tmp_path.iterdir())  # no violation written


def test_it_prints_one_line_of_figures(capsys, tmp_path: Path):
    main(["--games", "3", "--seed", "1", "--out", str(tmp_path)])
    line = capsys.readouterr().out.strip()
    assert line.startswith("games=3 phases=") and " inputs=" in line
    assert "invariant_violations=0 games_per_s=" in line


def test_a_seed_reproduces_a_game():
    first, second = play_game(7), play_game(7)
    assert first.logs == second.logs
    assert first.played.closed == second.played.closed


def test_d4_the_checker_flags_a_dead_player_in_the_tally_and_writes_the_living_tally():
    state = start_game(
        [SeatSpec("甲", "杀手", ("杀手",)), SeatSpec("乙", "平民", ("巫医",)), SeatSpec("丙", "平民", ("束魂",))]
    )
    dead = state.with_seat(replace(state.seat("乙"), alive=False, hand=()))
    check = Checker(state)
    check.net_lost["乙"] = 1
    check.close(dead, dead, CloseResult(phase=("day", 1), tally={"甲": 1, "乙": 1}, executed=("甲", "乙")), 0)
    kinds = {v.kind: v for v in check.found}
    assert kinds["dead_in_tally"].expect == (("tally", {"甲": 1}),)
    assert kinds["dead_executed"].expect == (("executed", ["甲"]),)


def test_a_whole_game_written_as_a_scenario_replays_to_the_same_verdicts_and_facts():
    game = play_game(58)
    written = scenario(game, game.logs, Violation("none", len(game.logs), "every phase's facts"))
    assert play(load(yaml.safe_load(yaml.safe_dump(written, allow_unicode=True)))) == []


def test_the_shrinker_keeps_only_what_the_property_needs():
    game = play_game(58)

    def someone_dies(logs) -> bool:
        return any(r.died for r in replay(game.specs, logs).results)

    assert someone_dies(game.logs)
    small = shrink(game.logs, someone_dies)
    assert someone_dies(small)
    assert sum(len(log.messages) for log in small) < sum(len(log.messages) for log in game.logs)
    assert violations(game.specs, small, game.seed) == []
