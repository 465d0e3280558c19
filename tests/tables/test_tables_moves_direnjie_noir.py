"""Moves declared once, 狄仁杰 (electronic and physical) and Noir: random games played through the rules, and after every
move, for every seat (and the 狄仁杰 tracker's host): the forms are the legal moves' forms, every action a move lists
is legal, and every action the rules accept — tried for every value each argument could be sent, from the fuzz's
oracle (``bench/tables_oracles``) — is offered by a move."""

from __future__ import annotations

import dataclasses
import random
from types import ModuleType
from typing import Any

import pytest

from bench.tables_oracles import conceivable, oracle
from tables.rules import RuleError, game
from tables.rules.moves import Move, offered
from tables.rules.tracker import HOST

NAMES = ["阿甲", "阿乙", "阿丙", "阿丁", "阿戊", "阿己"]
MAX_STEPS = 3000


def disagreements(rules: Any, orc: ModuleType, state: Any, actors: list[Any]) -> list[str]:
    wrong = []
    state = dataclasses.replace(state, log=[])  # no move reads the log: every legality test copies less
    for actor in actors:
        listed = rules.moves(state, actor)
        if rules.forms(state, actor) != [m.form() for m in listed]:
            wrong.append(f"{actor}: the forms are not the legal moves' forms")
        for action in (a for m in listed for a in m.actions(actor)):
            try:
                rules.legal(state, action)
            except RuleError as refused:
                wrong.append(f"listed but refused: {action} ({refused})")
        for action in conceivable(orc, state, actor, host=actor == HOST):
            if offered(listed, action, actor):
                continue
            try:
                rules.legal(state, action)
            except RuleError:
                continue
            wrong.append(f"legal but not offered: {action}")
    return wrong


def random_action(move: Move, actor: Any, rng: random.Random) -> dict[str, Any] | None:
    if move.combos is not None:
        combo = rng.choice(move.combos) if move.combos else None
        return (
            None
            if combo is None
            else {"type": move.type, "player": actor, **dict(zip((a.name for a in move.args), combo, strict=True))}
        )
    values: dict[str, Any] = {}
    for arg in move.args:
        options = [v for v, _ in arg.choices]
        if not options:
            return None  # a number or a reason typed in (the host's correction)
        values[arg.name] = sorted(rng.sample(options, arg.count or 1)) if arg.kind == "multi" else rng.choice(options)
    return {"type": move.type, "player": actor, **values}


def options_for(kind: str, n: int, rng: random.Random) -> dict[str, Any]:
    """Every option on that the table size allows: the killer expansion (5–6), a team variant (4 and 6); Noir's
    kill target either way."""
    if kind == "noir":
        return {"kill_target": rng.choice([14, 16])}
    teams = {4: "2v2", 6: rng.choice(["3v3", "2v2v2"])}.get(n, "")
    return {"killer": n >= 5, "teams": teams}


def play(kind: str, mode: str, seed: int) -> tuple[int, list[str]]:
    """One random game through the rules; the moves checked after every move. Returns the moves made and the
    disagreements found."""
    rules, orc = game(kind, mode), oracle(kind, mode)
    rng = random.Random(f"{kind}:{mode}:{seed}")
    n = rng.randint(rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    state = rules.new_game(NAMES[:n], seed, options_for(kind, n, rng))
    actors: list[Any] = [*range(n), *([HOST] if mode == "physical" and kind != "noir" else [])]
    for step in range(MAX_STEPS):
        wrong = disagreements(rules, orc, state, actors)
        if wrong or rules.winner(state) is not None:
            return step, wrong
        choices = [(a, m) for a in actors for m in rules.moves(state, a)]
        assert choices, f"nobody can move at step {step}"
        kind = rng.choice(sorted({m.type for _, m in choices}))  # each kind of move as likely: the game moves on
        actor, move = rng.choice([(a, m) for a, m in choices if m.type == kind])
        action = random_action(move, actor, rng)
        if action is not None:
            state, _ = rules.apply(state, action)
    raise AssertionError(f"no end within {MAX_STEPS} moves")


# Seeds whose tables have every option on between them: 狄仁杰 electronic 4 players (2v2) and 5 (the killer: seed 8
# plays 220 moves, seed 1 took 402), the tracker 2, 4 (2v2) and 6 players (the killer and a team variant); Noir with
# either kill target.
GAMES_PLAYED = [
    *(("direnjie_cards", "digital", seed) for seed in (0, 8)),
    *(("direnjie_cards", "physical", seed) for seed in (0, 1, 6)),
    *(("noir", mode, seed) for mode in ("digital", "physical") for seed in range(2)),
]


@pytest.mark.parametrize("kind,mode,seed", GAMES_PLAYED)
def test_every_form_is_a_legal_move_and_every_legal_move_has_a_form(kind, mode, seed):
    steps, wrong = play(kind, mode, seed)
    assert wrong == [], wrong[:3]
    assert steps > 0


# --- the check catches a list that drifts from the rules ------------------------------------------------------------

dj = game("direnjie_cards")
djt = game("direnjie_cards", "physical")
noir = game("noir")


def a_request(n=4, **kw):
    """狄仁杰 electronic, seat 0 in step 2 (索取)."""
    s = dj.new_game(NAMES[:n], 1, {"killer": n >= 5})
    s.start = s.current = 0
    s.phase, s.log = "request", []
    for key, value in kw.items():
        setattr(s, key, value)
    return s


def test_the_check_catches_a_list_that_leaves_out_the_requests_by_number(monkeypatch):
    from tables.rules import direnjie_cards_moves as listing

    s = a_request()
    orc = oracle("direnjie_cards", "digital")
    assert disagreements(dj, orc, s, [0, 1]) == []
    monkeypatch.setitem(listing._LISTERS, "request", lambda s, seat: listing._request(s, seat)[:1])
    wrong = disagreements(dj, orc, s, [0, 1])
    assert any("legal but not offered" in w and "'number'" in w for w in wrong)


def test_the_check_catches_a_list_that_offers_a_move_the_rules_refuse(monkeypatch):
    from tables.rules import noir_moves as listing

    s = noir.new_game(["福尔摩斯", "莫里亚蒂"], 3, {"killer": 0})
    monkeypatch.setitem(listing._LISTERS, "disguise", lambda s: Move("disguise", "伪装"))
    monkeypatch.setattr(listing, "allowed_moves", lambda s, seat: ["kill", "disguise"])
    wrong = disagreements(noir, oracle("noir", "digital"), s, [0, 1])
    assert any("listed but refused" in w and "'disguise'" in w for w in wrong)


# --- what the list fixed: forms that offered an illegal move, or none for a legal one -------------------------------


def test_direnjie_a_clue_function_with_nobody_to_take_from_gets_no_empty_form():
    """Step 1: the 凶器 function takes from one of the others with the most cards; when nobody else holds a card only
    the check is offered (no 线索功能 form with nobody to choose)."""
    s = a_request(hands=[["T1"] * 5, [], [], []], phase="bonus", bonus="W")
    s.clues[1] = [{"cards": ["W2", "W2", "W2"], "public": True}]
    assert [f["type"] for f in dj.forms(s, 0)] == ["check"]
    with pytest.raises(RuleError, match="此线索功能可以选择"):
        dj.apply(s, {"type": "function", "player": 0, "target": 1})


def test_direnjie_a_request_names_a_category_or_a_number_never_both():
    """Step 2: 索取 one category or one number; a request naming both is refused instead of silently taking one."""
    s = a_request()
    with pytest.raises(RuleError, match="索取只选一项"):
        dj.apply(s, {"type": "request", "player": 0, "category": "T", "number": 3})
    assert dj.apply(s, {"type": "request", "player": 0, "number": 3})[0].request == {"number": 3}


def test_direnjie_a_clue_is_submitted_top_to_bottom_with_its_special_card_at_the_bottom():
    """Step 3: the form shows each clue top to bottom; the same cards in another order are refused, not rearranged."""
    s = a_request(hands=[["M4", "T4", "T4", "W1"], [], [], []], phase="submit")
    assert dj.forms(s, 0)[0]["params"][0]["choices"] == [["T4 T4 M4", "T4 T4 M4"]]
    with pytest.raises(RuleError, match="垫底的牌放在最后:T4 T4 M4"):
        dj.apply(s, {"type": "submit", "player": 0, "cards": ["M4", "T4", "T4"]})
    after = dj.apply(s, {"type": "submit", "player": 0, "cards": ["T4", "T4", "M4"]})[0]
    assert after.clues[0] == [{"cards": ["T4", "T4", "M4"], "public": False}]


@pytest.mark.parametrize("mode", ["digital", "physical"])
def test_direnjie_an_answer_names_a_killer_only_when_the_game_asks_for_one(mode):
    """Scoring: without the killer expansion nobody names a killer, and the killer names nobody; an answer that does
    is refused instead of the name being dropped silently."""
    rules = game("direnjie_cards", mode)
    s = rules.new_game(NAMES[:4], 2)
    s.phase = "answer"
    answer = {"type": "answer", "player": 1, "T": 1, "W": 2, "L": 3}
    with pytest.raises(RuleError, match="本局没有杀手扩充"):
        rules.apply(s, {**answer, "killer": 2})
    assert rules.apply(s, answer)[0].answers[1]["killer"] is None
    assert [f["type"] for f in rules.forms(s, 1)] == ["answer"]


def test_direnjie_tracker_takes_no_correction_once_the_game_is_over():
    """The host's page offers no correction after the mission is turned over; the tracker refuses one too (the host
    undoes the mission record first: the score would otherwise change under the lines already shown)."""
    s = djt.new_game(NAMES[:4], 2)
    s.phase, s.answers = "mission", [{"T": 1, "W": 1, "L": 1, "killer": None}] * 4
    s = djt.apply(s, {"type": "mission", "player": HOST, "T": 1, "W": 2, "L": 3})[0]
    assert s.phase == "over" and djt.forms(s, HOST) == []
    with pytest.raises(RuleError, match="这一局已经结束"):
        djt.apply(s, {"type": "correct", "player": HOST, "target": 0, "field": "public", "value": 4, "reason": "漏记"})


def test_noir_the_shift_form_keeps_its_pickers_and_the_move_leaves_out_the_shift_undoing_the_last():
    """Shifting: the page keeps one 推移一排 form; the move lists every shift but the one that would undo the last."""
    s = noir.new_game(["福尔摩斯", "莫里亚蒂"], 3, {"killer": 0})
    s.phase, s.inspector_identity = "main", s.grid[0][0]["name"]
    s.last_shift = {"axis": "row", "index": 2, "dir": 1}
    (shift,) = [m for m in noir.moves(s, s.turn) if m.type == "shift"]
    assert [p["name"] for p in shift.form()["params"]] == ["axis", "index", "dir"]
    listed = list(shift.actions(s.turn))
    assert len(listed) == 19 and {"type": "shift", "player": s.turn, "axis": "row", "index": 2, "dir": -1} not in listed
