"""暗火线: results, views and UI forms (see ``anhuoxian.py`` for the rules; this module reads the state)."""

from __future__ import annotations

from typing import Any

from . import anhuoxian as core
from .anhuoxian import KIND, TERRORIST, State, expected, flashed, smoked
from .anhuoxian_cards import BULLETS, DISARM, DOUBLE, EQUIPMENT, FLASH, RESTAURANT, SERUM, SKILLS
from .base import FormLister, form, forms_for, param, visible_log

USED = {"equip": "装备", "shoot": "射击", "skill": "技能", "grenade": "手雷", "double": "双发子弹"}


def winner(state: State) -> list[int] | None:
    if state.winning_side is None:
        return None
    good = state.winning_side != TERRORIST
    return [p for p, r in enumerate(state.roles) if (r != TERRORIST) == good]


def score(state: State) -> dict[int, int] | None:
    won = winner(state)
    if won is None:
        return None
    return {p: int(p in won) for p in range(len(state.players))}


def view(state: State, viewer: int | None) -> dict[str, Any]:
    over = state.phase == "over"
    seats = []
    for p, name in enumerate(state.players):
        seats.append(
            {
                "seat": p,
                "name": name,
                "role": state.roles[p] if (over or not state.alive[p] or p == viewer) else None,
                "hp": state.hp[p],
                "max_hp": state.max_hp[p],
                "alive": state.alive[p],
                "vest": state.vest[p],
                "env": state.env[p],
                "smoked": smoked(state, p),
                "flashed": flashed(state, p),
                "hand_count": len(state.hands[p]),
                "hand": list(state.hands[p]) if p == viewer else None,
            }
        )
    peeks = [[state.players[t], role] for t, role in state.peeks[viewer]] if viewer is not None else []
    return {
        "kind": KIND,
        "seats": seats,
        "current": state.current,
        "phase": state.phase,
        "to_act": None if over else expected(state)[0],
        "dying": state.dying["queue"][0] if state.dying and state.dying["queue"] else None,
        "used": [USED.get(u, u) for u in state.used],
        "effects": [
            {"kind": e["kind"], "by": state.players[e["by"]], "targets": [state.players[t] for t in e["targets"]]}
            for e in state.effects
        ],
        "deck_count": len(state.deck),
        "discard_count": len(state.discard_pile),
        "peeks": peeks,
        "winning_side": state.winning_side,
        "winners": winner(state),
        "log": visible_log(state.log, viewer),
    }


# --- forms --------------------------------------------------------------------------------------------------------


def forms(s: State, seat: int) -> list[dict[str, Any]]:
    if s.phase == "over":
        return []
    who, allowed = core.expected(s)
    return forms_for(_LISTERS, allowed, s, seat) if seat == who else []


def _others(s: State, seat: int) -> list[tuple[int, str]]:
    return [(p, s.players[p]) for p in core.living(s) if p != seat]


def _equip_forms(s: State, seat: int) -> list[dict[str, Any]]:
    owned = sorted({c for c in s.hands[seat] if c in EQUIPMENT})
    if "equip" in s.used or not owned:
        return []
    return [form("equip", "装备", param("card", "牌", "choice", [(c, c) for c in owned]))]


def _shoot_forms(s: State, seat: int) -> list[dict[str, Any]]:
    if "shoot" in s.used:
        return []
    return [
        form(
            "shoot",
            f"开枪:{card}",
            param("card", "牌", "hidden", [(card, card)]),
            param("targets", "目标", "seats", _others(s, seat)),
            help="双发子弹:选 1 人造成 2 点,或选 2 人各 1 点。" if card == DOUBLE else "",
        )
        for card in sorted({c for c in s.hands[seat] if c in BULLETS})
    ]


def _skill_form(s: State, seat: int, card: str) -> dict[str, Any]:
    params = [param("card", "牌", "hidden", [(card, card)])]
    if card == FLASH:
        params.append(param("targets", "两名相邻玩家", "seats", [(p, s.players[p]) for p in core.living(s)]))
    else:
        params.append(param("target", "目标", "seat", _others(s, seat)))
    if card == DISARM:
        whats = [("hand", "随机一张手牌"), ("vest", "防弹衣"), ("env", "环境牌"), ("smoke", "烟雾弹")]
        params.append(param("what", "拆除", "choice", whats))
    return form("skill", f"技能:{card}", *params)


def _skill_forms(s: State, seat: int) -> list[dict[str, Any]]:
    if "skill" in s.used:
        return []
    return [_skill_form(s, seat, card) for card in sorted({c for c in s.hands[seat] if c in SKILLS})]


def _serum_forms(s: State, seat: int) -> list[dict[str, Any]]:
    hurt = SERUM in s.hands[seat] and s.hp[seat] < s.max_hp[seat]
    return [form("serum", "使用血清(+1 血)")] if hurt else []


def _unequip_forms(s: State, seat: int) -> list[dict[str, Any]]:
    dining = s.env[seat] == RESTAURANT and s.env_turn[seat] != s.turn_no
    return [form("unequip", "解除餐厅")] if dining else []


def _aid_forms(s: State, seat: int) -> list[dict[str, Any]]:
    assert s.dying is not None
    victim = s.dying["queue"][0]
    return [form("aid", f"对 {s.players[victim]} 使用急救包"), form("pass", "不救")]


def _discard_forms(s: State, seat: int) -> list[dict[str, Any]]:
    hand = s.hands[seat]
    excess = len(hand) - core.hand_limit(s, seat)
    return [form("discard", f"弃置 {excess} 张牌", param("cards", "弃哪些", "multi", [(c, c) for c in hand], excess))]


_LISTERS: dict[str, FormLister] = {
    "equip": _equip_forms,
    "shoot": _shoot_forms,
    "skill": _skill_forms,
    "serum": _serum_forms,
    "unequip": _unequip_forms,
    "end_play": lambda s, seat: [form("end_play", "结束出牌阶段")],
    "aid": _aid_forms,
    "discard": _discard_forms,
}
