"""Noir: Killer vs Inspector (黑幕:杀手对警探), Board Game Arena rules (source 001).

Pure rules module. Seats: two players; by default the roles are drawn from the seed, option ``killer`` (0 or 1) fixes
the killer's seat. Actions (``player`` is the acting seat):

* killer: ``kill`` {target}, ``shift`` {axis: row|col, index, dir: 1|-1}, ``disguise`` {}
* inspector: ``choose_identity`` {card} (first turn), ``shift``, ``arrest`` {target}, ``exonerate_draw`` {} then
  ``exonerate`` {card}

Rulings (also in docs/tables.md):

* The 25 suspects are laid out in a random (seeded) 5×5 grid; the evidence deck is shuffled separately.
* "Adjacent" is the 8 neighbours (edges and corners) in the current, possibly collapsed, grid; no wrap-around.
* The no-immediate-reversal rule binds both players and only the action right after the shift.  On a line of length 2
  both directions undo the shift, so both are banned.  If the shift made a row or column collapse, nothing can undo it
  and the ban lapses.  Shifting a line of length 1 changes nothing and is refused.
* The inspector's first turn is the identity choice: the 4 cards are drawn when the killer's first kill is done, and
  the inspector must pick a living suspect (one of the 4 may already be dead).
* Exonerating asks whether the killer is among the 8 neighbours of the exonerated suspect; killing an exonerated
  suspect asks the same of the inspector.  The answers are public events.
* A failed arrest is public ("X 不是杀手"); a successful one ends the game.
* Killer wins at ``kill_target`` kills (default 16, the BGA and designer's video number; 14 is the printed manual's).
* When the evidence deck is empty, disguise and exonerate are refused; the player must shift, kill or arrest.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from .base import (
    RuleError,
    TableState,
    check_players,
    dispatch,
    emit,
    int_param,
    legal_via,
    require,
    str_param,
)

KIND = "noir"
TITLE = "黑幕:杀手对警探"
MIN_PLAYERS = 2
MAX_PLAYERS = 2
SUSPECTS = (
    "艾琳 博文 陈默 丁香 恩泽 方舟 葛兰 韩冰 伊凡 金铭 柯宁 林黛 孟浩 宁远 欧阳 裴琳 秦川 容若 苏菲 唐宁 "
    "乌兰 文渊 夏洛 杨柳 赵雷"
).split()
KILLER_ROLE, INSPECTOR_ROLE = "杀手", "警探"


@dataclasses.dataclass
class State(TableState):
    players: list[str]
    seed: int
    options: dict[str, Any]
    killer: int = 0
    grid: list[list[dict[str, Any]]] = dataclasses.field(default_factory=list)
    deck: list[str] = dataclasses.field(default_factory=list)
    discard: list[str] = dataclasses.field(default_factory=list)
    killer_identity: str = ""
    inspector_identity: str | None = None
    inspector_hand: list[str] = dataclasses.field(default_factory=list)
    turn: int = 0
    phase: str = "killer_first"  # killer_first | inspector_first | main | exonerate_choose | over
    last_shift: dict[str, Any] | None = None
    kills: int = 0
    winner: int | None = None
    win_reason: str = ""
    rng_count: int = 0
    log: list[dict[str, Any]] = dataclasses.field(default_factory=list)

    @property
    def inspector(self) -> int:
        return 1 - self.killer


def new_game(players: list[str], seed: int, options: dict[str, Any] | None = None) -> State:
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    options = dict(options or {})
    kill_target = options.get("kill_target", 16)
    require(kill_target in (14, 16), f"kill_target 只能是 16(BGA)或 14(说明书),收到 {kill_target!r}。")
    options["kill_target"] = kill_target
    rng = random.Random(seed)
    killer = options.get("killer")
    if killer is None:
        killer = rng.randrange(2)
    require(killer in (0, 1), "killer 选项必须是 0 或 1(杀手的座位)。")
    options["killer"] = killer
    layout = list(SUSPECTS)
    rng.shuffle(layout)
    deck = list(SUSPECTS)
    rng.shuffle(deck)
    state = State(players=names, seed=seed, options=options, killer=killer, turn=killer)
    state.grid = [[{"name": layout[r * 5 + c], "dead": False, "exonerated": False} for c in range(5)] for r in range(5)]
    state.killer_identity = deck.pop()
    state.deck = deck
    emit(state, f"{names[killer]} 是杀手,{names[1 - killer]} 是警探。杀手已抽取秘密身份。")
    emit(state, f"你的秘密身份是 {state.killer_identity}。", to=[killer])
    return state


# --- grid helpers -------------------------------------------------------------------------------------------------


def find(state: State, name: str) -> tuple[int, int]:
    for r, row in enumerate(state.grid):
        for c, cell in enumerate(row):
            if cell["name"] == name:
                return r, c
    raise RuleError(f"盘面上没有嫌疑人「{name}」。")


def on_grid(state: State, name: str) -> dict[str, Any] | None:
    """The suspect's cell, or None once their row or column was removed."""
    return next((cell for row in state.grid for cell in row if cell["name"] == name), None)


def cell_of(state: State, name: str) -> dict[str, Any]:
    r, c = find(state, name)
    return state.grid[r][c]


def cells_adjacent(state: State, a: str, b: str) -> bool:
    """True when a and b are neighbours (edges or corners) in the current grid."""
    (r1, c1), (r2, c2) = find(state, a), find(state, b)
    return (r1, c1) != (r2, c2) and max(abs(r1 - r2), abs(c1 - c2)) == 1


def neighbours(state: State, name: str) -> list[str]:
    return [cell["name"] for row in state.grid for cell in row if cells_adjacent(state, name, cell["name"])]


def _collapse(state: State) -> bool:
    """Remove fully dead rows and columns. Returns True when anything was removed."""
    removed = False
    rows = [row for row in state.grid if not all(cell["dead"] for cell in row)]
    if len(rows) != len(state.grid):
        removed = True
        emit(state, f"{len(state.grid) - len(rows)} 个横排的人全部死亡,已移除。")
    state.grid = rows
    cols = len(rows[0]) if rows else 0
    keep = [c for c in range(cols) if not all(row[c]["dead"] for row in rows)]
    if len(keep) != cols:
        removed = True
        emit(state, f"{cols - len(keep)} 个直排的人全部死亡,已移除。")
        state.grid = [[row[c] for c in keep] for row in rows]
    return removed


def _shift(state: State, axis: str, index: int, direction: int) -> None:
    if axis == "row":
        row = state.grid[index]
        state.grid[index] = row[-1:] + row[:-1] if direction == 1 else row[1:] + row[:1]
    else:
        col = [row[index] for row in state.grid]
        col = col[-1:] + col[:-1] if direction == 1 else col[1:] + col[:1]
        for row, cell in zip(state.grid, col, strict=True):
            row[index] = cell


# --- actions ------------------------------------------------------------------------------------------------------


def _expected(s: State) -> tuple[int, list[str]]:
    require(s.phase != "over", "游戏已经结束,不能再行动。")
    return s.turn, allowed_moves(s, s.turn)


def apply(state: State, action: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    s, events = dispatch(state, action, _expected, _HANDLERS, ACTION_NAMES)
    if s.phase not in ("over", "exonerate_choose"):
        s.turn = 1 - s.turn
    return s, events


def _role(state: State, seat: int) -> str:
    return KILLER_ROLE if seat == state.killer else INSPECTOR_ROLE


def allowed_moves(state: State, seat: int) -> list[str]:
    """The move types open to ``seat`` in this phase, if it is their turn."""
    if state.phase == "killer_first":
        return ["kill"]
    if state.phase == "inspector_first":
        return ["choose_identity"]
    if state.phase == "exonerate_choose":
        return ["exonerate"]
    if seat == state.killer:
        return ["shift", "kill"] + (["disguise"] if state.deck else [])
    return ["shift", "arrest"] + (["exonerate_draw"] if state.deck else [])


AXES = {"row": "横排", "col": "直排"}
DIRECTIONS = (1, -1)


def check_shift(s: State, action: dict[str, Any]) -> tuple[str, int, int]:
    """A shift's line and direction: a line of two cards or more, not undoing the shift just made."""
    axis = str_param(action, "axis", AXES, "推移方向")
    count = len(s.grid) if axis == "row" else len(s.grid[0])
    index = int_param(action, "index", range(count), "横排/直排编号")
    direction = int_param(action, "dir", list(DIRECTIONS), "推移方向(1=向右/下,-1=向左/上)")
    length = len(s.grid[0]) if axis == "row" else len(s.grid)
    require(length > 1, "这一排只剩一张牌,推移不会改变任何东西。")
    last = s.last_shift
    if last and last["axis"] == axis and last["index"] == index and (direction == -last["dir"] or length == 2):
        raise RuleError("不能立刻用推移还原对方刚做的推移。请推移别的横排/直排,或选择其他行动。")
    return axis, index, direction


def legal_shifts(s: State) -> list[dict[str, Any]]:
    """Every shift allowed now (``check_shift``), as {axis, index, dir}."""
    size = max(len(s.grid), len(s.grid[0]))
    tried = [{"axis": a, "index": i, "dir": d} for a in AXES for i in range(size) for d in DIRECTIONS]
    return [shift for shift in tried if _passes(check_shift, s, shift)]


def _passes(check: Any, s: State, action: dict[str, Any]) -> bool:
    try:
        check(s, action)
    except RuleError:
        return False
    return True


def kill_targets(s: State) -> list[str]:
    """The living suspects next to the killer's identity."""
    return [n for n in neighbours(s, s.killer_identity) if not cell_of(s, n)["dead"]]


def arrest_targets(s: State) -> list[str]:
    """The inspector's own identity and the living suspects next to it."""
    me = s.inspector_identity
    return [] if me is None else [me] + [n for n in neighbours(s, me) if not cell_of(s, n)["dead"]]


def identity_choices(s: State) -> list[str]:
    """The inspector's first turn: a living suspect among the four cards drawn."""
    return [c for c in s.inspector_hand if (cell := on_grid(s, c)) is not None and not cell["dead"]]


def _do_shift(s: State, seat: int, action: dict[str, Any]) -> None:
    axis, index, direction = check_shift(s, action)
    _shift(s, axis, index, direction)
    word = ("向右" if direction == 1 else "向左") if axis == "row" else ("向下" if direction == 1 else "向上")
    emit(s, f"{s.players[seat]} 将第 {index + 1} {'横排' if axis == 'row' else '直排'}{word}推移一格。")
    collapsed = _collapse(s)
    s.last_shift = None if collapsed else {"axis": axis, "index": index, "dir": direction}


def _target(s: State, action: dict[str, Any]) -> str:
    target = action.get("target")
    if not isinstance(target, str):
        raise RuleError("请指定目标嫌疑人(target)。")
    find(s, target)
    return target


def _do_kill(s: State, seat: int, action: dict[str, Any]) -> None:
    target = _target(s, action)
    cell = cell_of(s, target)
    require(not cell["dead"], f"{target} 已经死亡,请选择一名活着的相邻嫌疑人。")
    options = kill_targets(s)
    require(
        target in options, f"{target} 不与你的身份 {s.killer_identity} 相邻。可以杀害:{'、'.join(options) or '(无)'}。"
    )
    cell["dead"] = True
    s.kills += 1
    emit(s, f"杀手杀害了 {target}(共 {s.kills} 人)。")
    if cell["exonerated"]:
        cell["exonerated"] = False
        near = s.inspector_identity is not None and s.inspector_identity in neighbours(s, target)
        cell["answer"] = "警探在周围" if near else "警探不在周围"
        emit(s, f"{target} 曾被宣告无罪;警探回答:我{'在' if near else '不在'} {target} 的周围。")
    s.last_shift = None
    if target == s.inspector_identity:
        _finish(s, s.killer, f"杀手杀死了警探({target})。")
        return
    if s.kills >= s.options["kill_target"]:
        _finish(s, s.killer, f"杀手已杀害 {s.kills} 人。")
        return
    _collapse(s)
    if s.phase == "killer_first":
        s.phase = "inspector_first"
        s.inspector_hand = [s.deck.pop() for _ in range(min(4, len(s.deck)))]
        emit(s, "警探从证据牌堆抽取 4 张牌,将选择其中一张作为秘密身份。")
        emit(s, f"你抽到:{'、'.join(s.inspector_hand)}。", to=[s.inspector])


def _do_disguise(s: State, seat: int, action: dict[str, Any]) -> None:
    drawn = s.deck.pop()
    cell = on_grid(s, drawn)
    if cell is None or cell["dead"]:
        s.discard.append(drawn)
        gone = "已移出盘面" if cell is None else "已死亡"
        emit(s, f"杀手尝试伪装,抽到{gone}的 {drawn},伪装失败,该牌翻开弃置。")
    else:
        old = s.killer_identity
        cell_of(s, old)["exonerated"] = True
        cell_of(s, old)["answer"] = "杀手伪装前的身份"
        s.killer_identity = drawn
        emit(s, f"杀手伪装成功:原身份 {old} 的证据卡翻开,{old} 被宣告无罪。")
        emit(s, f"你的新身份是 {drawn}。", to=[s.killer])
    s.last_shift = None


def _do_choose(s: State, seat: int, action: dict[str, Any]) -> None:
    card = action.get("card")
    if card not in s.inspector_hand:
        raise RuleError(f"身份必须从你抽到的牌中选择:{'、'.join(s.inspector_hand)}。")
    require(card in identity_choices(s), f"{card} 已经死亡,请选择一名活着的嫌疑人作为身份。")
    s.inspector_hand.remove(card)
    s.inspector_identity = card
    s.phase = "main"
    s.last_shift = None
    emit(s, "警探选定了秘密身份,其余 3 张留作手牌。")
    emit(s, f"你的秘密身份是 {card}。", to=[s.inspector])


def _do_arrest(s: State, seat: int, action: dict[str, Any]) -> None:
    target = _target(s, action)
    me = s.inspector_identity
    assert me is not None
    options = arrest_targets(s)
    require(target in options, f"只能逮捕与你的身份 {me} 相邻的活人或你自己。可以逮捕:{'、'.join(options)}。")
    s.last_shift = None
    if target == s.killer_identity:
        emit(s, f"警探逮捕了 {target}:正是杀手!")
        _finish(s, s.inspector, f"警探逮捕了杀手({target})。")
    else:
        emit(s, f"警探逮捕了 {target}:杀手回答「不是」。")


def _do_exonerate_draw(s: State, seat: int, action: dict[str, Any]) -> None:
    drawn = s.deck.pop()
    s.inspector_hand.append(drawn)
    s.phase = "exonerate_choose"
    emit(s, "警探从证据牌堆抽了一张牌,准备宣告一人无罪。")
    emit(s, f"你抽到 {drawn};请从手中 4 张牌里选一张打出。", to=[s.inspector])


def _do_exonerate(s: State, seat: int, action: dict[str, Any]) -> None:
    card = action.get("card")
    if card not in s.inspector_hand:
        raise RuleError(f"请从手牌中选择要宣告无罪的人:{'、'.join(s.inspector_hand)}。")
    s.inspector_hand.remove(card)
    s.phase = "main"
    s.last_shift = None
    cell = on_grid(s, card)
    if cell is None:
        # Ruling: a removed suspect's card may be played; nobody stands next to a removed card, so the answer is 没有.
        s.discard.append(card)
        emit(s, f"警探打出已移出盘面的 {card};杀手回答:{card} 的周围没有杀手。该牌翻开弃置。")
        return
    cell["exonerated"] = True
    near = s.killer_identity in neighbours(s, card)
    cell["answer"] = "有杀手" if near else "没有杀手"
    emit(s, f"警探宣告 {card} 无罪;杀手回答:{card} 的周围{'有' if near else '没有'}杀手。")


def _finish(s: State, seat: int, reason: str) -> None:
    s.phase = "over"
    s.winner = seat
    s.win_reason = reason
    emit(s, f"游戏结束:{s.players[seat]}({_role(s, seat)})获胜。{reason}")
    emit(s, f"杀手的身份是 {s.killer_identity},警探的身份是 {s.inspector_identity or '(未选定)'}。")


ACTION_NAMES = {
    "kill": "杀害",
    "shift": "推移",
    "disguise": "伪装",
    "choose_identity": "选择秘密身份",
    "arrest": "逮捕",
    "exonerate_draw": "抽证据卡(无罪宣告)",
    "exonerate": "宣告无罪",
}
_HANDLERS = {
    "kill": _do_kill,
    "shift": _do_shift,
    "disguise": _do_disguise,
    "choose_identity": _do_choose,
    "arrest": _do_arrest,
    "exonerate_draw": _do_exonerate_draw,
    "exonerate": _do_exonerate,
}
legal = legal_via(apply)
