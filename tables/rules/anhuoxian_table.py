"""暗火线 physical-deck tracker (source 003): the table plays its own box; the app deals the roles and keeps score.

Public state: serums (HP) and max HP, cards in hand as counts, the turn (counter-clockwise from option ``first``),
deaths with the role revealed, the killer's loot (the victim's hand and equipment, recorded as cards in hand) and
victory.  Role counts come from option ``roles`` (default: the seed's assumptions, ``anhuoxian.ROLE_TABLE``).

Rulings: everyone starts with 4 serums (max 4; 餐厅 is recorded as +1 max HP) and 3 cards; each turn's draw phase
adds 2 to the count (超市 3: record the extra card); the killer takes the victim's cards into hand (the count moves),
a death with no killer sends them to the discard pile.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from . import anhuoxian as ahx
from . import tracker as tr
from .base import check_players, emit, legal_via, require, seat_param, visible_log
from .moves import Move, passes, seat_arg

KIND = "anhuoxian"
TITLE = ahx.TITLE
MIN_PLAYERS, MAX_PLAYERS = ahx.MIN_PLAYERS, ahx.MAX_PLAYERS
_START_HAND, _DRAW = 3, 2


@dataclasses.dataclass
class State(tr.TrackerState):
    pass


def new_game(players: list[str], seed: int, options: dict[str, Any] | None = None) -> State:
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    n = len(names)
    options = {"first": 0, **(options or {})}
    require(options["first"] in range(n), f"起始玩家座位号必须在 0 到 {n - 1} 之间。")
    swat, citizen, terrorist = ahx.role_counts(n, options)
    roles = [ahx.SWAT] * swat + [ahx.CITIZEN] * citizen + [ahx.TERRORIST] * terrorist
    random.Random(seed).shuffle(roles)
    s = State(players=names, seed=seed, options=options, roles=roles, current=options["first"])
    s.revealed, s.alive = [False] * n, [True] * n
    s.hp, s.max_hp, s.hand = [ahx.BASE_HP] * n, [ahx.BASE_HP] * n, [_START_HAND] * n
    emit(s, f"身份分配:{swat} 特警、{citizen} 市民、{terrorist} 绑匪;每人 4 点血清,起始手牌 3 张。")
    for p in range(n):
        emit(s, f"你的身份是{roles[p]}。", to=[p])
    _start_turn(s)
    return s


def _start_turn(s: State) -> None:
    s.hand[s.current] += _DRAW
    emit(s, f"— {s.players[s.current]} 的回合 — 摸 {_DRAW} 张(手牌 {s.hand[s.current]} 张)。")


def _on_death(s: State, victim: int, source: int | None) -> None:
    loot, s.hand[victim] = s.hand[victim], 0
    if source is not None:
        s.hand[source] += loot
        emit(s, f"凶手 {s.players[source]} 获得 {s.players[victim]} 的 {loot} 张手牌及装备(手牌 {s.hand[source]} 张)。")


def _check_victory(s: State) -> bool:
    alive_roles = {s.roles[p] for p in range(s.n) if s.alive[p]}
    side = None
    if ahx.TERRORIST not in alive_roles:
        side = "特警与市民"
    elif ahx.SWAT not in alive_roles or ahx.CITIZEN not in alive_roles:
        side = ahx.TERRORIST
    return side is not None and tr.declare(s, side)


def check_warrant_record(s: State, actor: Any, target: int) -> None:
    require(bool(s.options.get("warrant")), "本桌没有加入搜查令。")
    require(actor == s.current, f"搜查令在自己的回合使用:现在是 {s.players[s.current]} 的回合。")
    require(target != actor and s.alive[target], "请选择另一名存活的玩家。")


def _warrant(hooks: tr.Hooks, s: State, actor: Any, action: dict[str, Any]) -> None:
    """搜查令 (option ``warrant``): the player whose turn it is looks at another living player's role; only they see
    it, the table sees that the card was played (a 搜查令 is resolved privately)."""
    target = seat_param(s, action, "target", "目标")
    check_warrant_record(s, actor, target)
    emit(s, f"{s.players[int(actor)]} 使用搜查令查看了 {s.players[target]} 的身份牌。〔{s.players[int(actor)]} 记录〕")
    emit(s, f"搜查令:{s.players[target]} 的身份是{s.roles[target]}。", to=[int(actor)])


def undo_note(players: list[str], action: dict[str, Any]) -> str:
    """What the host's undo of ``action`` cannot take back (the page says it before and after): a 搜查令's user has
    seen the role, and undoing the record does not make them forget it."""
    if action.get("type") != "warrant":
        return ""
    user, target = action.get("player"), action.get("target")
    if not (
        isinstance(user, int) and isinstance(target, int) and 0 <= user < len(players) and 0 <= target < len(players)
    ):
        return ""
    return (
        f"注意:{players[user]} 已经看到了 {players[target]} 的身份。撤销只删掉这条搜查令记录,"
        f"{players[user]} 知道的身份收不回来。"
    )


_HOOKS = tr.Hooks(
    step=-1,
    start_turn=_start_turn,
    on_death=_on_death,
    check_victory=_check_victory,
    hp_floor=0,
    extra={"warrant": _warrant},
)


def apply(state: State, action: Any) -> tuple[State, list[dict[str, Any]]]:
    return tr.apply_with(_HOOKS, state, action)


legal = legal_via(apply)


def winner(s: State) -> list[int] | None:
    if s.winning_side is None:
        return None
    good = s.winning_side != ahx.TERRORIST
    return [p for p, r in enumerate(s.roles) if (r != ahx.TERRORIST) == good]


def score(s: State) -> dict[int, int] | None:
    won = winner(s)
    return None if won is None else {p: int(p in won) for p in range(s.n)}


def view(s: State, viewer: int | None) -> dict[str, Any]:
    return {
        "kind": KIND,
        "mode": "physical",
        "seats": tr.seat_rows(s, viewer, lambda p: False),
        "current": s.current,
        "phase": s.phase,
        "to_act": [] if s.phase == "over" else [s.current],
        "winning_side": s.winning_side,
        "log": visible_log(s.log, viewer),
    }


def moves(s: State, seat: int | str) -> list[Move]:
    """Every record ``seat`` (or the host, ``tracker.HOST``) may make now."""
    out = tr.record_moves(s, seat, _HOOKS)
    if s.phase == "over":
        return out
    targets = [p for p in range(s.n) if passes(check_warrant_record, s, seat, p)]
    if targets:
        out.append(Move("warrant", "使用搜查令(只有你看到身份)", (seat_arg("target", "查看谁", s.players, targets),)))
    return out


def forms(s: State, seat: int | str) -> list[dict[str, Any]]:
    """The page's forms: one per legal move."""
    return [m.form() for m in moves(s, seat)]
