"""狄仁杰 card game: answers and results — writing an answer, scoring, the team variant, the winners.

Read by the rules (the last answer ends the game with its scores) and by the views of both modes."""

from __future__ import annotations

from typing import Any

from .base import emit, int_param, require, seat_param

TEAM_SHAPES = {"2v2": (4, 2), "3v3": (6, 2), "2v2v2": (6, 3)}
MISSION_POINTS = {0: 0, 1: 1, 2: 3, 3: 6}


def thinks_killer(s: Any, seat: int) -> bool:
    """Is ``seat`` the killer as far as its own page goes?  Digital: dealt A.  Physical: it claimed A itself (another
    seat's claim, even the last one, must not change this seat's page)."""
    claims = getattr(s, "claims", None)
    return seat in claims if claims else seat == s.killer


# An answer (and the mission turned over): the number of each category, as the cards are numbered.
ANSWER = {"T": ("目标", range(1, 7)), "W": ("凶器", range(1, 6)), "L": ("地点", range(1, 6))}


def names_killer(s: Any, seat: int) -> bool:
    """With the killer expansion a detective names the killer in their answer; the killer names nobody."""
    return bool(s.options["killer"]) and not thinks_killer(s, seat)


def killer_suspects(s: Any, seat: int) -> list[int]:
    """Whom a detective may name as the killer: anyone but themselves."""
    return [p for p in range(s.n) if p != seat]


def numbers_param(action: dict[str, Any]) -> dict[str, int]:
    return {c: int_param(action, c, values, f"{label}号码") for c, (label, values) in ANSWER.items()}


def write_answer(s: Any, seat: int, action: dict[str, Any]) -> None:
    """The seat's answer: T, W and L numbers, and with the killer expansion the killer a detective names."""
    answer: dict[str, Any] = {**numbers_param(action), "killer": None}
    if names_killer(s, seat):
        answer["killer"] = seat_param(s, action, "killer", "你认为的杀手")
        require(answer["killer"] in killer_suspects(s, seat), "你不能指认自己为杀手。")
    else:
        require(
            "killer" not in action,
            "这份解答不指认杀手" + ("(杀手不写)。" if s.options["killer"] else "(本局没有杀手扩充)。"),
        )
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
    k = TEAM_SHAPES[shape][1]
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


def describe_answer(s: Any, answer: dict[str, Any] | None) -> str:
    if not answer:
        return "(未写)"
    named = f",杀手是 {s.players[answer['killer']]}" if answer.get("killer") is not None else ""
    return f"目标 T{answer['T']}、凶器 W{answer['W']}、地点 L{answer['L']}{named}"
