"""狄仁杰 card game, step 1: the check or clue function due when a player reveals their 2nd, 4th or 6th clue."""

from __future__ import annotations

from typing import Any

from .base import RuleError, cards_param, emit, later_rng, require, seat_param, take_from


def check_targets(s: Any) -> list[tuple[int, int]]:
    me = s.current
    return [(o, i) for o in range(s.n) if o != me for i in range(len(s.clues[o])) if [o, i] not in s.checked[me]]


def function_targets(s: Any) -> list[int]:
    others = [p for p in range(s.n) if p != s.current]
    if s.bonus == "L":
        return others
    holding = [p for p in others if s.hands[p]]
    if s.bonus == "W":
        most = max((len(s.hands[p]) for p in holding), default=0)
        return [p for p in holding if len(s.hands[p]) == most]
    return holding


def steal(s: Any, source: int, to: int, count: int) -> list[str]:
    rng = later_rng(s)
    taken = []
    for _ in range(min(count, len(s.hands[source]))):
        taken.append(s.hands[source].pop(rng.randrange(len(s.hands[source]))))
    s.hands[to].extend(taken)
    return taken


def _do_check(s: Any, seat: int, action: dict[str, Any]) -> None:
    owner = seat_param(s, action, "owner", "线索的主人")
    index = action.get("index")
    options = check_targets(s)
    if not isinstance(index, int) or (owner, index) not in options:
        raise RuleError("只能检查其他玩家面前、你还没检查过的一组线索(owner 座位号,index 从 0 数)。")
    s.checked[seat].append([owner, index])
    cards = s.clues[owner][index]["cards"]
    s.notes[seat].append(f"检查 {s.players[owner]} 的第 {index + 1} 组线索:{' '.join(cards)}")
    emit(s, f"{s.players[seat]} 秘密检查了 {s.players[owner]} 的第 {index + 1} 组线索。")
    emit(s, f"检查结果:{' '.join(cards)}(由上到下)。", to=[seat])
    s.phase = "request"


def _do_function(s: Any, seat: int, action: dict[str, Any]) -> None:
    target = seat_param(s, action, "target", "目标玩家")
    options = function_targets(s)
    require(target in options, f"此线索功能可以选择:{'、'.join(s.players[p] for p in options) or '(无)'}。")
    if s.bonus == "L":
        s.hands[seat], s.hands[target] = s.hands[target], s.hands[seat]
        emit(s, f"线索功能(地点):{s.players[seat]} 与 {s.players[target]} 交换所有手牌。")
        s.phase = "request"
    elif s.bonus == "W":
        taken = steal(s, target, seat, 2)
        emit(s, f"线索功能(凶器):{s.players[seat]} 从 {s.players[target]} 手中随机抽取 {len(taken)} 张牌。")
        emit(s, f"你抽到:{'、'.join(taken)}。", to=[seat])
        s.phase = "request"
    else:
        taken = steal(s, target, seat, 3)
        emit(s, f"线索功能(目标):{s.players[seat]} 从 {s.players[target]} 手中随机抽取 {len(taken)} 张牌。")
        emit(s, f"你抽到:{'、'.join(taken)};请选 {len(taken)} 张还给 {s.players[target]}。", to=[seat])
        s.pending = {"target": target, "count": len(taken)}
        s.phase = "give_back"


def _do_give_back(s: Any, seat: int, action: dict[str, Any]) -> None:
    assert s.pending
    cards, target, count = cards_param(action), s.pending["target"], s.pending["count"]
    require(len(cards) == count, f"需要正好还给 {s.players[target]} {count} 张牌。")
    take_from(s.hands[seat], cards)
    s.hands[target].extend(cards)
    emit(s, f"{s.players[seat]} 面朝下还给 {s.players[target]} {count} 张牌。")
    emit(s, f"{s.players[seat]} 还给你:{'、'.join(cards)}。", to=[target, seat])
    s.pending = None
    s.phase = "request"
