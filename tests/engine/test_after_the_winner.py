"""V1–V4: once a close declares a winner, no input is accepted — found by bench/simulate.py (after_winner): the
pure engine accepted a vote in a phase opened after the game was won."""

from moderator.rules import Action, SeatSpec, Vote, end_phase, open_phase, start_game, submit


def _won_game():
    seats = [SeatSpec("甲", "杀手", ("庶民", "杀手")), SeatSpec("乙", "平民", ("巫医",))]
    state, verdict = submit(start_game(seats), Action("甲", "普通攻击", "杀手", "乙", manifesto="杀" * 100))
    assert verdict.accepted
    state, result = end_phase(state)
    assert result.winner == "杀手"
    return open_phase(state)[0]


def test_v2_no_vote_is_accepted_after_the_killer_camp_has_won():
    _, verdict = submit(_won_game(), Vote("甲", "甲"))
    assert not verdict.accepted
    assert verdict.reason == "游戏已经结束(杀手阵营获胜),不再接受任何输入"


def test_v2_no_privilege_is_accepted_after_the_killer_camp_has_won():
    _, verdict = submit(_won_game(), Action("甲", "普通攻击", "杀手", "甲", manifesto="杀" * 100))
    assert not verdict.accepted
    assert "游戏已经结束" in verdict.reason
