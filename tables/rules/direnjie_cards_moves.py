"""狄仁杰 card game (electronic): the moves a seat may make now, each with its legal arguments — declared once.

The pages' forms are built from this list (``direnjie_cards_view.forms``); each move checks its own legality when applied
(``direnjie_cards.apply``) with the same functions (``check_targets``, ``function_targets``, ``request_categories``,
``request_numbers``, ``givable``, ``consolation_sources``, ``clue_options``, ``submit_actions``, ``refill_choices``,
``names_killer``), so the list and the rules cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import direnjie_cards as game
from . import direnjie_cards_clues as cl
from .direnjie_cards_bonus import check_targets, function_targets
from .direnjie_cards_draws import FROM_DECK, NONE, consolation_sources, refill_choices
from .direnjie_cards_score import ANSWER, killer_suspects, names_killer
from .moves import Arg, Move, choice_arg, seat_arg

_Lister = Callable[[Any, int], list[Move]]


def _check(s: Any, seat: int) -> list[Move]:
    return [
        Move(
            "check",
            f"检查 {s.players[owner]} 的第 {index + 1} 组线索",
            (_hidden("owner", owner), _hidden("index", index)),
        )
        for owner, index in check_targets(s)
    ]


def _hidden(name: str, value: Any) -> Arg:
    return Arg(name, "", "hidden", ((value, ""),))


def _function(s: Any, seat: int) -> list[Move]:
    targets = function_targets(s)
    label = f"线索功能({cl.CATEGORY[s.bonus]})"
    return [Move("function", label, (seat_arg("target", "对象", s.players, targets),))] if targets else []


def _give_back(s: Any, seat: int) -> list[Move]:
    count = s.pending["count"]
    hand = tuple((c, c) for c in sorted(s.hands[seat]))
    return [Move("give_back", f"选 {count} 张牌还回去", (Arg("cards", "牌", "multi", hand, count),))]


def _request(s: Any, seat: int) -> list[Move]:
    categories = [(c, cl.CATEGORY[c]) for c in cl.request_categories(s)]
    numbers = tuple((k, f"{k} 号") for k in cl.request_numbers(s))
    return [
        Move("request", "索取类别", (choice_arg("category", "类别", categories),)),
        Move("request", "索取号码", (Arg("number", "号码", "int", numbers),)),
    ]


def _give(s: Any, seat: int) -> list[Move]:
    wanted = cl.describe_request(s.request)
    fitting = cl.givable(s.hands[seat], s.request)
    if not fitting:
        return [Move("pass", f"没有「{wanted}」:不给")]
    card = choice_arg("card", "牌", [(c, c) for c in fitting])
    return [Move("give", f"给一张「{wanted}」", (card,)), Move("pass", "不给")]


def _consolation(s: Any, seat: int) -> list[Move]:
    sources = [(x, _source_name(s, x)) for x in consolation_sources(s, seat)]
    return [Move("consolation", "没有索取到牌:补一张", (Arg("source", "来源", "source", tuple(sources)),))]


def _source_name(s: Any, source: Any) -> str:
    return {FROM_DECK: "牌库", NONE: "不补"}.get(source) or s.players[source]


def _submit(s: Any, seat: int) -> list[Move]:
    clues = cl.clue_options(s.hands[seat], seat == s.killer)
    shown = tuple((" ".join(c), " ".join(c)) for c in clues)
    cards = Arg("cards", "线索(由上到下)", "cardset", shown)
    return [Move("submit", "提交线索", (cards,), combos=tuple((c,) for c in clues))]


def _no_submit(s: Any, seat: int) -> list[Move]:
    return [Move("no_submit", "不提交线索(杀手)" if seat == s.killer else "没有可组成的线索:不提交")]


def _refill(s: Any, seat: int) -> list[Move]:
    choices = refill_choices(s, seat)
    singles = [c[0] for c in choices if len(c) == 1]
    sources = Arg(
        "sources", "来源(可选两项;两张都从牌库请选两次)", "sources", tuple((x, _source_name(s, x)) for x in singles)
    )
    combos = tuple((c,) for c in choices)
    return [Move("refill", "补手牌(最多两张)", (sources,), help="第一项与第二项分别选择;留空表示不补。", combos=combos)]


def answer_move(s: Any, seat: int) -> Move:
    """写下解答: T, W and L, and the killer a detective names (``names_killer``, as ``write_answer`` asks)."""
    suspects = [seat_arg("killer", "杀手是", s.players, killer_suspects(s, seat))] if names_killer(s, seat) else []
    return Move("answer", "写下解答", (*_numbers(), *suspects))


def mission_move() -> Move:
    """The secret mission turned over (physical mode): T, W and L, as an answer names them."""
    return Move("mission", "记录翻开的秘密任务", _numbers())


def _numbers() -> tuple[Arg, ...]:
    return tuple(Arg(c, label, "int", tuple((k, f"{c}{k}") for k in values)) for c, (label, values) in ANSWER.items())


# In the order the page shows them; a type is listed only when the phase opens it to the seat (``direnjie_cards_expected``).
_LISTERS: dict[str, _Lister] = {
    "check": _check,
    "function": _function,
    "give_back": _give_back,
    "request": _request,
    "give": _give,
    "consolation": _consolation,
    "submit": _submit,
    "no_submit": _no_submit,
    "refill": _refill,
    "answer": lambda s, seat: [answer_move(s, seat)],
}


def moves(s: Any, seat: int) -> list[Move]:
    """Every move ``seat`` may make now."""
    if s.phase == "over":
        return []
    who, allowed = game.direnjie_cards_expected(s)
    if seat not in who:
        return []
    return [m for kind in _LISTERS if kind in allowed for m in _LISTERS[kind](s, seat)]
