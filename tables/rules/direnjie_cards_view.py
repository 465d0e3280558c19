"""狄仁杰 card game: views and forms (see ``direnjie_cards.py`` for the rules, ``direnjie_cards_score.py`` for the results)."""

from __future__ import annotations

from typing import Any

from . import direnjie_cards as game
from . import direnjie_cards_clues as cl
from .base import FormLister, form, forms_for, param, visible_log
from .direnjie_cards_score import (  # noqa: F401  (the results, as the pages and the physical tracker read them)
    MISSION_POINTS,
    correct,
    describe_answer,
    score,
    teams,
    thinks_killer,
    winner,
    write_answer,
)


def view(s: Any, viewer: int | None) -> dict[str, Any]:
    over = s.phase == "over"
    seats = []
    for p, name in enumerate(s.players):
        clues = []
        for i, clue in enumerate(s.clues[p]):
            known = p == viewer or (viewer is not None and [p, i] in s.checked[viewer])
            clues.append(
                {"index": i, "public": clue["public"], "top": clue["cards"][0] if clue["public"] else None,
                 "cards": list(clue["cards"]) if known else None}
            )  # fmt: skip
        seats.append(
            {
                "seat": p,
                "name": name,
                "hand_count": len(s.hands[p]),
                "hand": sorted(s.hands[p]) if p == viewer else None,
                "clues": clues,
                "submitted": s.submitted[p],
                "answered": s.answers[p] is not None,
            }
        )
    me = None
    if viewer is not None:
        role = None
        if s.options["killer"]:
            role = "杀手" if viewer == s.killer else "捕快"
        me = {"seat": viewer, "notes": list(s.notes[viewer]), "role": role, "answer": s.answers[viewer]}
    cats, nums = cl.banned(s)
    return {
        "kind": game.KIND,
        "seats": seats,
        "start": s.start,
        "tail": s.tail,
        "current": s.current,
        "phase": s.phase,
        "to_act": [] if over else game.expected(s)[0],
        "request": cl.describe(s.request) if s.request else None,
        "banned_categories": [cl.CATEGORY[c] for c in sorted(cats)],
        "banned_numbers": sorted(nums),
        "deck_count": len(s.deck),
        "public_count": len(cl.public_clues(s)),
        "last_round": s.last_round,
        "me": me,
        "mission": dict(s.mission) if over else None,
        "killer": s.killer if over else None,
        "answers": list(s.answers) if over else None,
        "scores": score(s),
        "winners": winner(s),
        "teams": teams(s),
        "log": visible_log(s.log, viewer),
    }


def forms(s: Any, seat: int) -> list[dict[str, Any]]:
    if s.phase == "over":
        return []
    who, allowed = game.expected(s)
    return forms_for(_LISTERS, allowed, s, seat) if seat in who else []


def _check_forms(s: Any, seat: int) -> list[dict[str, Any]]:
    return [
        form(
            "check",
            f"检查 {s.players[owner]} 的第 {index + 1} 组线索",
            param("owner", "", "hidden", [(owner, "")]),
            param("index", "", "hidden", [(index, "")]),
        )
        for owner, index in game.check_targets(s)
    ]


def _function_forms(s: Any, seat: int) -> list[dict[str, Any]]:
    targets = [(p, s.players[p]) for p in game.function_targets(s)]
    return [form("function", f"线索功能({cl.CATEGORY[s.bonus]})", param("target", "对象", "seat", targets))]


def _give_back_forms(s: Any, seat: int) -> list[dict[str, Any]]:
    count = s.pending["count"]
    hand = [(c, c) for c in sorted(s.hands[seat])]
    return [form("give_back", f"选 {count} 张牌还回去", param("cards", "牌", "multi", hand, count))]


def _request_forms(s: Any, seat: int) -> list[dict[str, Any]]:
    cats, nums = cl.banned(s)
    cat_choices = [(c, cl.CATEGORY[c]) for c in "TWL" if c not in cats]
    num_choices = [(k, f"{k} 号") for k in range(1, 6) if k not in nums]
    return [
        form("request", "索取类别", param("category", "类别", "choice", cat_choices)),
        form("request", "索取号码", param("number", "号码", "int", num_choices)),
    ]


def _give_forms(s: Any, seat: int) -> list[dict[str, Any]]:
    fitting = [c for c in sorted(s.hands[seat]) if c[0] not in "MA" and cl.matches(s.request, c)]
    if not fitting:
        return [form("pass", f"没有「{cl.describe(s.request)}」:不给")]
    choices = [(c, c) for c in dict.fromkeys(fitting)]
    return [
        form("give", f"给一张「{cl.describe(s.request)}」", param("card", "牌", "choice", choices)),
        form("pass", "不给"),
    ]


def _consolation_forms(s: Any, seat: int) -> list[dict[str, Any]]:
    sources = [("deck", "牌库")] if s.deck else []
    sources += [(str(p), s.players[p]) for p in range(s.n) if p != seat and len(s.hands[p]) >= 3]
    return [form("consolation", "没有索取到牌:补一张", param("source", "来源", "source", [*sources, ("none", "不补")]))]


def _submit_forms(s: Any, seat: int) -> list[dict[str, Any]]:
    options = [(" ".join(c), " ".join(c)) for c in cl.clue_options(s.hands[seat], seat == s.killer)]
    return [form("submit", "提交线索", param("cards", "线索(由上到下)", "cardset", options))]


def _no_submit_forms(s: Any, seat: int) -> list[dict[str, Any]]:
    return [form("no_submit", "不提交线索(杀手)" if seat == s.killer else "没有可组成的线索:不提交")]


def _refill_forms(s: Any, seat: int) -> list[dict[str, Any]]:
    sources = [("deck", "牌库")] if s.deck else []
    sources += [(str(p), s.players[p]) for p in range(s.n) if p != seat and p not in s.given and len(s.hands[p]) >= 3]
    return [
        form(
            "refill",
            "补手牌(最多两张)",
            param("sources", "来源(可选两项;两张都从牌库请选两次)", "sources", sources),
            help="第一项与第二项分别选择;留空表示不补。",
        )
    ]


_LISTERS: dict[str, FormLister] = {
    "check": _check_forms,
    "function": _function_forms,
    "give_back": _give_back_forms,
    "request": _request_forms,
    "give": _give_forms,
    "consolation": _consolation_forms,
    "submit": _submit_forms,
    "no_submit": _no_submit_forms,
    "refill": _refill_forms,
    "answer": lambda s, seat: [answer_form(s, seat)],
}


def answer_form(s: Any, seat: int) -> dict[str, Any]:
    params = [
        param("T", "目标", "int", [(k, f"T{k}") for k in range(1, 7)]),
        param("W", "凶器", "int", [(k, f"W{k}") for k in range(1, 6)]),
        param("L", "地点", "int", [(k, f"L{k}") for k in range(1, 6)]),
    ]
    if s.options["killer"] and not thinks_killer(s, seat):
        params.append(param("killer", "杀手是", "seat", [(p, s.players[p]) for p in range(s.n) if p != seat]))
    return form("answer", "写下解答", *params)


def mission_form() -> dict[str, Any]:
    return form(
        "mission",
        "记录翻开的秘密任务",
        param("T", "目标", "int", [(k, f"T{k}") for k in range(1, 7)]),
        param("W", "凶器", "int", [(k, f"W{k}") for k in range(1, 6)]),
        param("L", "地点", "int", [(k, f"L{k}") for k in range(1, 6)]),
    )
