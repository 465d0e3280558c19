"""三国杀: what each seat sees, and the forms built from the legal moves (``sanguosha.py``: the state and the rules;
``sanguosha_moves``: the moves; ``sanguosha_score``: the results)."""

from __future__ import annotations

from typing import Any

from . import sanguosha_generals as generals
from . import sanguosha_house as house
from .base import visible_log
from .sanguosha import KIND, State, rebirth_on, sanguosha_expected
from .sanguosha_moves import moves
from .sanguosha_score import score, winner

__all__ = ["forms", "score", "view", "winner"]


def _general_shown(state: State, p: int, viewer: int | None) -> dict[str, Any] | None:
    """挑选武将: the lord's general is shown at once, the others' once everyone has chosen (each sees their own)."""
    if len(state.generals) != len(state.players) or state.generals[p] is None:
        return None
    chosen = state.phase not in ("lord_general", "generals")
    return generals.card(str(state.generals[p])) if chosen or p in (state.lord, viewer) else None


def view(state: State, viewer: int | None) -> dict[str, Any]:
    over = state.phase == "over"
    turned_up = {victim for _, victim in state.kills}  # 转世规则: the identity card stays turned up once reborn
    seats = []
    for p, name in enumerate(state.players):
        shown = over or p in (state.lord, viewer) or not state.alive[p] or p in turned_up
        seats.append(
            {
                "seat": p,
                "name": name,
                "role": state.roles[p] if shown else None,
                "hp": state.hp[p],
                "max_hp": state.max_hp[p],
                "alive": state.alive[p],
                "hand_count": len(state.hands[p]),
                "hand": list(state.hands[p]) if p == viewer else None,
                "general_card": _general_shown(state, p, viewer),
            }
        )
    pending = dict(state.pending) if state.pending else None
    who = None if over else sanguosha_expected(state)[0]
    return {
        "kind": KIND,
        "seats": seats,
        "current": state.current,
        "phase": state.phase,
        "to_act": who,
        "pending": pending,
        "deck_count": len(state.deck),
        "discard_count": len(state.discard_pile),
        "sha_used": state.sha_used,
        "winning_side": state.winning_side,
        "winners": winner(state),
        "scores": score(state),
        "house": _house_view(state, seats),
        "with_generals": bool(state.generals),
        "candidates": [generals.card(g) for g in state.candidates[viewer]]
        if viewer is not None and state.candidates and state.generals[viewer] is None
        else [],
        "log": visible_log(state.log, viewer),
    }


def _house_view(state: State, seats: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The house rules' public part in this mode: the countdown and the protected player."""
    o = state.options
    rebirth = rebirth_on(state)
    ghosts = bool(o.get("ghosts")) and len(state.ghosts) == len(state.players)
    if not (o.get("countdown") or state.protected is not None or rebirth or ghosts):
        return None
    standing = [p for p in range(len(state.players)) if state.alive[p]]
    for row in seats:
        p = row["seat"]
        row["reborn"] = rebirth and state.reborn[p]
        row["offerings"] = len(state.hands[p]) if rebirth and not state.alive[p] else None
        row["no_rebirth"] = rebirth and state.no_rebirth[p]
        row["ghost"] = state.ghosts[p] if ghosts and not state.alive[p] else None
        if row["reborn"]:  # 转世: the new general is public
            row["general_card"] = generals.card(str(state.generals[p]))
    return {
        "ghosts": ghosts,
        "ghost_lines": [e["text"] for e in state.log if e["to"] is None and "暗魂附体" in e["text"]],
        "rebirth": rebirth,
        "need": house.rebirth_threshold(len(state.players)),
        "countdown": house.countdown_text(state, standing) if o.get("countdown") else None,
        "protected": state.players[state.protected]
        if state.protected is not None and not house.someone_out(state)
        else None,
    }


def forms(state: State, seat: int) -> list[dict[str, Any]]:
    """The page's forms: one per legal move (``sanguosha_moves``), its choices the legal values."""
    return [m.form() for m in moves(state, seat)]
