"""狄仁杰 card game: views, and the forms built from the legal moves (``direnjie_cards.py``: the rules;
``direnjie_cards_moves``: the moves; ``direnjie_cards_score.py``: the results)."""

from __future__ import annotations

from typing import Any

from . import direnjie_cards as game
from . import direnjie_cards_clues as cl
from .base import visible_log
from .direnjie_cards_moves import moves
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
        "to_act": [] if over else game.direnjie_cards_expected(s)[0],
        "request": cl.describe_request(s.request) if s.request else None,
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
    """The page's forms: one per legal move (``direnjie_cards_moves``), its choices the legal values."""
    return [m.form() for m in moves(s, seat)]
