"""Random play through the UI forms: proves each game can be played to the end using only what the pages offer."""

from __future__ import annotations

import random
from typing import Any

from tables.rules import RuleError
from tables.rules.base import action_from_form, random_form_values


def choose(game: Any, state: Any, rng: random.Random) -> tuple[int, dict[str, Any], dict[str, list[str]], Any, dict]:
    """A random legal move offered by the forms: (seat, form spec, posted values, new state, action)."""
    seats = [p for p in range(len(state.players)) if game.forms(state, p)]
    assert seats, "nobody can act but the game is not over"
    for _ in range(200):
        seat = rng.choice(seats)
        spec = rng.choice(game.forms(state, seat))
        values = random_form_values(spec, rng)
        if values is None:
            continue
        try:
            action = {**action_from_form(spec, values), "player": seat}
            new_state, _ = game.apply(state, action)
        except RuleError:
            continue
        return seat, spec, values, new_state, action
    raise AssertionError(f"no legal action found from forms: {[game.forms(state, p) for p in seats]}")


def random_step(game: Any, state: Any, rng: random.Random) -> tuple[Any, dict[str, Any]]:
    _, _, _, new_state, action = choose(game, state, rng)
    return new_state, action


def play(game: Any, state: Any, rng: random.Random, max_steps: int = 3000) -> tuple[Any, list[dict[str, Any]]]:
    actions = []
    for _ in range(max_steps):
        if game.winner(state) is not None:
            break
        state, action = random_step(game, state, rng)
        actions.append(action)
    return state, actions


def private_url(table: Any, seat: int) -> str:
    """A seat's private page of a table."""
    return f"/tables/{table.pk}/p/{table.players[seat]['token']}/"
