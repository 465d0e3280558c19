"""三国杀: results, views and UI forms (see ``sanguosha.py`` for the state and the rules)."""

from __future__ import annotations

from typing import Any

from . import sanguosha_generals as generals
from . import sanguosha_house as house
from .base import form, param, visible_log
from .sanguosha import (
    JIU,
    KIND,
    LORD,
    LOYAL,
    REBEL,
    RENEGADE,
    SHA,
    SHAN,
    SIDE_LORD,
    SIDE_REBEL,
    SIDE_RENEGADE,
    TAO,
    State,
    _expected,
    distance,
    ghost_moves,
    rebirth_on,
)


def _standing(state: State, p: int) -> bool:
    """Alive and not reborn: 转世规则 counts a reborn player as out (the physical tracker's state has ``reborn``)."""
    reborn = getattr(state, "reborn", None) or []
    return bool(state.alive[p]) and not (len(reborn) == len(state.players) and reborn[p])


def winner(state: State) -> list[int] | None:
    side = state.winning_side
    if side is None:
        return None
    if side == SIDE_LORD:
        return [p for p, r in enumerate(state.roles) if r in (LORD, LOYAL)]
    if side == SIDE_REBEL:
        return [p for p, r in enumerate(state.roles) if r == REBEL]
    return [p for p, r in enumerate(state.roles) if r == RENEGADE and _standing(state, p)]


def score(state: State) -> dict[int, int] | None:
    """4th-edition scoring (see module docstring for the rulings)."""
    side = state.winning_side
    if side is None:
        return None
    n = len(state.players)
    roles = state.roles
    alive_loyal = sum(1 for p, r in enumerate(roles) if r == LOYAL and _standing(state, p))
    alive_rebel = sum(1 for p, r in enumerate(roles) if r == REBEL and _standing(state, p))
    out = {}
    for p, role in enumerate(roles):
        victims = [roles[v] for k, v in state.kills if k == p]
        if role == LORD:
            pts = {SIDE_LORD: 4 + 2 * alive_loyal, SIDE_REBEL: 0, SIDE_RENEGADE: 1}[side]
        elif role == LOYAL:
            pts = 5 + alive_loyal if side == SIDE_LORD else 0
        elif role == REBEL:
            pts = 3 * alive_rebel if side == SIDE_REBEL else 0
        elif side == SIDE_RENEGADE:
            pts = 4 + 2 * n if _standing(state, p) else 0
        elif side == SIDE_LORD:
            pts = n if state.duel and _last_renegade(state) == p else 0
        else:
            pts = 1 if _standing(state, p) else 0
        if side == SIDE_LORD and role in (LORD, LOYAL):
            pts += sum(1 for v in victims if v in (REBEL, RENEGADE))
        if side == SIDE_REBEL and role == REBEL:
            pts += sum(1 for v in victims if v in (LOYAL, RENEGADE)) + 2 * sum(1 for v in victims if v == LORD)
        out[p] = pts
    return out


def _last_renegade(state: State) -> int | None:
    for _, victim in reversed(state.kills):
        if state.roles[victim] == RENEGADE:
            return victim
    return None


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
    who = None if over else _expected(state)[0]
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


def _ghost_forms(state: State, seat: int) -> list[dict[str, Any]]:
    targets = ghost_moves(state, seat)
    if not targets:
        return []
    ghost = str(state.ghosts[seat])
    choices = [(p, state.players[p]) for p in targets]
    return [
        form(
            "ghost",
            f"{ghost}暗魂附体(只能用一次)",
            param("target", "附体谁", "seat", choices),
            help=house.GHOST_TEXT[ghost],
        )
    ]


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
    if state.phase == "over":
        return []
    who, allowed = _expected(state)
    if seat not in ([who] if isinstance(who, int) else who):
        return _ghost_forms(state, seat)
    if "choose_general" in allowed:
        choices = [(g, generals.label(g)) for g in state.candidates[seat]]
        return [form("choose_general", "选择武将", param("general", "武将", "choice", choices))]
    hand = state.hands[seat]
    out = []
    if "sha" in allowed and SHA in hand and not state.sha_used:
        reach = [
            (p, state.players[p])
            for p in range(len(state.players))
            if p != seat and state.alive[p] and distance(state, seat, p) <= 1
        ]
        out.append(form("sha", "使用[杀]", param("target", "目标", "seat", reach)))
    if "tao" in allowed and TAO in hand and state.hp[seat] < state.max_hp[seat]:
        out.append(form("tao", "使用[桃]回复 1 点体力"))
    if "jiu" in allowed and JIU in hand and not state.jiu_used:
        out.append(form("jiu", "使用[酒](下一张[杀]伤害+1)"))
    if "sacrifice" in allowed and rebirth_on(state) and not state.reborn[seat] and hand:
        dead = [
            (p, state.players[p]) for p in range(len(state.players)) if not state.alive[p] and not state.no_rebirth[p]
        ]
        if dead and state.gave_on_turn[seat] != state.turn_no:
            cards = [(c, f"[{c}]") for c in dict.fromkeys(hand)]
            out.append(
                form(
                    "sacrifice",
                    "献祭一张手牌(转世)",
                    param("target", "献给谁", "seat", dead),
                    param("card", "哪张牌", "choice", cards),
                    help=f"已出局的玩家收到 {house.rebirth_threshold(len(state.players))} 张即转世;每回合只能献祭一次",
                )
            )
    if "end_play" in allowed:
        out.append(form("end_play", "结束出牌阶段"))
    if "shan" in allowed:  # offered only with the card in hand
        if SHAN in hand:
            out.append(form("shan", "打出[闪]"))
        out.append(form("take", "不出[闪],受到伤害" if SHAN in hand else "没有[闪]:受到伤害"))
    if "rescue" in allowed:
        assert state.pending
        cards = [(TAO, "[桃]")] if TAO in hand else []
        if seat == state.pending["victim"] and JIU in hand:
            cards.append((JIU, "[酒]"))
        if cards:
            out.append(form("rescue", "救援", param("card", "用牌", "choice", cards)))
        out.append(form("pass", "不救" if cards else "没有[桃]:不救"))
    if "discard" in allowed:
        excess = len(hand) - max(state.hp[seat], 0)
        out.append(
            form("discard", f"弃置 {excess} 张牌", param("cards", "弃哪些", "multi", [(c, c) for c in hand], excess))
        )
    return out
