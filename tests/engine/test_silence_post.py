"""T7 ruling: the 默哀期 post says how many players are left (3 or 2), and is made once."""

from moderator.rules import Action, SeatSpec, end_phase, start_game, submit
from moderator.services import posts
from moderator.services.drafts import _common, bbcode_plain


def _night_one(*attacks: str):
    seats = [
        SeatSpec("甲", "杀手", ("庶民", "庶民", "杀手")),
        SeatSpec("乙", "平民", ("束魂",)),
        SeatSpec("丙", "平民", ("巫医",)),
        SeatSpec("丁", "狼人", ("庶民", "庶民", "狼人")),
    ]
    state = start_game(seats)
    for target in attacks:
        state, verdict = submit(state, Action("甲", "普通攻击", "杀手", target, manifesto="杀" * 100))
        assert verdict.accepted, verdict.reason
    return end_phase(state)[1]


def _tail(result) -> str:
    return bbcode_plain(posts.tail(_common(list(result.events), result, None)))


def test_t7_the_post_says_three_are_left_when_three_are_left():
    result = _night_one("乙")
    assert result.silence
    assert "现在只剩三名游戏者,进入默哀期" in _tail(result)


def test_t7_the_post_says_two_are_left_when_one_night_takes_four_to_two():
    result = _night_one("乙", "丙")
    assert result.silence
    assert "现在只剩两名游戏者,进入默哀期" in _tail(result)


def test_t7_no_silence_post_while_four_are_alive():
    result = _night_one()
    assert not result.silence
    assert "默哀期" not in _tail(result)
