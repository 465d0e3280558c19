"""Running scenario files (../shared/SCENARIOS.md) through the same services that close a real phase."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import yaml
from django.db import transaction
from django.utils import timezone

from moderator.models import Game, Phase
from moderator.rules import codec
from moderator.rules.scenario import Scenario, ScenarioError, Step, load, mismatches
from moderator.services import play, setup


@dataclass
class Outcome:
    path: str
    name: str
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems


class _Rollback(Exception):
    pass


def collect(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files += sorted(p for p in path.rglob("*.yaml"))
        else:
            files.append(path)
    return files


def run_file(path: Path) -> Outcome:
    try:
        scenario = load(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (OSError, yaml.YAMLError, ScenarioError, TypeError, ValueError) as exc:
        return Outcome(str(path), path.stem, [f"invalid scenario: {exc}"])
    outcome = Outcome(str(path), scenario.name)
    try:
        with transaction.atomic():
            outcome.problems = play_scenario(scenario)
            raise _Rollback  # a scenario leaves nothing behind
    except _Rollback:
        pass
    except Exception as exc:  # a crash is reported as a failure of this file, never of the run
        outcome.problems = [f"internal error: {type(exc).__name__}: {exc}"]
    return outcome


def play_scenario(scenario: Scenario) -> list[str]:
    game = setup.table_create(
        name=f"情景:{scenario.name}", players=scenario.players, ap=scenario.ap, start=scenario.start
    )
    # Every phase lies in the past, so each closes by the database's clock exactly as a real one would.
    setup.game_start(game=game, at=timezone.now() - timedelta(days=len(scenario.phases) + 1))
    problems: list[str] = []
    for plan in scenario.phases:
        phase = game.phases.get(status=Phase.Status.OPEN)
        for step in plan.steps:
            problems += _enter(game, phase, step)
        if not play.phase_close(phase=phase):
            return [*problems, f"after {plan.label}: the phase did not close"]
        closed_state, result = play.game_replay(game, from_phase=phase).closed[phase.pk]
        problems += mismatches(plan, closed_state, result)
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED and plan is not scenario.phases[-1]:
            problems.append(f"after {plan.label}: the game is over ({game.winner}) but more phases follow")
            break
    return problems


def _enter(game: Game, phase: Phase, step: Step) -> list[str]:
    seat = game.seats.get(player_name=step.inp.by)
    forum_at = phase.starts_at + timedelta(minutes=step.inp.at)
    try:
        _, verdict = play.input_submit(game=game, seat=seat, item=codec.from_engine(step.inp), forum_at=forum_at)
        accepted, reason = verdict.accepted, verdict.reason
    except play.PlayError as exc:
        accepted, reason = False, str(exc)
    if accepted and step.expect_error:
        return [f"{step.label}: expected a refusal, but it was accepted"]
    if not accepted and not step.expect_error:
        return [f"{step.label}: expected it to be accepted, but it was refused: {reason}"]
    return []
