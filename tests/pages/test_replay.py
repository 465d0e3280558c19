"""The pages' replay (three queries for every input of a game) gives exactly what play.game_replay gives."""

from __future__ import annotations

import pytest

from moderator.public.replay import game_load
from moderator.public.sample import sample_game
from moderator.services import play

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("upto", [1, 2, 3, 4])
def test_the_batched_replay_equals_the_services_replay_state_verdicts_and_closes(db, upto):
    game = sample_game(upto=upto).game
    ours, theirs = game_load(game).replay, play.game_replay(game)
    assert ours.state == theirs.state
    assert ours.verdicts == theirs.verdicts
    assert ours.closed == theirs.closed
    assert ours.open_events == theirs.open_events


def test_a_voided_input_is_skipped_by_both(sample):
    from nights.models import Action

    rec = Action.objects.filter(game=sample.game, status=Action.Status.ACCEPTED).first()
    Action.objects.filter(pk=rec.pk).update(status=Action.Status.VOIDED)
    ours, theirs = game_load(sample.game).replay, play.game_replay(sample.game)
    assert ("action", rec.pk) not in ours.verdicts
    assert ours.state == theirs.state and ours.verdicts == theirs.verdicts
