"""The replay the pages read: `play.game_replay` with every input of the game loaded in three queries.

`play.game_replay` asks the database for each phase's inputs (three queries a phase), so a page served from it would
cost more queries every phase the game lasts. This loads the same records by game, buckets them by phase in the same
order `play.phase_inputs` gives, and runs the same engine steps. `tests/pages/test_replay.py` checks that both replays
agree (state, verdicts, closes) on a played game, so a change to one that the other misses fails a test.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Any

from cards.models import DiscardOrder
from moderator import rules
from moderator.models import Game, Phase, Seat
from moderator.services.play import Replay, initial_state
from nights.models import Action
from votes.models import Vote

KINDS = ((Action, "action"), (Vote, "vote"), (DiscardOrder, "order"))


@dataclass
class Loaded:
    """A replay together with the rows it was built from (the pages show a seat's own inputs from them)."""

    replay: Replay
    seats: list[Seat]
    phases: list[Phase]
    inputs: dict[int, list[Any]] = field(default_factory=dict)  # phase id -> records, in play order

    def kind(self, rec: Any) -> str:
        return next(name for model, name in KINDS if isinstance(rec, model))


def _minutes(phase: Phase, at) -> float:
    return (at - phase.starts_at).total_seconds() / 60


def engine_input(rec: Any, phase: Phase, names: dict[int, str]) -> rules.Action | rules.Vote | rules.Order:
    """A stored record as the engine reads it (the same mapping as `play._engine_input`)."""
    at = _minutes(phase, rec.forum_at)
    by = names[rec.seat_id]
    if isinstance(rec, Vote):
        target = names[rec.target_id]
        return rules.Vote(by, None if rec.change else target, target if rec.change else None, at, rec.edited)
    if isinstance(rec, DiscardOrder):
        return rules.Order(by, tuple(rec.order), at)
    return rules.Action(
        by=by,
        use=rec.use,
        card=rec.card or None,
        target=names[rec.target_id] if rec.target_id else None,
        position=rec.position,
        into=rec.into or None,
        side=rec.side or None,
        mode=rec.mode or None,
        manifesto=rec.manifesto or None,
        at=at,
        change=rec.change,
    )


def _inputs_by_phase(game: Game) -> dict[int, list[Any]]:
    """Every input of the game, per phase, in forum-time order with ties in entry order — and, like
    `play.phase_inputs`, actions before votes before orders when forum time and entry number are equal."""
    buckets: dict[int, list[Any]] = defaultdict(list)
    for model, _ in KINDS:
        for rec in model.objects.filter(game=game, phase__isnull=False).order_by(*model._meta.ordering):
            buckets[rec.phase_id].append(rec)
    return {pk: sorted(recs, key=lambda r: (r.forum_at, r.seq)) for pk, recs in buckets.items()}


def game_load(game: Game, phases: list[Phase] | None = None) -> Loaded:
    """The replay of `play.game_replay`, in five queries whatever the length of the game (three when `phases` is
    given). Voided inputs are skipped, as there."""
    seats = list(game.seats.order_by("number"))
    if phases is None:
        phases = list(game.phases.order_by("starts_at", "id"))
    names = {s.pk: s.player_name for s in seats}
    loaded = Loaded(Replay(initial_state(game, seats)), seats, phases, _inputs_by_phase(game))
    replay = loaded.replay
    for i, phase in enumerate(phases):
        state = replace(replay.state, phase_minutes=_minutes(phase, phase.ends_at))
        for rec in loaded.inputs.get(phase.pk, []):
            if rec.status == rec.Status.VOIDED:
                continue
            state, verdict = rules.submit(state, engine_input(rec, phase, names))
            replay.verdicts[(loaded.kind(rec), rec.pk)] = verdict
        if phase.status == Phase.Status.CLOSED:
            state, result = rules.close_phase(state)
            replay.closed[phase.pk] = (state, result)
            if i + 1 < len(phases):
                state, events = rules.open_phase(state)
                replay.open_events[phases[i + 1].pk] = events
        replay.state = state
    return loaded
