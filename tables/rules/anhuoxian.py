"""暗火线 (Dark Fire Line, source 003): SWAT and citizens against hidden terrorists, 4 serum HP each.

Pure rules module; the state and the circle in ``anhuoxian_board.py``, the cards in ``anhuoxian_cards.py``, their
effects in ``anhuoxian_effects.py``, views and forms in ``anhuoxian_view.py``.  Actions (``player`` is the acting seat):

* play phase: ``equip`` {card}, ``shoot`` {card, targets}, ``skill`` {card, target | targets, what}, ``serum`` {},
  ``unequip`` {} (餐厅 only), ``end_play`` {}
* a dying player's rescue: ``aid`` {} (uses a 急救包) or ``pass`` {}
* discard phase: ``discard`` {cards}

Rulings (also in docs/tables.md):

* The source's tables (roles and serum cards by player count) are missing.  Roles: 4 = 1 特警 2 市民 1 绑匪,
  5 = 1/2/2, 6 = 2/2/2 (the source's example), 7 = 2/3/2, 8 = 2/3/3.  Serum cards shuffled into the deck: 2 per
  player.  Deck (counts are ours): 单发子弹 24, 双发子弹 8, 烟雾弹 4, 闪光弹 4, 武装解除 6, 急救包 6, 手雷 3, 超市 2,
  餐厅 2, 主控室 2, 储藏室 2, 防弹衣 3; 搜查令 3 only with option ``warrant`` (a newcomers' card).
* Seats are entered clockwise; turns go counter-clockwise (previous seat).  The first player is option ``first``
  (the source: whoever fired the last shot of the previous game), default seat 0.
* Each of equip / shoot / skill once per turn; serum any number of times; 急救包 is used out of turn and is not the
  turn's skill.  手雷 and 双发子弹 exclude each other in a turn; after 手雷 a 单发子弹 may still be fired.
* "Attack" = bullets, grenade, disarm, flash.  A smoked player cannot be targeted except by a grenade (which ends the
  smoke) or by a disarm that removes the smoke; a flash ends early when either target is attacked.
* Smoke and flash last until the start of the user's next turn; if the user has died they end when play passes the
  user's seat.
* 储藏室 players are taken out of the circle when working out grenade, smoke and flash targets: smoke cannot name
  them; a flash naming one lands on the next player beyond it; a grenade naming one moves clockwise to the next player.
* 防弹衣 cuts each bullet card's damage to each target by 1 (a split 双发子弹 then does nothing to a vested target).
* 餐厅: equipping gives +1 max HP and a face-up serum (+1 HP); removing it (by disarm, replacement or by choice in a
  later turn, a free action) drops max HP to 4 and, if the player was not at full HP, heals 1 first.
* Dying: each dying player in turn is offered rescue by every living player who is not dying, not the attacker and not
  under smoke or flash, starting from the dying player's 下家; everyone is asked (no leak of who holds a kit); the
  first 急救包 restores 1 HP.  Any dying ends the attacker's play phase.  The killer takes the victim's hand and
  equipment into hand.  The game ends at once when a death fulfils a victory condition.
"""

from __future__ import annotations

import random
from typing import Any

from . import anhuoxian_cards as cards
from . import anhuoxian_effects as effects
from .anhuoxian_board import (  # noqa: F401  (the state and the circle, as the view, the tracker and tests read them)
    BASE_HP,
    CITIZEN,
    SWAT,
    TERRORIST,
    State,
    clockwise,
    damage,
    draw,
    end_flash,
    flashed,
    full_hp,
    hand_limit,
    living,
    seats_adjacent,
    smoked,
)
from .base import (
    RuleError,
    cards_param,
    check_players,
    dispatch,
    emit,
    legal_via,
    next_living,
    require,
    take_from,
)

KIND = "anhuoxian"
TITLE = "暗火线"
MIN_PLAYERS = 4
MAX_PLAYERS = 8
ROLE_TABLE = {4: (1, 2, 1), 5: (1, 2, 2), 6: (2, 2, 2), 7: (2, 3, 2), 8: (2, 3, 3)}
SERUM_PER_PLAYER = 2


def role_counts(n: int, options: dict[str, Any]) -> tuple[int, int, int]:
    """特警/市民/绑匪 for ``n`` players: option ``roles`` [swat, citizen, terrorist], else the seed's assumptions."""
    counts = options.get("roles") or ROLE_TABLE[n]
    ok = isinstance(counts, (list, tuple)) and len(counts) == 3
    ok = ok and all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts)
    require(ok, "身份张数必须是三个非负整数:特警、市民、绑匪。")
    swat, citizen, terrorist = counts
    require(swat + citizen + terrorist == n, f"身份张数之和({swat + citizen + terrorist})必须等于玩家人数 {n}。")
    require(min(swat, citizen, terrorist) >= 1, "特警、市民、绑匪各至少一名。")
    return swat, citizen, terrorist


def serum_count(n: int, options: dict[str, Any]) -> int:
    per = options.get("serums", SERUM_PER_PLAYER)
    ok = isinstance(per, int) and not isinstance(per, bool) and 0 <= per <= 10
    require(ok, f"每人血清牌数必须是 0 到 10 之间的整数,收到 {per!r}。")
    return n * per


def new_game(players: list[str], seed: int, options: dict[str, Any] | None = None) -> State:
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    n = len(names)
    options = {"warrant": False, "first": 0, **(options or {})}
    require(options["first"] in range(n), f"起始玩家座位号必须在 0 到 {n - 1} 之间。")
    rng = random.Random(seed)
    swat, citizen, terrorist = role_counts(n, options)
    roles = [SWAT] * swat + [CITIZEN] * citizen + [TERRORIST] * terrorist
    rng.shuffle(roles)
    deck = cards.build_deck(serum_count(n, options), options)
    require(len(deck) >= 3 * n, f"牌库只有 {len(deck)} 张,不够每人发 3 张起始手牌。")
    rng.shuffle(deck)
    s = State(players=names, seed=seed, options=options, roles=roles)
    s.hp = [BASE_HP] * n
    s.max_hp = [BASE_HP] * n
    s.alive = [True] * n
    s.vest = [False] * n
    s.env = [None] * n
    s.env_turn = [0] * n
    s.peeks = [[] for _ in range(n)]
    s.hands = [[deck.pop() for _ in range(3)] for _ in range(n)]
    s.deck = deck
    emit(s, f"身份分配:{swat} 特警、{citizen} 市民、{terrorist} 绑匪;每人 4 点血清,起始手牌 3 张。")
    for seat in range(n):
        emit(s, f"你的身份是{roles[seat]}。", to=[seat])
    _start_turn(s, options["first"])
    return s


# --- turn flow ----------------------------------------------------------------------------------------------------


def expire_effects_of(s: State, seat: int) -> None:
    for effect in [e for e in s.effects if e["by"] == seat]:
        s.effects.remove(effect)
        who = "、".join(s.players[t] for t in effect["targets"])
        emit(s, f"{s.players[seat]} 放置在 {who} 的{effect['kind']}失效。")


def _start_turn(s: State, seat: int) -> None:
    s.current = seat
    s.turn_no += 1
    s.used = []
    expire_effects_of(s, seat)
    count = 3 if s.env[seat] == cards.SUPERMARKET else 2
    got = draw(s, seat, count)
    emit(s, f"— {s.players[seat]} 的回合 — 摸牌阶段:摸 {len(got)} 张。")
    if flashed(s, seat):
        emit(s, f"{s.players[seat]} 被闪光弹影响,跳过出牌阶段。")
        enter_discard(s)
    else:
        s.phase = "play"
        if smoked(s, seat):
            emit(s, f"{s.players[seat]} 在烟雾弹中,出牌阶段只能使用血清。")


def enter_discard(s: State) -> None:
    seat = s.current
    if not s.alive[seat]:  # killed by their own grenade: the turn simply ends
        _end_turn(s)
        return
    limit = hand_limit(s, seat)
    if len(s.hands[seat]) > limit:
        s.phase = "discard"
        emit(s, f"弃牌阶段:{s.players[seat]} 手牌 {len(s.hands[seat])} 张,上限 {limit}。")
    else:
        _end_turn(s)


def _end_turn(s: State) -> None:
    n = len(s.players)
    seat = s.current
    nxt = next_living(s, seat, -1)  # 下家: counter-clockwise
    k = seat
    while True:  # effects of dead users end when play passes their seat
        k = (k - 1) % n
        if k == nxt:
            break
        expire_effects_of(s, k)
    _start_turn(s, nxt)


def after_attack(s: State) -> None:
    """Called at the end of every play action: start resolving dying players, if any."""
    if s.dying and s.phase != "over":
        s.phase = "dying"
        order = [s.current] + [p for p in _turn_order(s) if p != s.current]
        s.dying["queue"].sort(key=lambda p: order.index(p) if p in order else len(order))
        _next_dying(s)


def _turn_order(s: State) -> list[int]:
    n = len(s.players)
    return [(s.current - k) % n for k in range(n)]


def _next_dying(s: State) -> None:
    assert s.dying is not None
    while s.dying and s.dying["queue"]:
        victim = s.dying["queue"][0]
        source = s.dying["source"]
        ring = living(s)
        order = [clockwise(ring, victim, -k) for k in range(1, len(ring))]
        askers = [
            p
            for p in order
            if s.hp[p] > 0 and p != source and not smoked(s, p) and not flashed(s, p) and p not in s.dying["queue"]
        ]
        if askers:
            s.dying["askers"] = askers
            s.dying["idx"] = 0
            emit(s, f"{s.players[victim]} 濒死,向其他玩家呼救(从 {s.players[askers[0]]} 开始询问)。")
            return
        emit(s, f"{s.players[victim]} 濒死,无人可以施救。")
        kill(s, victim, source)
    if s.phase != "over":
        s.dying = None
        emit(s, f"{s.players[s.current]} 立即进入弃牌阶段。")
        enter_discard(s)


def kill(s: State, victim: int, source: int | None) -> None:
    assert s.dying is not None
    s.dying["queue"].remove(victim)
    s.alive[victim] = False
    for effect in list(s.effects):
        if victim in effect["targets"]:
            s.effects.remove(effect)
    env = s.env[victim]
    loot = s.hands[victim] + ([cards.VEST] if s.vest[victim] else []) + ([env] if env else [])
    s.hands[victim] = []
    s.vest[victim] = False
    s.env[victim] = None
    emit(s, f"{s.players[victim]} 死亡,身份公开:{s.roles[victim]}。")
    if source is not None and source != victim and s.alive[source]:
        s.hands[source].extend(loot)
        emit(s, f"凶手 {s.players[source]} 获得 {s.players[victim]} 的 {len(loot)} 张手牌及装备。")
        if loot:
            emit(s, f"你获得:{'、'.join(loot)}。", to=[source])
    else:
        s.discard_pile.extend(loot)
    alive_roles = {s.roles[p] for p in living(s)}
    side = None
    if TERRORIST not in alive_roles:
        side = "特警与市民"
    elif SWAT not in alive_roles or CITIZEN not in alive_roles:
        side = TERRORIST
    if side:
        s.winning_side = side
        s.phase = "over"
        s.dying = None
        emit(s, f"游戏结束:{side}获胜。身份:" + ",".join(f"{p}={r}" for p, r in zip(s.players, s.roles, strict=True)))


# --- dispatch -----------------------------------------------------------------------------------------------------


def anhuoxian_expected(s: State) -> tuple[int, list[str]]:
    if s.phase == "play":
        if smoked(s, s.current):
            return s.current, ["serum", "end_play"]
        return s.current, ["equip", "shoot", "skill", "serum", "unequip", "end_play"]
    if s.phase == "dying":
        assert s.dying
        return s.dying["askers"][s.dying["idx"]], ["aid", "pass"]
    if s.phase == "discard":
        return s.current, ["discard"]
    raise RuleError("游戏已经结束,不能再行动。")


def apply(state: State, action: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    return dispatch(state, action, anhuoxian_expected, _HANDLERS, ACTION_NAMES)


def _attack(handler: Any) -> Any:
    """Shooting, skills and (un)equipping can hurt someone: resolve dying players after them."""

    def run(s: State, seat: int, action: dict[str, Any]) -> None:
        handler(s, seat, action)
        after_attack(s)

    return run


def _do_end_play(s: State, seat: int, action: dict[str, Any]) -> None:
    emit(s, f"{s.players[seat]} 结束出牌阶段。")
    enter_discard(s)


def _do_aid(s: State, seat: int, action: dict[str, Any]) -> None:
    assert s.dying
    require(cards.AID in s.hands[seat], "你没有急救包,只能选择不救(pass)。")
    victim = s.dying["queue"][0]
    take_from(s.hands[seat], [cards.AID])
    s.discard_pile.append(cards.AID)
    s.hp[victim] = 1
    s.dying["queue"].remove(victim)
    emit(s, f"{s.players[seat]} 对 {s.players[victim]} 使用急救包,血量回复到 1。")
    _next_dying(s)


def _do_pass(s: State, seat: int, action: dict[str, Any]) -> None:
    assert s.dying
    emit(s, f"{s.players[seat]} 没有施救。")
    s.dying["idx"] += 1
    if s.dying["idx"] >= len(s.dying["askers"]):
        kill(s, s.dying["queue"][0], s.dying["source"])
        if s.phase != "over":
            _next_dying(s)


def _do_discard(s: State, seat: int, action: dict[str, Any]) -> None:
    chosen = cards_param(action)
    excess = len(s.hands[seat]) - hand_limit(s, seat)
    require(len(chosen) == excess, f"手牌上限 {hand_limit(s, seat)}:你需要正好弃置 {excess} 张牌。")
    take_from(s.hands[seat], chosen)
    s.discard_pile.extend(chosen)
    emit(s, f"{s.players[seat]} 弃置了 {'、'.join(chosen)}。")
    _end_turn(s)


ACTION_NAMES = {
    "equip": "装备",
    "shoot": "射击",
    "skill": "使用技能牌",
    "serum": "使用血清",
    "unequip": "卸下装备",
    "end_play": "结束出牌阶段",
    "aid": "使用急救包",
    "pass": "不救",
    "discard": "弃牌",
}
_HANDLERS = {
    "equip": _attack(effects.do_equip),
    "shoot": _attack(effects.do_shoot),
    "skill": _attack(effects.do_skill),
    "serum": effects.do_serum,
    "unequip": _attack(effects.do_unequip),
    "end_play": _do_end_play,
    "aid": _do_aid,
    "pass": _do_pass,
    "discard": _do_discard,
}
legal = legal_via(apply)
