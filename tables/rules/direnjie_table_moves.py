"""狄仁杰 card game, physical-deck tracker: who may record what now, and the moves each seat and the host may make.

The tracker's handlers (``direnjie_table``) refuse a record with these same functions (``open_actions``,
``submit_targets``, ``reveal_targets``, ``may_end_turn``, ``claim_refusal``, ``withdraw_refusal``,
``answer_refusal``), and its forms are built from ``moves``, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import tracker as tr
from .direnjie_cards_moves import answer_move, mission_move
from .moves import Arg, Move, choice_arg, seat_arg

CLUE_HAND_FIELDS = {"hand": "手牌数", "hidden": "暗线索", "public": "公开线索"}
PLAY_RECORDS = ("hand", "submit_clue", "reveal_clue", "end_turn", "claim_killer", "withdraw_claim")
ANSWER_RECORDS = ("answer", "claim_killer", "withdraw_claim")
MISSION_RECORDS = ("mission",)


def open_actions(s: Any) -> tuple[str, ...]:
    """The records this phase takes; the host's correction in every phase until the game is over."""
    phase: tuple[str, ...] = {"play": PLAY_RECORDS, "answer": ANSWER_RECORDS, "mission": MISSION_RECORDS, "over": ()}[
        s.phase
    ]
    return phase + (("correct",) if s.phase != "over" else ())


def submit_targets(s: Any) -> list[int]:
    """Who may be recorded submitting a clue: three cards go face down, so three in hand."""
    return [p for p in range(s.n) if s.hand[p] >= 3]


def reveal_targets(s: Any) -> list[int]:
    return [p for p in range(s.n) if s.hidden[p] > 0]


def may_end_turn(s: Any, actor: int | str) -> bool:
    return actor in (tr.HOST, s.current)


def claim_refusal(s: Any, actor: int | str) -> str | None:
    """Why ``actor`` may not claim the killer card A now (None: they may)."""
    if actor == tr.HOST or not s.options["killer"]:
        return "只有拿到杀手牌的玩家本人可以声明。"
    if s.answers[int(actor)] is not None:
        return "你已经写好解答了。"
    if actor in s.claims:
        return "你已经声明过拿到杀手牌 A 了(可以撤回)。"
    return None


def withdraw_refusal(s: Any, actor: int | str) -> str | None:
    if actor == tr.HOST:
        return "只有声明者本人可以撤回。"
    if actor not in s.claims:
        return "你没有声明过拿到杀手牌 A。"
    if s.answers[int(actor)] is not None:
        return "你已经写好解答了,不能再撤回。"
    return None


def answer_refusal(s: Any, actor: int | str) -> str | None:
    if actor == tr.HOST:
        return "解答由玩家本人写。"
    if s.answers[int(actor)] is not None:
        return "你已经写好解答了。"
    return None


# --- the moves ------------------------------------------------------------------------------------------------------

_Lister = Callable[[Any, Any], list[Move]]


def _end_turn(s: Any, actor: Any) -> list[Move]:
    return [Move("end_turn", f"结束 {s.players[s.current]} 的回合")] if may_end_turn(s, actor) else []


def _submit(s: Any, actor: Any) -> list[Move]:
    targets = submit_targets(s)
    return [Move("submit_clue", "提交线索(暗)", (seat_arg("target", "谁", s.players, targets),))] if targets else []


def _reveal(s: Any, actor: Any) -> list[Move]:
    targets = reveal_targets(s)
    return [Move("reveal_clue", "翻开线索", (seat_arg("target", "谁", s.players, targets),))] if targets else []


def _hand(s: Any, actor: Any) -> list[Move]:
    deltas = tuple((d, f"{d:+d}") for d in sorted(tr.DELTAS, key=lambda d: (d > 0, abs(d))))
    target = seat_arg("target", "谁", s.players, list(range(s.n)))
    return [Move("hand", "手牌数变化", (target, Arg("delta", "变化", "int", deltas)))]


def _claim(s: Any, actor: Any) -> list[Move]:
    """Offered to everyone until they answer, so its absence tells nothing."""
    return [Move("claim_killer", "我拿到了杀手牌 A(只有你自己看得到)")] if claim_refusal(s, actor) is None else []


def _withdraw(s: Any, actor: Any) -> list[Move]:
    label = "撤回:我没有拿到杀手牌 A(点错了;只有你自己看得到)"
    return [Move("withdraw_claim", label)] if withdraw_refusal(s, actor) is None else []


def _answer(s: Any, actor: Any) -> list[Move]:
    return [answer_move(s, int(actor))] if answer_refusal(s, actor) is None else []


def _correct(s: Any, actor: Any) -> list[Move]:
    if actor != tr.HOST:
        return []
    args = (
        seat_arg("target", "谁", s.players, list(range(s.n))),
        choice_arg("field", "项目", list(CLUE_HAND_FIELDS.items())),
        Arg("value", "新数值", "number", ()),
        Arg("reason", "理由", "text", ()),
    )
    return [Move("correct", "更正数值", args)]


# In the order the page shows them; a type is listed only when the phase takes it (``open_actions``).
_LISTERS: dict[str, _Lister] = {
    "end_turn": _end_turn,
    "submit_clue": _submit,
    "reveal_clue": _reveal,
    "hand": _hand,
    "claim_killer": _claim,
    "withdraw_claim": _withdraw,
    "answer": _answer,
    "mission": lambda s, actor: [mission_move()],
    "correct": _correct,
}


def moves(s: Any, actor: int | str) -> list[Move]:
    """Every record ``actor`` (a seat, or ``tracker.HOST``) may make now."""
    open_now = open_actions(s)
    return [m for kind, lister in _LISTERS.items() if kind in open_now for m in lister(s, actor)]
