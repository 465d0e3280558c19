"""狄仁杰 card game: answers, scoring, the team variant, views and forms (see ``direnjie_cards.py``)."""

from __future__ import annotations

from typing import Any

from . import direnjie_cards as game
from . import direnjie_cards_clues as cl
from .base import emit, form, int_param, param, require, seat_param, visible_log

MISSION_POINTS = {0: 0, 1: 1, 2: 3, 3: 6}


def thinks_killer(s: Any, seat: int) -> bool:
    """Is ``seat`` the killer as far as its own page goes?  Digital: dealt A.  Physical: it claimed A itself (another
    seat's claim, even the last one, must not change this seat's page: issue 27)."""
    claims = getattr(s, "claims", None)
    return seat in claims if claims else seat == s.killer


def write_answer(s: Any, seat: int, action: dict[str, Any]) -> None:
    """The seat's answer: T, W and L numbers, and with the killer expansion the killer a detective names."""
    answer: dict[str, Any] = {
        "T": int_param(action, "T", range(1, 7), "目标号码"),
        "W": int_param(action, "W", range(1, 6), "凶器号码"),
        "L": int_param(action, "L", range(1, 6), "地点号码"),
        "killer": None,
    }
    if s.options["killer"] and not thinks_killer(s, seat):
        answer["killer"] = seat_param(s, action, "killer", "你认为的杀手")
        require(answer["killer"] != seat, "你不能指认自己为杀手。")
    s.answers[seat] = answer
    emit(s, f"{s.players[seat]} 写好了解答。")


def do_answer(s: Any, seat: int, action: dict[str, Any]) -> None:
    write_answer(s, seat, action)
    if all(a is not None for a in s.answers):
        s.phase = "over"
        m = s.mission
        emit(s, f"秘密任务揭晓:目标 T{m['T']}、凶器 W{m['W']}、地点 L{m['L']}。")
        if s.killer is not None:
            emit(s, f"杀手公布身份:{s.players[s.killer]}。")
        scores = score(s)
        assert scores is not None
        emit(s, "得分:" + ",".join(f"{s.players[p]} {scores[p]}" for p in range(s.n)))
        emit(s, "获胜:" + "、".join(s.players[p] for p in winner(s) or []))


def correct(s: Any, seat: int) -> int:
    answer = s.answers[seat]
    return sum(1 for c in "TWL" if answer and answer[c] == s.mission[c])


def score(s: Any) -> dict[int, int] | None:
    """1/3/6 for one/two/three categories, 1 per two clues; killer expansion: 3 for naming the killer, the killer
    1 per correct category, 1 per clue and 5 if no detective named them."""
    if s.phase != "over":
        return None
    out = {}
    found = [
        p
        for p in range(s.n)
        if s.killer is not None and p != s.killer and s.answers[p] and s.answers[p]["killer"] == s.killer
    ]
    for p in range(s.n):
        if s.killer is not None and p == s.killer:
            out[p] = correct(s, p) + s.submitted[p] + (0 if found else 5)
        else:
            out[p] = MISSION_POINTS[correct(s, p)] + s.submitted[p] // 2 + (3 if p in found else 0)
    return out


def teams(s: Any) -> list[list[int]] | None:
    """Team variant: the teams the table chose (option ``team_of``), else seat p is on team p mod k."""
    chosen = s.options.get("team_of")
    if chosen:
        return [[p for p in range(s.n) if chosen[p] == t] for t in sorted(set(chosen))]
    shape = s.options.get("teams")
    if not shape:
        return None
    k = game.TEAM_SHAPES[shape][1]
    return [[p for p in range(s.n) if p % k == t] for t in range(k)]


def winner(s: Any) -> list[int] | None:
    """Highest score wins; ties go to the most clues submitted, then are shared.  Teams: the sums."""
    scores = score(s)
    if scores is None:
        return None
    groups = teams(s) or [[p] for p in range(s.n)]
    keys = [(sum(scores[p] for p in g), sum(s.submitted[p] for p in g)) for g in groups]
    best = max(keys)
    return sorted(p for g, key in zip(groups, keys, strict=True) if key == best for p in g)


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
    if seat not in who:
        return []
    hand = sorted(s.hands[seat])
    [(p, s.players[p]) for p in range(s.n) if p != seat]
    out = []
    if "check" in allowed:
        for owner, index in game.check_targets(s):
            out.append(
                form(
                    "check",
                    f"检查 {s.players[owner]} 的第 {index + 1} 组线索",
                    param("owner", "", "hidden", [(owner, "")]),
                    param("index", "", "hidden", [(index, "")]),
                )
            )
    if "function" in allowed:
        targets = [(p, s.players[p]) for p in game.function_targets(s)]
        label = f"线索功能({cl.CATEGORY[s.bonus]})"
        out.append(form("function", label, param("target", "对象", "seat", targets)))
    if "give_back" in allowed:
        count = s.pending["count"]
        out.append(
            form("give_back", f"选 {count} 张牌还回去", param("cards", "牌", "multi", [(c, c) for c in hand], count))
        )
    if "request" in allowed:
        cats, nums = cl.banned(s)
        cat_choices = [(c, cl.CATEGORY[c]) for c in "TWL" if c not in cats]
        out.append(form("request", "索取类别", param("category", "类别", "choice", cat_choices)))
        num_choices = [(k, f"{k} 号") for k in range(1, 6) if k not in nums]
        out.append(form("request", "索取号码", param("number", "号码", "int", num_choices)))
    if "give" in allowed:
        fitting = [c for c in hand if c[0] not in "MA" and cl.matches(s.request, c)]
        if fitting:
            choices = [(c, c) for c in dict.fromkeys(fitting)]
            out.append(form("give", f"给一张「{cl.describe(s.request)}」", param("card", "牌", "choice", choices)))
            out.append(form("pass", "不给"))
        else:
            out.append(form("pass", f"没有「{cl.describe(s.request)}」:不给"))
    if "consolation" in allowed:
        sources = [("deck", "牌库")] if s.deck else []
        sources += [(str(p), s.players[p]) for p in range(s.n) if p != seat and len(s.hands[p]) >= 3]
        out.append(
            form("consolation", "没有索取到牌:补一张", param("source", "来源", "source", [*sources, ("none", "不补")]))
        )
    if "submit" in allowed:
        options = [(" ".join(c), " ".join(c)) for c in cl.clue_options(s.hands[seat], seat == s.killer)]
        out.append(form("submit", "提交线索", param("cards", "线索(由上到下)", "cardset", options)))
    if "no_submit" in allowed:
        label = "不提交线索(杀手)" if seat == s.killer else "没有可组成的线索:不提交"
        out.append(form("no_submit", label))
    if "refill" in allowed:
        sources = [("deck", "牌库")] if s.deck else []
        sources += [
            (str(p), s.players[p]) for p in range(s.n) if p != seat and p not in s.given and len(s.hands[p]) >= 3
        ]
        out.append(
            form(
                "refill",
                "补手牌(最多两张)",
                param("sources", "来源(可选两项;两张都从牌库请选两次)", "sources", sources),
                help="第一项与第二项分别选择;留空表示不补。",
            )
        )
    if "answer" in allowed:
        out.append(answer_form(s, seat))
    return out


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


def describe_answer(s: Any, answer: dict[str, Any] | None) -> str:
    if not answer:
        return "(未写)"
    named = f",杀手是 {s.players[answer['killer']]}" if answer.get("killer") is not None else ""
    return f"目标 T{answer['T']}、凶器 W{answer['W']}、地点 L{answer['L']}{named}"
