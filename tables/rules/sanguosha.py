"""三国杀 identity game flow (source 002), played without generals.

Pure rules module. The source text describes the flow (identities, HP, six phases, hand limit, death, reward and
penalty, victory, 4th-edition scoring) but not the cards, so the tracker uses the basic cards only: [杀] ×30, [闪] ×15,
[桃] ×8, [酒] ×5.  Actions (``player`` is the acting seat):

* play phase (current player): ``sha`` {target}, ``tao`` {}, ``jiu`` {}, ``end_play`` {}
* responding to a [杀]: ``shan`` {} or ``take`` {}
* dying: ``rescue`` {card: 桃|酒} or ``pass`` {}
* discard phase: ``discard`` {cards}

Rulings (also in docs/tables.md):

* Identity table (the source's table is missing; this is the published one): 4 主忠反内, 5 +反, 6 +反, 7 +忠, 8 +反,
  9 +忠, 10 +内.  Seats are entered clockwise; play goes counter-clockwise (to the right), i.e. to the previous seat.
* No generals ("第一次游戏…建议暂且不使用武将"): everyone has max HP 4; the lord 5 from 5 players on.
* Phases I (start), II (judge: no delayed tricks exist here) and VI (end) pass automatically and are logged; the draw
  phase draws 2; the discard phase enforces hand limit = current HP.
* [杀]: once per play phase, to a player at distance 1 (no weapons or horses exist, so attack range is 1; distance
  counts living players around the table).  [酒]: once per turn, the next [杀] this turn deals +1; when dying, the
  dying player may drink it to recover 1.  [桃]: recover 1 (only when hurt), or save a dying player.
* Dying: starting from the current player and going in turn order, each living player may play [桃] (the dying player
  also [酒]) until HP is back to 1; if all pass, the character dies, discards everything and reveals the identity.
* Reward/penalty go to the damage source.  The game ends at once when a victory condition holds.
* 4th-edition scoring: personal bonuses count only for the winning side (the source says "获胜的主公/忠臣" and the
  rebel line follows it); dead loyalists of a winning lord still score; "与主公单挑" means the renegade and the lord
  were the last two alive.
* House rules (options, ``sanguosha_house``): 座位抽签, 最后一滴血 (a [杀] the protected player used marks its target
  as one they attacked), 暗魂 (``ghost`` {target}: the dead owner acts outside the turn order — 罗汉 while a [杀]
  waits for its target, 玄武 and 祝由 in a play phase; see ``ghost_moves``), 三人倒计时 (at the start of the lord's turn; players who fall to 0 are asked for
  [桃] one after another, in turn order from the lord), 转世 with 挑选武将 (``sacrifice`` {target, card}: in one's own
  play phase, once a turn; the sacrificed cards are the reborn player's hand).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from . import sanguosha_house as house
from .base import (
    RuleError,
    TableState,
    cards_param,
    check_players,
    dispatch,
    emit,
    later_rng,
    legal_via,
    next_living,
    require,
    seat_param,
    take_from,
)
from .sanguosha_generals import GENERALS, LORD, LORD_GENERALS, LOYAL, REBEL, RENEGADE

KIND = "sanguosha"
TITLE = "三国杀(身份局)"
# What this mode is: the name a new table gets, its tab title and its line in the /tables/ list (the electronic mode
# plays only the basic cards; the full game is the physical mode).
PAGE_TITLE = "三国杀(身份局)· 基本牌练习"
MIN_PLAYERS = 4
MAX_PLAYERS = 10
IDENTITIES = {
    4: [LORD, LOYAL, REBEL, RENEGADE],
    5: [LORD, LOYAL, REBEL, REBEL, RENEGADE],
    6: [LORD, LOYAL, REBEL, REBEL, REBEL, RENEGADE],
    7: [LORD, LOYAL, LOYAL, REBEL, REBEL, REBEL, RENEGADE],
    8: [LORD, LOYAL, LOYAL, REBEL, REBEL, REBEL, REBEL, RENEGADE],
    9: [LORD, LOYAL, LOYAL, LOYAL, REBEL, REBEL, REBEL, REBEL, RENEGADE],
    10: [LORD, LOYAL, LOYAL, LOYAL, REBEL, REBEL, REBEL, REBEL, RENEGADE, RENEGADE],
}
SHA, SHAN, TAO, JIU = "杀", "闪", "桃", "酒"
BASIC_DECK = {SHA: 30, SHAN: 15, TAO: 8, JIU: 5}
TURN_PHASES = ["回合开始阶段", "判定阶段", "摸牌阶段", "出牌阶段", "弃牌阶段", "回合结束阶段"]
SIDE_LORD, SIDE_REBEL, SIDE_RENEGADE = "主公与忠臣", "反贼", "内奸"


@dataclasses.dataclass
class State(TableState):
    players: list[str]
    seed: int
    options: dict[str, Any]
    roles: list[str] = dataclasses.field(default_factory=list)
    max_hp: list[int] = dataclasses.field(default_factory=list)
    hp: list[int] = dataclasses.field(default_factory=list)
    alive: list[bool] = dataclasses.field(default_factory=list)
    hands: list[list[str]] = dataclasses.field(default_factory=list)
    deck: list[str] = dataclasses.field(default_factory=list)
    discard_pile: list[str] = dataclasses.field(default_factory=list)
    lord: int = 0
    current: int = 0
    phase: str = "play"  # play | respond | dying | discard | over
    sha_used: bool = False
    jiu_used: bool = False
    jiu_active: bool = False
    pending: dict[str, Any] | None = None
    kills: list[list[int]] = dataclasses.field(default_factory=list)  # [killer, victim]
    duel: bool = False
    winning_side: str | None = None
    turn_no: int = 0
    rng_count: int = 0
    log: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    # house rules
    protected: int | None = None
    hit_by_protected: list[int] = dataclasses.field(default_factory=list)
    round_no: int = 0
    three_from: int | None = None
    dying_queue: list[int] = dataclasses.field(default_factory=list)  # the countdown's other players at 0
    # 挑选武将 (option ``generals``): HP and kingdom from the standard edition's generals; skills shown, not played
    generals: list[str | None] = dataclasses.field(default_factory=list)
    candidates: list[list[str]] = dataclasses.field(default_factory=list)
    pool: list[str] = dataclasses.field(default_factory=list)
    ghosts: list[str | None] = dataclasses.field(default_factory=list)  # 暗魂 while unused
    # 转世 (option ``rebirth``, with the generals): sacrifices go into the hand of the player who is out
    reborn: list[bool] = dataclasses.field(default_factory=list)
    no_rebirth: list[bool] = dataclasses.field(default_factory=list)
    gave_on_turn: list[int] = dataclasses.field(default_factory=list)


def new_game(players: list[str], seed: int, options: dict[str, Any] | None = None) -> State:
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    n = len(names)
    rng = random.Random(seed)
    roles = deal_roles(n, rng, (options or {}).get("lord_seat"))
    deck = [card for card, count in BASIC_DECK.items() for _ in range(count)]
    rng.shuffle(deck)
    lord = roles.index(LORD)
    s = State(players=names, seed=seed, options=dict(options or {}), roles=roles, lord=lord, current=lord)
    s.max_hp = [4 + (1 if seat == lord and n >= 5 else 0) for seat in range(n)]
    s.hp = list(s.max_hp)
    s.alive = [True] * n
    s.hands = [[deck.pop() for _ in range(4)] for _ in range(n)]
    s.deck = deck
    s.protected = house.protected_seat(s.options, digital=True)
    for line in house.intro(s.options, names, digital=True):
        emit(s, line)
    for seat in range(n):
        emit(s, f"你的身份是{roles[seat]}。", to=[seat])
    s.reborn, s.no_rebirth, s.gave_on_turn, s.ghosts = [False] * n, [False] * n, [-1] * n, [None] * n
    if s.options.get("generals"):
        _deal_lord_candidates(s, rng)
        return s
    emit(s, f"{names[lord]} 抽到主公,亮出身份(体力上限 {s.max_hp[lord]})。")
    _start_turn(s, lord)
    return s


def deal_roles(n: int, rng: random.Random, lord_seat: Any = None) -> list[str]:
    """The identities at random; with ``lord_seat`` (推广版计分赛: the lord passes to the 下家 each game) the lord
    is that seat and only the others are drawn."""
    roles = list(IDENTITIES[n])
    if lord_seat is None:
        rng.shuffle(roles)
        return roles
    require(isinstance(lord_seat, int) and not isinstance(lord_seat, bool), "lord_seat 必须是一个座位号。")
    require(0 <= lord_seat < n, "lord_seat 必须是一个座位号。")
    others = roles[1:]
    rng.shuffle(others)
    return [*others[:lord_seat], LORD, *others[lord_seat:]]


# --- 挑选武将 (the seed's 「2、挑选武将」) ---------------------------------------------------------------------------


def _deal_lord_candidates(s: State, rng: random.Random) -> None:
    """The lord gets 曹操、刘备、孙权 and 2 more drawn at random; the others wait."""
    n = len(s.players)
    pool = [g for g in GENERALS if g not in LORD_GENERALS]
    rng.shuffle(pool)
    s.generals = [None] * n
    s.candidates = [[] for _ in range(n)]
    s.candidates[s.lord] = [*LORD_GENERALS, pool.pop(), pool.pop()]
    s.pool = pool
    s.phase = "lord_general"
    emit(s, f"{s.players[s.lord]} 抽到主公,亮出身份;主公先从 5 名候选武将中选择,选好后亮出。")
    emit(s, f"你的候选武将:{'、'.join(s.candidates[s.lord])}。", to=[s.lord])


def _do_choose_general(s: State, seat: int, action: dict[str, Any]) -> None:
    general = action.get("general")
    require(
        isinstance(general, str) and general in s.candidates[seat],
        f"请从你的候选武将中选择:{'、'.join(s.candidates[seat])}。",
    )
    assert isinstance(general, str)
    s.generals[seat] = general
    n = len(s.players)
    if seat == s.lord:  # the 4 not taken go back; the others get 3 each (2 in a 10-player game), in secret
        s.pool.extend(g for g in s.candidates[seat] if g != general)
        later_rng(s).shuffle(s.pool)
        others = [p for p in range(n) if p != s.lord]
        each = 2 if n == 10 else 3
        for p in others:
            s.candidates[p] = [s.pool.pop() for _ in range(each)]
            emit(s, f"你的候选武将:{'、'.join(s.candidates[p])}。", to=[p])
        s.phase = "generals"
        emit(s, f"主公 {s.players[seat]} 选择了 {general}。其他玩家各从 {each} 名候选武将中秘密选择,选好后同时亮出。")
        return
    emit(s, f"{s.players[seat]} 选好了武将。")
    emit(s, f"你选择了 {general}(体力 {GENERALS[general][2]})。", to=[seat])
    if all(g is not None for g in s.generals):
        s.pool.extend(g for p in range(n) for g in s.candidates[p] if g != s.generals[p] and p != s.lord)
        for p in range(n):
            chosen = s.generals[p]
            assert chosen is not None
            s.max_hp[p] = GENERALS[chosen][2] + (1 if p == s.lord and n >= 5 else 0)
            s.hp[p] = s.max_hp[p]
        shown = ",".join(
            f"{s.players[p]}={s.generals[p]}({GENERALS[str(s.generals[p])][0]},{s.max_hp[p]} 体力)" for p in range(n)
        )
        emit(s, "武将同时亮出:" + shown + "。技能只显示文字,电子牌不执行。")
        _start_turn(s, s.lord)


# --- helpers ------------------------------------------------------------------------------------------------------


def turn_order_from(s: State, seat: int) -> list[int]:
    n = len(s.players)
    return [(seat - k) % n for k in range(n) if s.alive[(seat - k) % n]]


def distance(s: State, a: int, b: int) -> int:
    ring = [seat for seat in range(len(s.players)) if s.alive[seat]]
    i, j = ring.index(a), ring.index(b)
    d = abs(i - j)
    return min(d, len(ring) - d)


def _draw(s: State, seat: int, count: int) -> list[str]:
    got = []
    for _ in range(count):
        if not s.deck:
            if not s.discard_pile:
                break
            s.deck = s.discard_pile
            s.discard_pile = []
            later_rng(s).shuffle(s.deck)
            emit(s, "牌堆已空:弃牌堆洗混后形成新的牌堆。")
        got.append(s.deck.pop())
    s.hands[seat].extend(got)
    return got


def _start_turn(s: State, seat: int) -> None:
    s.current = seat
    s.turn_no += 1
    s.sha_used = s.jiu_used = s.jiu_active = False
    name = s.players[seat]
    emit(s, f"— {name} 的回合 —  {TURN_PHASES[0]}、{TURN_PHASES[1]}(无延时锦囊)跳过。")
    at_zero = _countdown(s) if seat == s.lord and s.options.get("countdown") else []
    got = _draw(s, seat, 2)
    emit(s, f"{TURN_PHASES[2]}:{name} 摸 {len(got)} 张牌。")
    emit(s, f"你摸到:{'、'.join(got) or '(无)'}。", to=[seat])
    s.phase = "play"
    if at_zero:
        s.dying_queue = at_zero[1:]
        _enter_dying(s, at_zero[0], None, "play")


def _countdown(s: State) -> list[int]:
    """详细规则 3 at the start of a round: everyone loses 1 体力 at once; returns who is now at 0 (turn order)."""
    at_table = turn_order_from(s, s.lord)
    step = house.countdown_step(s, at_table)
    if step == "carry":
        emit(s, "三人倒计时:这一轮扣体力会让所有人一起出局,延续到下一轮。")
        return []
    if step != "lose":
        return []
    for p in at_table:
        s.hp[p] -= 1
    lines = "、".join(f"{s.players[p]} {s.hp[p]}/{s.max_hp[p]}" for p in at_table)
    emit(s, f"三人倒计时:第 {s.round_no} 轮开始,所有人同时各失去 1 点体力({lines})。")
    return [p for p in at_table if s.hp[p] <= 0]


def _next_dying(s: State) -> None:
    """After one dying player is saved or dies: the next one the countdown left at 0, if any."""
    while s.dying_queue and s.phase != "over":
        victim = s.dying_queue.pop(0)
        if s.alive[victim] and s.hp[victim] <= 0:
            _enter_dying(s, victim, None, s.phase)
            return


def _end_turn(s: State) -> None:
    emit(s, f"{TURN_PHASES[5]}:{s.players[s.current]} 的回合结束。")
    _start_turn(s, next_living(s, s.current, -1))  # counter-clockwise: to the right


def _enter_discard(s: State) -> None:
    seat = s.current
    limit = max(s.hp[seat], 0)
    if len(s.hands[seat]) > limit:
        s.phase = "discard"
        emit(s, f"{TURN_PHASES[4]}:{s.players[seat]} 手牌 {len(s.hands[seat])} 张,上限 {limit},需弃置多余的牌。")
    else:
        emit(s, f"{TURN_PHASES[4]}:{s.players[seat]} 手牌未超过上限 {limit}。")
        _end_turn(s)


def _damage(s: State, target: int, amount: int, source: int | None, resume: str) -> None:
    s.hp[target] -= amount
    emit(s, f"{s.players[target]} 受到 {amount} 点伤害,体力 {s.hp[target]}/{s.max_hp[target]}。")
    anyone_out = house.someone_out(s)
    if s.hp[target] <= 0 and house.still_protected(s.protected, target, source, anyone_out, s.hit_by_protected):
        s.hp[target] = 1
        emit(s, f"最后一滴血受规则保护:{s.players[target]} 上一局第一个出局,本局还没有人出局,体力保留 1 点。")
    if s.hp[target] <= 0:
        _enter_dying(s, target, source, resume)
    else:
        s.phase = resume
        s.pending = None


def _enter_dying(s: State, target: int, source: int | None, resume: str) -> None:
    s.phase = "dying"
    askers = turn_order_from(s, s.current)
    s.pending = {"victim": target, "source": source, "askers": askers, "idx": 0, "resume": resume}
    emit(s, f"{s.players[target]} 进入濒死状态,需要[桃]救援(从 {s.players[askers[0]]} 开始依次询问)。")


def _reborn(s: State, p: int) -> bool:
    return len(s.reborn) == len(s.players) and s.reborn[p]


def _die(s: State, victim: int, source: int | None) -> None:
    s.alive[victim] = False
    s.discard_pile.extend(s.hands[victim])
    s.hands[victim] = []
    if _reborn(s, victim):  # 转世规则: still counted as out; no reward, penalty or kill bonus
        s.reborn[victim] = False
        general = s.generals[victim]  # stays in front of them until the next rebirth puts it back (house.rebirth)
        emit(s, f"转世的 {s.players[victim]}({general})再次出局,弃置所有牌:不计奖励、惩罚与击杀分;可以再接受献祭。")
        return
    s.kills.append([source if source is not None else -1, victim])
    emit(s, f"{s.players[victim]} 阵亡,弃置所有牌,亮出身份:{s.roles[victim]}。")
    if _check_victory(s):
        return
    if s.options.get("ghosts") and s.roles[victim] in house.GHOSTS and len(s.ghosts) == len(s.players):
        ghost = house.GHOSTS[s.roles[victim]]
        s.ghosts[victim] = ghost
        emit(s, f"{s.players[victim]} 化为{ghost}暗魂(可以附体一次):{house.GHOST_TEXT[ghost]}。")
    if source is not None and s.alive[source]:
        if s.roles[victim] == REBEL:
            got = _draw(s, source, 3)
            emit(s, f"奖励:{s.players[source]} 除掉反贼,摸三张牌。")
            emit(s, f"你摸到:{'、'.join(got) or '(无)'}。", to=[source])
        if s.roles[victim] == LOYAL and source == s.lord:
            s.discard_pile.extend(s.hands[source])
            s.hands[source] = []
            emit(s, f"惩罚:主公错杀忠臣,{s.players[source]} 弃掉所有手牌和装备。")
    alive = [seat for seat in range(len(s.players)) if s.alive[seat] and not _reborn(s, seat)]
    if len(alive) == 2 and s.lord in alive and all(s.roles[p] in (LORD, RENEGADE) for p in alive):
        s.duel = True
        emit(s, "只剩主公与内奸:单挑开始。")


def _check_victory(s: State) -> bool:
    alive = [seat for seat in range(len(s.players)) if s.alive[seat] and not _reborn(s, seat)]
    side = None
    if not s.alive[s.lord]:
        side = SIDE_RENEGADE if len(alive) == 1 and s.roles[alive[0]] == RENEGADE else SIDE_REBEL
    elif not any(s.roles[seat] in (REBEL, RENEGADE) for seat in alive):
        side = SIDE_LORD
    if side is None:
        return False
    s.winning_side = side
    s.phase = "over"
    s.pending = None
    emit(s, f"游戏结束:{side}获胜。身份:" + ",".join(f"{p}={r}" for p, r in zip(s.players, s.roles, strict=True)))
    return True


# --- what each move may take now: the moves' legality, listed by ``sanguosha_moves`` and checked by the moves ------


def sha_targets(s: State, seat: int) -> list[int]:
    """[杀]: once a play phase, with the card, at a living player within attack range 1."""
    if SHA not in s.hands[seat] or s.sha_used:
        return []
    return [p for p in range(len(s.players)) if p != seat and s.alive[p] and distance(s, seat, p) <= 1]


def can_tao(s: State, seat: int) -> bool:
    return TAO in s.hands[seat] and s.hp[seat] < s.max_hp[seat]


def can_jiu(s: State, seat: int) -> bool:
    return JIU in s.hands[seat] and not s.jiu_used


def sacrifice_targets(s: State, seat: int) -> list[int]:
    """转世: whom ``seat`` may give a card now (a player out who can still be reborn); empty when they may not."""
    if not rebirth_on(s) or s.reborn[seat] or s.gave_on_turn[seat] == s.turn_no or not s.hands[seat]:
        return []
    return [p for p in range(len(s.players)) if not s.alive[p] and not s.no_rebirth[p]]


def rescue_cards(s: State, seat: int) -> list[str]:
    """The cards ``seat`` may save the dying player with: [桃], and the dying player's own [酒]."""
    assert s.pending
    cards = [TAO] if TAO in s.hands[seat] else []
    if seat == s.pending["victim"] and JIU in s.hands[seat]:
        cards.append(JIU)
    return cards


def discard_count(s: State, seat: int) -> int:
    """The discard phase: how many cards over the hand limit (= current HP)."""
    return len(s.hands[seat]) - max(s.hp[seat], 0)


# --- actions ------------------------------------------------------------------------------------------------------


def sanguosha_expected(s: State) -> tuple[int | list[int], list[str]]:
    if s.phase == "lord_general":
        return s.lord, ["choose_general"]
    if s.phase == "generals":
        return [p for p in range(len(s.players)) if s.generals[p] is None], ["choose_general"]
    if s.phase == "play":
        return s.current, ["sha", "tao", "jiu", "end_play", "sacrifice"]
    if s.phase == "respond":
        assert s.pending
        return s.pending["target"], ["shan", "take"]
    if s.phase == "dying":
        assert s.pending
        return s.pending["askers"][s.pending["idx"]], ["rescue", "pass"]
    if s.phase == "discard":
        return s.current, ["discard"]
    raise RuleError("游戏已经结束,不能再行动。")


def apply(state: State, action: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    if isinstance(action, dict) and action.get("type") == "ghost":  # a ghost acts outside the turn order
        require(bool(ghost_moves(state, seat_param(state, action))), NO_GHOST)  # before the copy: cheap to refuse
        s = state.clone()
        start = len(s.log)
        _do_ghost(s, seat_param(s, action), action)
        return s, s.log[start:]
    return dispatch(state, action, sanguosha_expected, _HANDLERS, ACTION_NAMES)


NO_GHOST = "你现在没有可以使用的暗魂(罗汉在有人被[杀]时,玄武和祝由在出牌阶段)。"


def ghost_moves(s: State, seat: int) -> list[int]:
    """暗魂 in this mode: whom ``seat``'s unused ghost may possess now (empty: nobody).

    罗汉 while a [杀] waits for its target's answer (it absorbs one damage of it); 玄武 in any play phase, on any
    living player; 祝由 in the play phase, on the player whose phase it is."""
    if not s.options.get("ghosts") or len(s.ghosts) != len(s.players) or s.alive[seat] or s.ghosts[seat] is None:
        return []
    ghost = s.ghosts[seat]
    if ghost == "罗汉":
        return [s.pending["target"]] if s.phase == "respond" and s.pending and s.pending["damage"] > 0 else []
    if s.phase != "play":
        return []
    if ghost == "祝由":
        return [s.current] if s.hands[s.current] else []
    return [p for p in range(len(s.players)) if s.alive[p] and s.hands[p]]


def _do_ghost(s: State, seat: int, action: dict[str, Any]) -> None:
    require(s.phase != "over", "游戏已经结束,不能再行动。")
    targets = ghost_moves(s, seat)
    require(bool(targets), NO_GHOST)
    target = seat_param(s, action, "target", "附体对象")
    names = "、".join(s.players[p] for p in targets)
    require(target in targets, f"暗魂现在只能附体:{names}。")
    ghost = s.ghosts[seat]
    name, possessed = s.players[seat], s.players[target]
    if ghost == "罗汉":
        assert s.pending
        s.pending["damage"] -= 1
        lost = s.hands[target].pop(later_rng(s).randrange(len(s.hands[target]))) if s.hands[target] else None
        if lost:
            s.discard_pile.append(lost)
        what = (
            f"抵挡一点伤害(这张[杀]的伤害 {s.pending['damage']}),{possessed} 弃掉一张手牌"
            if lost
            else (f"抵挡一点伤害(这张[杀]的伤害 {s.pending['damage']})")
        )
        if lost:
            emit(s, f"罗汉附体:你弃掉了[{lost}]。", to=[target])
    elif ghost == "玄武":
        got = _draw(s, seat, 1)
        require(bool(got), "牌堆和弃牌堆都没有牌了:玄武无法摸牌。")
        s.hands[seat].pop()  # the drawn card goes straight to the possessed player (not into sacrificed cards)
        index = later_rng(s).randrange(len(s.hands[target]))  # the ghost designates a card it cannot see
        taken = s.hands[target][index]
        s.hands[target][index] = got[0]
        s.discard_pile.append(taken)
        what = "从牌堆摸一张牌,与其一张手牌交换(手牌数不变)"
        emit(s, f"玄武附体:你的[{taken}]换成了[{got[0]}]。", to=[target])
    else:
        count = len(s.hands[target])
        s.discard_pile.extend(s.hands[target])
        s.hands[target] = []
        got = _draw(s, target, count)
        what = f"令其弃掉所有手牌({count} 张)再摸 {len(got)} 张"
        emit(s, f"祝由附体:你摸到 {'、'.join(got) or '(无)'}。", to=[target])
    s.ghosts[seat] = None
    emit(s, f"{name} 的{ghost}暗魂附体 {possessed}:{what}。暗魂消失。")


def _do_sha(s: State, seat: int, action: dict[str, Any]) -> None:
    require(SHA in s.hands[seat], "你没有[杀]。")
    require(not s.sha_used, "每个出牌阶段仅限使用一次[杀]。")
    target = seat_param(s, action, "target", "目标")
    require(target != seat and s.alive[target], "[杀]的目标必须是另一名存活的角色。")
    reach = sha_targets(s, seat)
    require(
        target in reach,
        f"{s.players[target]} 不在攻击范围(1)内。可以[杀]:{'、'.join(s.players[p] for p in reach)}。",
    )
    take_from(s.hands[seat], [SHA])
    s.discard_pile.append(SHA)
    s.sha_used = True
    if seat == s.protected and target not in s.hit_by_protected:  # 最后一滴血: whom the protected player attacked
        s.hit_by_protected.append(target)
    damage = 2 if s.jiu_active else 1
    s.jiu_active = False
    s.phase = "respond"
    s.pending = {"source": seat, "target": target, "damage": damage}
    emit(s, f"{s.players[seat]} 对 {s.players[target]} 使用[杀]{'(酒,伤害+1)' if damage == 2 else ''}。")


def _do_shan(s: State, seat: int, action: dict[str, Any]) -> None:
    require(SHAN in s.hands[seat], "你没有[闪],只能选择受到伤害(take)。")
    take_from(s.hands[seat], [SHAN])
    s.discard_pile.append(SHAN)
    emit(s, f"{s.players[seat]} 打出[闪],抵消了[杀]。")
    s.phase = "play"
    s.pending = None


def _do_take(s: State, seat: int, action: dict[str, Any]) -> None:
    assert s.pending
    if s.pending["damage"] <= 0:  # 罗汉 absorbed it all
        emit(s, f"{s.players[seat]} 没有受到伤害(罗汉暗魂抵挡了)。")
        s.phase, s.pending = "play", None
        return
    _damage(s, seat, s.pending["damage"], s.pending["source"], "play")


def _do_tao(s: State, seat: int, action: dict[str, Any]) -> None:
    require(TAO in s.hands[seat], "你没有[桃]。")
    require(can_tao(s, seat), "你的体力已满,不能使用[桃]。")
    take_from(s.hands[seat], [TAO])
    s.discard_pile.append(TAO)
    s.hp[seat] += 1
    emit(s, f"{s.players[seat]} 使用[桃],回复 1 点体力({s.hp[seat]}/{s.max_hp[seat]})。")


def _do_jiu(s: State, seat: int, action: dict[str, Any]) -> None:
    require(JIU in s.hands[seat], "你没有[酒]。")
    require(can_jiu(s, seat), "每回合仅限使用一次[酒]。")
    take_from(s.hands[seat], [JIU])
    s.discard_pile.append(JIU)
    s.jiu_used = s.jiu_active = True
    emit(s, f"{s.players[seat]} 使用[酒],本回合下一张[杀]伤害+1。")


def _do_end_play(s: State, seat: int, action: dict[str, Any]) -> None:
    emit(s, f"{s.players[seat]} 结束出牌阶段。")
    _enter_discard(s)


def _do_rescue(s: State, seat: int, action: dict[str, Any]) -> None:
    assert s.pending
    victim = s.pending["victim"]
    card = action.get("card", TAO)
    require(card in (TAO, JIU), "救援只能使用[桃](或濒死者自己的[酒])。")
    require(card == TAO or seat == victim, "[酒]只能由濒死的角色自己使用来自救。")
    require(card in rescue_cards(s, seat), f"你没有[{card}]。")
    take_from(s.hands[seat], [card])
    s.discard_pile.append(card)
    s.hp[victim] += 1
    emit(s, f"{s.players[seat]} 对 {s.players[victim]} 使用[{card}],体力回复到 {s.hp[victim]}。")
    if s.hp[victim] > 0:
        s.phase = s.pending["resume"]
        s.pending = None
        _next_dying(s)


def _do_pass(s: State, seat: int, action: dict[str, Any]) -> None:
    assert s.pending
    emit(s, f"{s.players[seat]} 不救。")
    s.pending["idx"] += 1
    if s.pending["idx"] < len(s.pending["askers"]):
        return
    victim, source, resume = s.pending["victim"], s.pending["source"], s.pending["resume"]
    s.pending = None
    s.phase = resume
    _die(s, victim, source)
    _next_dying(s)


def rebirth_on(s: State) -> bool:
    """转世 needs the generals' kingdoms: it is played with the option 挑选武将."""
    return bool(s.options.get("rebirth") and s.generals and len(s.reborn) == len(s.players))


def _do_sacrifice(s: State, seat: int, action: dict[str, Any]) -> None:
    """转世规则 in this mode: in their play phase a player who is not reborn gives one hand card, once a turn, to a
    player who is out; at 4 cards (3 with 4–5 players) that player is reborn."""
    require(rebirth_on(s), "本桌没有使用转世规则(电子牌的转世需要挑选武将)。")
    require(not s.reborn[seat], "转世的玩家不能献祭。")
    require(s.gave_on_turn[seat] != s.turn_no, "这个回合你已经献祭过了(每回合只能献祭一次)。")
    target = seat_param(s, action, "target", "献祭对象")
    name = s.players[target]
    require(not s.alive[target], f"{name} 没有出局:只能献祭给已出局的玩家。")
    require(not s.no_rebirth[target], f"{name} 已经不能转世(没有同国籍的未使用武将),不再接受献祭。")
    card = action.get("card")
    require(isinstance(card, str) and card in s.hands[seat], "请从你的手牌中选一张献祭。")
    require(target in sacrifice_targets(s, seat), f"现在不能献祭给 {name}。")
    assert isinstance(card, str)
    take_from(s.hands[seat], [card])
    s.hands[target].append(card)
    s.gave_on_turn[seat] = s.turn_no
    need = house.rebirth_threshold(len(s.players))
    emit(s, f"献祭:{s.players[seat]} 给 {name} 一张手牌({name} 已收到 {len(s.hands[target])}/{need} 张)。")
    if len(s.hands[target]) >= need:
        house.rebirth(s, target, len(s.hands[target]), "已收到的牌")


def _do_discard(s: State, seat: int, action: dict[str, Any]) -> None:
    cards = cards_param(action)
    excess = discard_count(s, seat)
    require(len(cards) == excess, f"手牌上限等于当前体力 {max(s.hp[seat], 0)}:你需要正好弃置 {excess} 张牌。")
    take_from(s.hands[seat], cards)
    s.discard_pile.extend(cards)
    emit(s, f"{s.players[seat]} 弃置了 {'、'.join(f'[{c}]' for c in cards)}。")
    _end_turn(s)


ACTION_NAMES = {
    "choose_general": "选择武将",
    "sha": "使用[杀]",
    "shan": "打出[闪]",
    "take": "受到伤害",
    "tao": "使用[桃]",
    "jiu": "使用[酒]",
    "end_play": "结束出牌阶段",
    "rescue": "救援",
    "pass": "不救",
    "discard": "弃牌",
    "sacrifice": "献祭",
    "ghost": "暗魂附体",
}
legal = legal_via(apply)

_HANDLERS = {
    "choose_general": _do_choose_general,
    "sha": _do_sha,
    "shan": _do_shan,
    "take": _do_take,
    "tao": _do_tao,
    "jiu": _do_jiu,
    "end_play": _do_end_play,
    "rescue": _do_rescue,
    "pass": _do_pass,
    "discard": _do_discard,
    "sacrifice": _do_sacrifice,
}
