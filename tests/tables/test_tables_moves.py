"""Moves declared once: 三国杀 electronic lists its legal moves with their arguments, its forms are built from that
list, and the fuzz's check (``bench.tables_fuzz._moves_disagree``) catches a list that offers an illegal move or
leaves out a legal one."""

from __future__ import annotations

import pytest

from bench.tables_fuzz import _moves_disagree
from tables.rules import GAMES, PHYSICAL, TableGame
from tables.rules import sanguosha_moves as moves
from tables.rules.moves import Move

sgs = GAMES["sanguosha"]
NAMES = ["甲", "乙", "丙", "丁", "戊"]


def a_play_phase():
    s = sgs.new_game(NAMES, 7)
    me = s.current
    s.hands[me] = [sgs.SHA, sgs.TAO, sgs.JIU, sgs.SHAN]
    s.hp[me] = s.max_hp[me] - 1
    return s, me


INTERFACE = ("KIND", "TITLE", "MIN_PLAYERS", "MAX_PLAYERS", "State", "new_game", "apply", "legal", "winner", "score", "view",
             "moves", "forms")  # fmt: skip


def test_every_game_and_mode_has_the_typed_table_game_interface():
    """mypy checks ``GAMES`` and ``PHYSICAL`` against ``TableGame``; this checks the same names at run time."""
    assert set(INTERFACE) == {n for n in vars(TableGame) if not n.startswith("_")} | set(TableGame.__annotations__)
    for table in (GAMES, PHYSICAL):
        for game in table.values():
            assert isinstance(game.KIND, str) and game.MIN_PLAYERS <= game.MAX_PLAYERS
            for name in INTERFACE:
                assert hasattr(game, name), (game, name)


def test_the_forms_are_the_legal_moves_forms_and_each_offered_action_is_legal():
    s, me = a_play_phase()
    listed = moves.moves(s, me)
    assert [m.type for m in listed] == ["sha", "tao", "jiu", "end_play"]
    assert sgs.forms(s, me) == [m.form() for m in listed]
    for move in listed:
        for action in move.actions(me):
            sgs.legal(s, action)
    assert _moves_disagree("sanguosha", "digital", sgs, s, oracle=True) == []


def test_the_check_catches_a_list_that_offers_a_move_the_rules_refuse(monkeypatch):
    s, me = a_play_phase()
    s.hp[me] = s.max_hp[me]  # [桃] is refused at full 体力
    monkeypatch.setitem(moves._LISTERS, "tao", lambda s, seat: Move("tao", "使用[桃]"))
    wrong = _moves_disagree("sanguosha", "digital", sgs, s, oracle=True)
    assert any("表单给出的动作不合法" in w and "'tao'" in w for w in wrong)


@pytest.mark.parametrize("left_out", ["sha", "jiu", "end_play"])
def test_the_check_catches_a_list_that_leaves_out_a_legal_move(monkeypatch, left_out):
    s, _ = a_play_phase()
    monkeypatch.setitem(moves._LISTERS, left_out, lambda s, seat: None)
    wrong = _moves_disagree("sanguosha", "digital", sgs, s, oracle=True)
    assert any("合法的动作没有表单" in w and f"'{left_out}'" in w for w in wrong)
