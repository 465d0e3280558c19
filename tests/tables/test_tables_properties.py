"""The trackers' acceptance property, per game and mode: random play from any seed never reaches a state where nobody
can act before the end, and no page ever shows a player another player's secret."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tables_playout import random_step

from tables.rules import GAMES, PHYSICAL
from tables.rules.base import visible_log

SIZES = {"direnjie_cards": [2, 5, 6], "noir": [2], "sanguosha": [4, 5, 7], "anhuoxian": [4, 6]}
CASES = [(mode, kind) for mode in ("digital", "physical") for kind in GAMES]
seeds = st.integers(min_value=0, max_value=2**128 - 1)


def names(n):
    return [f"玩家{i}" for i in range(n)]


def hidden_texts(state, viewer):
    """Private log lines meant for others only (minus any line the viewer was also sent)."""
    mine = {e["text"] for e in state.log if e["to"] is None or viewer in e["to"]}
    return {e["text"] for e in state.log if e["to"] is not None and viewer not in e["to"]} - mine


def check_secrets(game, state, viewer):
    view = game.view(state, viewer)
    assert not hidden_texts(state, viewer) & set(view["log"])
    assert view["log"] == visible_log(state.log, viewer)
    over = state.phase == "over"
    for row in view.get("seats", []):
        p = row["seat"]
        if p == viewer:
            continue
        if row.get("hand") is not None:
            raise AssertionError(f"seat {viewer} sees seat {p}'s hand")
        if "role" in row and row["role"] is not None and hasattr(state, "roles"):
            public = over or not state.alive[p] or p == getattr(state, "lord", None)
            public = public or (hasattr(state, "revealed") and state.revealed[p])
            assert public, f"seat {viewer} sees seat {p}'s role"
        if row.get("general") is not None:
            assert state.phase not in ("lord_general", "generals") or p == state.lord
        if row.get("answer") is not None:
            assert over
        for clue in row.get("clues", []):
            assert clue["cards"] is None or [p, clue["index"]] in state.checked[viewer]
    if game.KIND == "noir" and not over:
        me = view["me"] or {}
        assert view["revealed"] is None
        if viewer == state.inspector:
            assert me["identity"] != state.killer_identity and state.killer_identity not in me["hand"]
    if game.KIND == "direnjie_cards" and not over:
        assert view["mission"] is None and view.get("killer") is None


def play_checking(game, n, seed, rng_seed, steps=400):
    state = game.new_game(names(n), seed)
    rng = random.Random(rng_seed)
    for _ in range(steps):
        for viewer in [None, *range(n)]:
            check_secrets(game, state, viewer)
        if game.winner(state) is not None:
            return state
        state, _ = random_step(game, state, rng)  # asserts that someone has a legal action
    return state


def _property(mode, kind):
    game = (PHYSICAL if mode == "physical" else GAMES)[kind]

    @settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=seeds, rng_seed=st.integers(0, 10**6), size=st.sampled_from(SIZES[kind]))
    def test(seed, rng_seed, size):
        play_checking(game, size, seed, rng_seed)

    test.__name__ = f"test_{mode}_{kind}_random_play_always_has_a_legal_action_and_never_shows_another_players_secret"
    return test


for _mode, _kind in CASES:
    _test = _property(_mode, _kind)
    globals()[_test.__name__] = _test
