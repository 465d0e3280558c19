"""Running scenario files (docs/scenarios.md) through the same services that close a real phase."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import yaml
from django.utils import timezone

from moderator.game.state import Verdict
from moderator.models import Game, Message, Phase, Seat
from moderator.rules import codec
from moderator.rules.scenario import (
    Scenario,
    ScenarioError,
    ScenarioStep,
    by_message,
    load,
    mismatches,
    verdict_problems,
)
from moderator.services import errors, inputs, play, setup, storage
from moderator.services.preview import rolled_back


@dataclass
class FileRun:
    """One scenario file run: its path, its name, and what did not go as it says (nothing: it passed)."""

    path: str
    name: str
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems


def collect(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files += sorted(p for p in path.rglob("*.yaml"))
        else:
            files.append(path)
    return files


def run_file(path: Path) -> FileRun:
    """Play one scenario file; it leaves nothing behind (played, then rolled back)."""
    try:
        scenario = load(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (OSError, yaml.YAMLError, ScenarioError, TypeError, ValueError) as exc:
        return FileRun(str(path), path.stem, [f"invalid scenario: {exc}"])
    run = FileRun(str(path), scenario.name)
    try:
        run.problems = rolled_back(lambda: play_scenario(scenario))
    except Exception as exc:  # a crash is reported as a failure of this file, never of the run
        run.problems = [f"internal error: {type(exc).__name__}: {exc}"]
    return run


def play_scenario(scenario: Scenario, *, start_at: datetime | None = None) -> list[str]:
    """Play a scenario; `start_at` (in the past) fixes when its first phase begins, so that the dates in its posts
    are the same on every run (tests/golden); by default the first phase began far enough back for all to close."""
    return play_game(scenario, start_at=start_at)[1]


def play_game(
    scenario: Scenario, *, start_at: datetime | None = None, close: Callable[[Phase], bool] | None = None
) -> tuple[Game, list[str]]:
    """`play_scenario`, returning the game too. `close` closes a phase that has come due (default
    `play.phase_close`; tests/clock passes the clock's close)."""
    close = close or (lambda phase: play.phase_close(phase=phase))
    game = setup.table_create(
        name=f"情景:{scenario.name}", players=scenario.players, ap=scenario.ap, start=scenario.start
    )
    # Every phase lies in the past, so each closes by the database's clock exactly as a real one would.
    setup.game_start(game=game, at=start_at or timezone.now() - timedelta(days=len(scenario.phases) + 1))
    problems: list[str] = []
    seats = {s.player_name: s for s in game.seats.all()}  # by name: a scenario's seats never change hands
    for plan in scenario.phases:
        phase = game.phases.get(status=Phase.Status.OPEN)
        for message in by_message(plan.steps):
            problems += _enter(game, phase, message, seats)
        if plan.ended_early_at is not None:  # T5: closes then; the announced end stays every cutoff's reference
            early = phase.starts_at + timedelta(minutes=plan.ended_early_at)
            Phase.objects.filter(pk=phase.pk).update(announced_end=phase.ends_at, ends_at=early)
            phase.refresh_from_db()
        if not close(phase):
            return game, [*problems, f"after {plan.label}: the phase did not close"]
        closed_state, result = storage.game_replay(game, from_phase=phase).closed[phase.pk]
        problems += mismatches(plan, closed_state, result)
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED and plan is not scenario.phases[-1]:
            problems.append(f"after {plan.label}: the game is over ({game.winner}) but more phases follow")
            break
    # Snapshots change nothing: the state from the stored snapshots equals a replay from night 1.
    if storage.game_replay(game).state != storage.game_replay(game, full=True).state:
        problems.append("the replay from the stored snapshots differs from a replay from night 1")
    return game, problems


def _enter(game: Game, phase: Phase, steps: list[ScenarioStep], seats: dict[str, Seat]) -> list[str]:
    """One message (N-kill: one sender's inputs at one forum minute), entered as the console enters a PM; `seats`:
    the game's seats by name."""
    seat = seats[steps[0].inp.by]
    forum_at = phase.starts_at + timedelta(minutes=steps[0].inp.at)
    message = None
    if len(steps) > 1:
        message = Message.objects.create(game=game, seat=seat, sender_name=seat.player_name, text="", forum_at=forum_at)
    items = [codec.from_engine(step.inp) for step in steps]
    try:
        verdicts = inputs.write(game, inputs.Entry(seat, items, forum_at, message)).verdicts
    except errors.PlayError as exc:
        verdicts = [Verdict.refuse(str(exc))] * len(steps)
    return [problem for step, v in zip(steps, verdicts, strict=True) for problem in verdict_problems(step, v)]
