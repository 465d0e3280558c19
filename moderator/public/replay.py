"""The replay the pages read: `services.play.game_replay` (every input of the game in three queries, kept by phase)
together with the seats and phases the pages label it with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cards.models import DiscardOrder
from moderator.models import Game, Phase, Seat
from moderator.services.play import Replay, game_replay
from nights.models import Action
from votes.models import Vote

KINDS = ((Action, "action"), (Vote, "vote"), (DiscardOrder, "order"))  # the verdict keys of Replay.verdicts


@dataclass
class Loaded:
    replay: Replay
    seats: list[Seat]
    phases: list[Phase]

    @property
    def inputs(self) -> dict[int, list[Any]]:
        """Phase id -> its input records, in replay order."""
        return self.replay.records

    def kind(self, rec: Any) -> str:
        return next(name for model, name in KINDS if isinstance(rec, model))


def game_load(game: Game, phases: list[Phase] | None = None) -> Loaded:
    """Six queries whatever the length of the game: the replay's five and the seats (seven without `phases`)."""
    if phases is None:
        phases = list(game.phases.order_by("starts_at", "id"))
    return Loaded(game_replay(game), list(game.seats.order_by("number")), phases)
