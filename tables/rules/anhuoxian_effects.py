"""暗火线's card effects: equip, shoot, skills, serum, unequip (see ``anhuoxian.py`` for the flow and the rulings)."""

from __future__ import annotations

from typing import Any

from . import anhuoxian_board as board
from .anhuoxian_cards import (
    BULLETS,
    CONTROL,
    DISARM,
    DOUBLE,
    EQUIPMENT,
    FLASH,
    GRENADE,
    RESTAURANT,
    SERUM,
    SINGLE,
    SKILLS,
    SMOKE,
    STORAGE,
    SUPERMARKET,
    VEST,
    WARRANT,
)
from .base import RuleError, emit, later_rng, require, seat_param, str_param, take_from


def _card(s: Any, seat: int, action: dict[str, Any], allowed: tuple[str, ...]) -> str:
    card = str_param(action, "card", allowed, "牌")
    require(card in s.hands[seat], f"你手中没有「{card}」。")
    return card


def _target(s: Any, seat: int, target: int, grenade: bool = False) -> None:
    """May ``seat`` name ``target``? Other, living, and the 主控室 rule (only full-HP players, grenades excepted)."""
    require(target != seat, "不能指定你自己为目标。")
    require(s.alive[target], f"{s.players[target]} 已经死亡。")
    if not grenade and s.env[target] == CONTROL and not board.full_hp(s, seat):
        raise RuleError(f"{s.players[target]} 装备了主控室:只有满血的玩家才能指定其为目标(手雷除外)。")


def _not_smoked(s: Any, target: int) -> None:
    if board.smoked(s, target):
        raise RuleError(f"{s.players[target]} 在烟雾弹中,不受任何攻击(手雷除外;武装解除只能拆除烟雾弹)。")


def remove_env(s: Any, seat: int, why: str) -> None:
    old = s.env[seat]
    s.env[seat] = None
    s.discard_pile.append(old)
    emit(s, f"{s.players[seat]} 的{old}被{why}。")
    if old == RESTAURANT:
        was_full = board.full_hp(s, seat)
        s.max_hp[seat] = board.BASE_HP
        s.hp[seat] = min(s.hp[seat] + (0 if was_full else 1), board.BASE_HP)
        emit(s, f"餐厅解除:{s.players[seat]} 血量上限回到 4,血量 {s.hp[seat]}。")


def check_equip(s: Any, seat: int, card: str) -> None:
    require("equip" not in s.used, "每回合只能装备一张牌。")
    _card(s, seat, {"card": card}, EQUIPMENT)
    if card == VEST:
        require(not s.vest[seat], "你已经装备了防弹衣。")


def do_equip(s: Any, seat: int, action: dict[str, Any]) -> None:
    card = str_param(action, "card", EQUIPMENT, "牌")
    check_equip(s, seat, card)
    take_from(s.hands[seat], [card])
    s.used.append("equip")
    if card == VEST:
        s.vest[seat] = True
        emit(s, f"{s.players[seat]} 装备了防弹衣。")
        return
    if s.env[seat]:
        remove_env(s, seat, "新的环境牌替换")
    s.env[seat] = card
    s.env_turn[seat] = s.turn_no
    emit(s, f"{s.players[seat]} 装备了环境牌{card}。")
    if card == SUPERMARKET:
        board.draw(s, seat, 1)
        emit(s, f"超市:{s.players[seat]} 立即补摸一张手牌。")
    if card == RESTAURANT:
        s.max_hp[seat] += 1
        s.hp[seat] += 1
        emit(s, f"餐厅:{s.players[seat]} 血量上限 {s.max_hp[seat]},血量 {s.hp[seat]}。")


def check_bullet(s: Any, seat: int, card: str) -> None:
    """May ``seat`` fire ``card`` this turn (once a turn; 双发子弹 not after 手雷)?"""
    require("shoot" not in s.used, "每回合只能用单发子弹或双发子弹攻击一次。")
    _card(s, seat, {"card": card}, BULLETS)
    require(not (card == DOUBLE and "grenade" in s.used), "双发子弹不能和手雷在同一回合内使用。")


def shot_sizes(card: str) -> tuple[int, ...]:
    return (1,) if card == SINGLE else (1, 2)


def check_shot_target(s: Any, seat: int, t: Any) -> None:
    seat_param(s, {"t": t}, "t", "目标")
    _target(s, seat, t)
    _not_smoked(s, t)


def do_shoot(s: Any, seat: int, action: dict[str, Any]) -> None:
    card = str_param(action, "card", BULLETS, "牌")
    check_bullet(s, seat, card)
    targets = action.get("targets")
    if not (isinstance(targets, list) and len(targets) in shot_sizes(card) and len(set(targets)) == len(targets)):
        raise RuleError("单发子弹指定 1 名玩家;双发子弹指定 1 名(2 点伤害)或 2 名不同玩家(各 1 点)。")
    for t in targets:
        check_shot_target(s, seat, t)
    take_from(s.hands[seat], [card])
    s.discard_pile.append(card)
    s.used += ["shoot"] + (["double"] if card == DOUBLE else [])
    emit(s, f"{s.players[seat]} 使用{card}攻击 {'、'.join(s.players[t] for t in targets)}。")
    amount = 2 if card == DOUBLE and len(targets) == 1 else 1
    for t in targets:
        vest = 1 if s.vest[t] else 0
        if vest:
            emit(s, f"{s.players[t]} 的防弹衣抵消 1 点子弹伤害。")
        board.damage(s, t, amount - vest, seat, card)


def check_skill(s: Any, seat: int, card: str) -> None:
    """May ``seat`` use the skill card ``card`` this turn (once a turn; 手雷 not after 双发子弹)?"""
    require("skill" not in s.used, "每回合只能使用一张技能牌。")
    _card(s, seat, {"card": card}, SKILLS)
    require(not (card == GRENADE and "double" in s.used), "手雷不能和双发子弹在同一回合内使用。")


def do_skill(s: Any, seat: int, action: dict[str, Any]) -> None:
    card = str_param(action, "card", SKILLS, "牌")
    check_skill(s, seat, card)
    {SMOKE: _smoke, FLASH: _flash, DISARM: _disarm, GRENADE: _grenade, WARRANT: _warrant}[card](s, seat, action)
    take_from(s.hands[seat], [card])
    if card != WARRANT:  # 搜查令 leaves the game instead of going to the discard pile
        s.discard_pile.append(card)
    s.used += ["skill"] + (["grenade"] if card == GRENADE else [])


def check_smoke(s: Any, seat: int, t: int) -> None:
    _target(s, seat, t)
    require(s.env[t] != STORAGE, f"{s.players[t]} 装备了储藏室,不受烟雾弹影响。")


def _smoke(s: Any, seat: int, action: dict[str, Any]) -> None:
    t = seat_param(s, action, "target", "目标")
    check_smoke(s, seat, t)
    s.effects.append({"kind": SMOKE, "by": seat, "targets": [t]})
    emit(s, f"{s.players[seat]} 对 {s.players[t]} 使用烟雾弹。")


def _flash(s: Any, seat: int, action: dict[str, Any]) -> None:
    final = flash_landing(s, seat, action.get("targets"))
    s.effects.append({"kind": FLASH, "by": seat, "targets": final})
    emit(s, f"{s.players[seat]} 对 {s.players[final[0]]} 和 {s.players[final[1]]} 使用闪光弹。")


def flash_landing(s: Any, seat: int, chosen: Any) -> list[int]:
    """The two players a flash naming ``chosen`` lands on (储藏室 passed over), or RuleError."""
    if not (isinstance(chosen, list) and len(chosen) == 2):
        raise RuleError("闪光弹要指定两名相邻的玩家(targets)。")
    a, b = (seat_param(s, {"t": t}, "t", "目标") for t in chosen)
    require(board.seats_adjacent(s, a, b), f"{s.players[a]} 和 {s.players[b]} 不相邻。")
    ring = board.living(s)
    final = []
    for x, other in ((a, b), (b, a)):
        step = 1 if board.clockwise(ring, other, 1) == x else -1
        y = x
        while s.env[y] == STORAGE:  # 储藏室: taken out of the circle, the flash lands on the next player beyond
            y = board.clockwise(ring, y, step)
            require(y not in (x, other), "除储藏室玩家外没有可被闪光的相邻玩家。")
        final.append(y)
    require(final[0] != final[1], "除储藏室玩家外没有可被闪光的两名玩家。")
    for t in final:
        if t != seat:
            _target(s, seat, t)
        _not_smoked(s, t)
    return final


DISARMS = {"vest": "防弹衣", "env": "环境牌", "hand": "手牌", "smoke": "烟雾弹"}


def check_disarm(s: Any, seat: int, t: int, what: str) -> None:
    """May ``seat``'s 武装解除 remove ``what`` from ``t`` (a smoked player: only the smoke)?"""
    _target(s, seat, t)
    if board.smoked(s, t):
        require(what == "smoke", f"{s.players[t]} 被放置了烟雾弹:武装解除只能拆除烟雾弹(what=smoke)。")
        return
    require(what != "smoke", f"{s.players[t]} 没有被放置烟雾弹。")
    require(what != "vest" or s.vest[t], f"{s.players[t]} 没有装备防弹衣。")
    require(what != "env" or s.env[t] is not None, f"{s.players[t]} 没有环境牌。")
    require(what != "hand" or bool(s.hands[t]), f"{s.players[t]} 没有手牌。")


def _disarm(s: Any, seat: int, action: dict[str, Any]) -> None:
    t = seat_param(s, action, "target", "目标")
    what = str_param(action, "what", DISARMS, "拆除对象")
    check_disarm(s, seat, t, what)
    if board.smoked(s, t):
        s.effects = [e for e in s.effects if not (e["kind"] == SMOKE and t in e["targets"])]
        emit(s, f"{s.players[seat]} 对 {s.players[t]} 使用武装解除,拆除了烟雾弹。")
    elif what == "vest":
        s.vest[t] = False
        s.discard_pile.append(VEST)
        emit(s, f"{s.players[seat]} 对 {s.players[t]} 使用武装解除,拆除了防弹衣。")
    elif what == "env":
        remove_env(s, t, f"{s.players[seat]} 的武装解除拆除")
    else:
        card = s.hands[t].pop(later_rng(s).randrange(len(s.hands[t])))
        s.discard_pile.append(card)
        emit(s, f"{s.players[seat]} 对 {s.players[t]} 使用武装解除,随机拆除一张手牌:{card}。")
    board.end_flash(s, t)


def check_grenade(s: Any, seat: int, t: int) -> None:
    _target(s, seat, t, grenade=True)


def check_warrant(s: Any, seat: int, t: int) -> None:
    _target(s, seat, t)


def _grenade(s: Any, seat: int, action: dict[str, Any]) -> None:
    t = seat_param(s, action, "target", "目标")
    check_grenade(s, seat, t)
    ring = board.living(s)
    center = t
    while s.env[center] == STORAGE:  # damage passes clockwise past 储藏室 players
        center = board.clockwise(ring, center, 1)
        if center == t:
            emit(s, f"{s.players[seat]} 的手雷没有命中任何人(所有人都在储藏室)。")
            return
    open_ring = board.living(s, without_storage=True)
    hit = [center]
    for step in (-1, 1):
        other = board.clockwise(open_ring, center, step)
        if other not in hit:
            hit.append(other)
    emit(s, f"{s.players[seat]} 对 {s.players[t]} 使用手雷,命中 {'、'.join(s.players[p] for p in hit)}。")
    for p in hit:
        board.damage(s, p, 1, seat, GRENADE)


def _warrant(s: Any, seat: int, action: dict[str, Any]) -> None:
    t = seat_param(s, action, "target", "目标")
    check_warrant(s, seat, t)
    s.peeks[seat].append([t, s.roles[t]])
    emit(s, f"{s.players[seat]} 使用搜查令查看了 {s.players[t]} 的身份牌。")
    emit(s, f"搜查令:{s.players[t]} 的身份是{s.roles[t]}。", to=[seat])


def check_serum(s: Any, seat: int) -> None:
    require(SERUM in s.hands[seat], "你手中没有血清。")
    require(s.hp[seat] < s.max_hp[seat], "你的血量已满。")


def do_serum(s: Any, seat: int, action: dict[str, Any]) -> None:
    check_serum(s, seat)
    take_from(s.hands[seat], [SERUM])
    s.discard_pile.append(SERUM)
    s.hp[seat] += 1
    emit(s, f"{s.players[seat]} 使用血清,血量 {s.hp[seat]}/{s.max_hp[seat]}。")


def check_unequip(s: Any, seat: int) -> None:
    require(s.env[seat] == RESTAURANT, "只有餐厅可以自主解除。")
    require(s.env_turn[seat] != s.turn_no, "餐厅不可在装备的同一回合内解除。")


def do_unequip(s: Any, seat: int, action: dict[str, Any]) -> None:
    check_unequip(s, seat)
    remove_env(s, seat, "自主解除")
