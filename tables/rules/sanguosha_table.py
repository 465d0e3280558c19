"""三国杀 physical-deck tracker (source 002 + the standard edition's generals): the table plays its own box.

The app deals the identities (the lord's is revealed) and the generals to choose from, and keeps the public state:
generals, HP and max HP, cards in hand as counts, the turn (counter-clockwise from the lord), deaths with the
identity revealed, the reward (3 cards for whoever kills a rebel) and the penalty (the lord who kills a loyalist
discards everything), victory, 4th-edition scoring (``sanguosha_view.score``) and, over several games, series
scoring with a rotating lord (the service passes ``lord_seat``).

Rulings (also in docs/tables.md):

* Generals: the standard edition's 25 (魏 7, 蜀 7, 吴 8, 群 3) with their printed HP.  The lord chooses from 曹操、
  刘备、孙权 plus two drawn at random; the four not taken go back; every other player then chooses in secret from 3
  (2 with 10 players, so that the 24 suffice); the choices are revealed together.
* HP = the general's; the lord +1 max HP with 5 or more players.  Everyone starts with 4 cards; each turn's draw
  phase adds 2 to the count (correct it with 手牌数 for skills that draw more or fewer).
* Dying is shown at HP ≤ 0; the table plays its [桃] and records the recovery, or records the death.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from . import sanguosha as sgs
from . import sanguosha_generals as generals
from . import sanguosha_view as sgs_view
from . import tracker as tr
from .base import check_players, emit, form, later_rng, legal_via, param, require, visible_log

KIND = "sanguosha"
TITLE = sgs.TITLE
MIN_PLAYERS, MAX_PLAYERS = sgs.MIN_PLAYERS, sgs.MAX_PLAYERS
GENERALS = {
    "曹操": 4, "司马懿": 3, "夏侯惇": 4, "张辽": 4, "许褚": 4, "郭嘉": 3, "甄姬": 3,
    "刘备": 4, "关羽": 4, "张飞": 4, "诸葛亮": 3, "赵云": 4, "马超": 4, "黄月英": 3,
    "孙权": 4, "甘宁": 4, "吕蒙": 4, "黄盖": 4, "周瑜": 3, "大乔": 3, "陆逊": 3, "孙尚香": 3,
    "华佗": 3, "吕布": 4, "貂蝉": 3,
}  # fmt: skip
LORD_GENERALS = ("曹操", "刘备", "孙权")
START_HAND, DRAW = 4, 2


@dataclasses.dataclass
class State(tr.TrackerState):
    lord: int = 0
    generals: list[str | None] = dataclasses.field(default_factory=list)
    candidates: list[list[str]] = dataclasses.field(default_factory=list)
    pool: list[str] = dataclasses.field(default_factory=list)
    duel: bool = False


def new_game(players: list[str], seed: int, options: dict[str, Any] | None = None) -> State:
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    n = len(names)
    options = dict(options or {})
    rng = random.Random(seed)
    roles = list(sgs.ROLE_TABLE[n])
    lord_seat = options.get("lord_seat")
    if lord_seat is None:
        rng.shuffle(roles)
    else:
        require(isinstance(lord_seat, int) and 0 <= lord_seat < n, "lord_seat 必须是一个座位号。")
        others = roles[1:]
        rng.shuffle(others)
        roles = [*others[:lord_seat], sgs.LORD, *others[lord_seat:]]
    lord = roles.index(sgs.LORD)
    pool = [g for g in GENERALS if g not in LORD_GENERALS]
    rng.shuffle(pool)
    s = State(players=names, seed=seed, options=options, roles=roles, lord=lord, current=lord, phase="lord_general")
    s.revealed = [p == lord for p in range(n)]
    s.alive = [True] * n
    s.hp, s.max_hp, s.hand = [0] * n, [0] * n, [START_HAND] * n
    s.generals = [None] * n
    s.candidates = [[] for _ in range(n)]
    s.candidates[lord] = [*LORD_GENERALS, pool.pop(), pool.pop()]
    s.pool = pool
    emit(s, f"{names[lord]} 是主公,亮出身份;主公先从 5 名候选武将中选择,选好后亮出。")
    emit(s, f"你的候选武将:{'、'.join(s.candidates[lord])}。", to=[lord])
    for p in range(n):
        emit(s, f"你的身份是{roles[p]}。", to=[p])
    return s


def _choose(hooks: tr.Hooks, s: State, actor: Any, action: dict[str, Any]) -> None:
    require(actor != tr.HOST, "武将由玩家本人选择。")
    seat = int(actor)
    require(s.generals[seat] is None, "你已经选好了武将。")
    general = str(action.get("general"))
    require(general in s.candidates[seat], f"请从你的候选武将中选择:{'、'.join(s.candidates[seat]) or '(还没有)'}。")
    s.generals[seat] = general
    if seat == s.lord:
        _lord_chose(s, general)
        return
    emit(s, f"{s.players[seat]} 选好了武将。")
    emit(s, f"你选择了 {general}(体力 {GENERALS[general]})。", to=[seat])
    if all(g is not None for g in s.generals):
        _start_play(s)


def _lord_chose(s: State, general: str) -> None:
    n = s.n
    s.pool.extend(g for g in s.candidates[s.lord] if g != general and g not in LORD_GENERALS)
    s.pool.extend(g for g in LORD_GENERALS if g != general)
    later_rng(s).shuffle(s.pool)
    s.phase = "generals"
    others = [p for p in range(n) if p != s.lord]
    each = min(3, len(s.pool) // len(others))
    for p in others:
        s.candidates[p] = [s.pool.pop() for _ in range(each)]
        emit(s, f"你的候选武将:{'、'.join(s.candidates[p])}。", to=[p])
    emit(s, f"主公 {s.players[s.lord]} 选择了 {general}。其他玩家各从 {each} 名候选武将中秘密选择。")


def _start_play(s: State) -> None:
    for p in range(s.n):
        general = s.generals[p]
        assert general is not None
        s.max_hp[p] = GENERALS[general] + (1 if p == s.lord and s.n >= 5 else 0)
        s.hp[p] = s.max_hp[p]
    s.phase = "play"
    emit(s, "武将亮出:" + ",".join(f"{s.players[p]}={s.generals[p]}({s.max_hp[p]} 体力)" for p in range(s.n)))
    _start_turn(s)


def _start_turn(s: State) -> None:
    s.hand[s.current] += DRAW
    emit(s, f"— {s.players[s.current]} 的回合 — 摸牌阶段摸 {DRAW} 张(手牌 {s.hand[s.current]} 张)。")


def _on_death(s: State, victim: int, source: int | None) -> None:
    if s.hand[victim]:  # the seed: "弃置他的所有牌" — the dead general's hand goes to the discard pile
        emit(s, f"{s.players[victim]} 弃置所有手牌({s.hand[victim]} 张)和装备。")
        s.hand[victim] = 0
    if source is not None and s.alive[source] and s.roles[victim] == sgs.REBEL:
        s.hand[source] += 3
        emit(s, f"奖励:{s.players[source]} 除掉反贼,摸三张牌(手牌 {s.hand[source]} 张)。")
    if source == s.lord and s.roles[victim] == sgs.LOYAL:
        s.hand[source] = 0
        emit(s, f"惩罚:主公错杀忠臣,{s.players[source]} 弃掉所有手牌和装备。")
    alive = [p for p in range(s.n) if s.alive[p]]
    if len(alive) == 2 and s.lord in alive and all(s.roles[p] in (sgs.LORD, sgs.RENEGADE) for p in alive):
        s.duel = True
        emit(s, "只剩主公与内奸:单挑开始。")


def _check_victory(s: State) -> bool:
    alive = [p for p in range(s.n) if s.alive[p]]
    side = None
    if not s.alive[s.lord]:
        side = sgs.SIDE_RENEGADE if len(alive) == 1 and s.roles[alive[0]] == sgs.RENEGADE else sgs.SIDE_REBEL
    elif not any(s.roles[p] in (sgs.REBEL, sgs.RENEGADE) for p in alive):
        side = sgs.SIDE_LORD
    return side is not None and tr.declare(s, side)


HOOKS = tr.Hooks(
    step=-1,
    start_turn=_start_turn,
    on_death=_on_death,
    check_victory=_check_victory,
    extra={"choose_general": _choose},
    extra_expected=lambda s: ["choose_general"] if s.phase in ("lord_general", "generals") else None,
)


def apply(state: State, action: Any) -> tuple[State, list[dict[str, Any]]]:
    return tr.apply_with(HOOKS, state, action)


legal = legal_via(apply)


def winner(s: State) -> list[int] | None:
    return sgs_view.winner(s)  # type: ignore[arg-type]


def score(s: State) -> dict[int, int] | None:
    return sgs_view.score(s)  # type: ignore[arg-type]


def _waiting(s: State) -> list[int]:
    if s.phase == "over":
        return []
    if s.phase == "lord_general":
        return [s.lord]
    if s.phase == "generals":
        return [p for p in range(s.n) if s.generals[p] is None]
    return [s.current]


def view(s: State, viewer: int | None) -> dict[str, Any]:
    seats = tr.seat_rows(s, viewer, lambda p: p == s.lord)
    everyone_chose = s.phase not in ("lord_general", "generals")
    for row in seats:
        p = row["seat"]
        row["general"] = s.generals[p] if (everyone_chose or p in (s.lord, viewer)) else None
        row["general_card"] = generals.card(row["general"]) if row["general"] else None
    return {
        "kind": KIND,
        "mode": "physical",
        "seats": seats,
        "current": s.current if everyone_chose else None,
        "phase": s.phase,
        "to_act": _waiting(s),
        "candidates": [generals.card(g) for g in s.candidates[viewer]]
        if viewer is not None and s.generals[viewer] is None
        else [],
        "winning_side": s.winning_side,
        "log": visible_log(s.log, viewer),
    }


def forms(s: State, seat: int | str) -> list[dict[str, Any]]:
    if s.phase in ("lord_general", "generals"):
        if seat == tr.HOST or s.generals[int(seat)] is not None or not s.candidates[int(seat)]:
            return tr.host_forms(s, seat)
        choices = [(g, generals.label(g)) for g in s.candidates[int(seat)]]
        return [form("choose_general", "选择武将", param("general", "武将", "choice", choices))]
    return tr.record_forms(s, seat)
