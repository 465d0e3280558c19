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
* House rules (options, see ``sanguosha_house``): 座位抽签, 暗魂 (``ghost``: the ghost's owner or the host records the
  possession), 最后一滴血 (an HP record that would take the protected player's last point leaves them at 1 and says
  why; their death is refused), 三人倒计时 (applied at the start of each round), 转世 (``sacrifice``: a living player
  who is not reborn gives one card a turn to a player who is out; at the threshold the app turns the unused generals).
  Rulings: the unused generals are those nobody chose; a 群 general is reborn as the first general turned; a player
  becomes a ghost once a game, when first out; a reborn player who goes out again gives no reward or penalty and no
  kill bonus, and may receive sacrifices again.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from . import sanguosha as sgs
from . import sanguosha_generals as generals
from . import sanguosha_house as house
from . import sanguosha_score as sgs_score
from . import tracker as tr
from .base import check_players, emit, later_rng, legal_via, require, seat_param, visible_log
from .moves import Arg, Move, choice_arg, passes, seat_arg

KIND = "sanguosha"
TITLE = sgs.TITLE
MIN_PLAYERS, MAX_PLAYERS = sgs.MIN_PLAYERS, sgs.MAX_PLAYERS
PRINTED_HP = {name: hp for name, (_, _, hp, _) in generals.GENERALS.items()}  # printed HP, by name
_START_HAND, _DRAW = 4, 2


@dataclasses.dataclass
class State(tr.TrackerState):
    lord: int = 0
    generals: list[str | None] = dataclasses.field(default_factory=list)
    candidates: list[list[str]] = dataclasses.field(default_factory=list)
    pool: list[str] = dataclasses.field(default_factory=list)
    duel: bool = False
    # house rules (seed 002's 详细规则 and 转世规则/暗魂)
    ghosts: list[str | None] = dataclasses.field(default_factory=list)  # per seat: 罗汉/玄武/祝由 while unused
    ghosts_used: list[str] = dataclasses.field(default_factory=list)  # public lines: whose ghost possessed whom
    reborn: list[bool] = dataclasses.field(default_factory=list)
    no_rebirth: list[bool] = dataclasses.field(default_factory=list)  # no general of their kingdom left
    gave_on_turn: list[int] = dataclasses.field(default_factory=list)  # per seat: the turn_no of their last sacrifice
    protected: int | None = None
    hit_by_protected: list[int] = dataclasses.field(default_factory=list)
    round_no: int = 0
    three_from: int | None = None


def new_game(players: list[str], seed: int, options: dict[str, Any] | None = None) -> State:
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    n = len(names)
    options = dict(options or {})
    rng = random.Random(seed)
    roles = sgs.deal_roles(n, rng, options.get("lord_seat"))
    lord = roles.index(sgs.LORD)
    pool = [g for g in PRINTED_HP if g not in generals.LORD_GENERALS]
    rng.shuffle(pool)
    s = State(players=names, seed=seed, options=options, roles=roles, lord=lord, current=lord, phase="lord_general")
    s.revealed = [p == lord for p in range(n)]
    s.alive = [True] * n
    s.hp, s.max_hp, s.hand = [0] * n, [0] * n, [_START_HAND] * n
    s.generals = [None] * n
    s.candidates = [[] for _ in range(n)]
    s.candidates[lord] = [*generals.LORD_GENERALS, pool.pop(), pool.pop()]
    s.pool = pool
    s.ghosts, s.reborn, s.no_rebirth, s.gave_on_turn = [None] * n, [False] * n, [False] * n, [-1] * n
    s.protected = house.protected_seat(options, digital=False)
    for line in house.intro(options, names, digital=False):
        emit(s, line)
    emit(s, f"{names[lord]} 是主公,亮出身份;主公先从 5 名候选武将中选择,选好后亮出。")
    emit(s, f"你的候选武将:{'、'.join(s.candidates[lord])}。", to=[lord])
    for p in range(n):
        emit(s, f"你的身份是{roles[p]}。", to=[p])
    return s


def _choose(hooks: tr.Hooks, s: State, actor: Any, action: dict[str, Any]) -> None:
    require(actor != tr.HOST, "武将由玩家本人选择。")
    seat = int(actor)
    general = str(action.get("general"))
    check_choice(s, seat, general)
    s.generals[seat] = general
    if seat == s.lord:
        _lord_chose(s, general)
        return
    emit(s, f"{s.players[seat]} 选好了武将。")
    emit(s, f"你选择了 {general}(体力 {PRINTED_HP[general]})。", to=[seat])
    if all(g is not None for g in s.generals):
        _start_play(s)


def check_choice(s: State, seat: int, general: str) -> None:
    require(s.generals[seat] is None, "你已经选好了武将。")
    require(general in s.candidates[seat], f"请从你的候选武将中选择:{'、'.join(s.candidates[seat]) or '(还没有)'}。")


def _lord_chose(s: State, general: str) -> None:
    n = s.n
    s.pool.extend(g for g in s.candidates[s.lord] if g != general and g not in generals.LORD_GENERALS)
    s.pool.extend(g for g in generals.LORD_GENERALS if g != general)
    later_rng(s).shuffle(s.pool)
    s.phase = "generals"
    others = [p for p in range(n) if p != s.lord]
    each = min(3, len(s.pool) // len(others))
    for p in others:
        s.candidates[p] = [s.pool.pop() for _ in range(each)]
        emit(s, f"你的候选武将:{'、'.join(s.candidates[p])}。", to=[p])
    emit(s, f"主公 {s.players[s.lord]} 选择了 {general}。其他玩家各从 {each} 名候选武将中秘密选择。")


def _start_play(s: State) -> None:
    # the lord's four went back when the lord chose: only the others' unchosen go back now
    s.pool.extend(g for p in range(s.n) if p != s.lord for g in s.candidates[p] if g != s.generals[p])
    for p in range(s.n):
        general = s.generals[p]
        assert general is not None
        s.max_hp[p] = PRINTED_HP[general] + (1 if p == s.lord and s.n >= 5 else 0)
        s.hp[p] = s.max_hp[p]
    s.phase = "play"
    emit(s, "武将亮出:" + ",".join(f"{s.players[p]}={s.generals[p]}({s.max_hp[p]} 体力)" for p in range(s.n)))
    _start_turn(s)


def _standing(s: State) -> list[int]:
    """Seats still in the game for victory (a reborn player is counted as out: 转世规则)."""
    return [p for p in range(s.n) if s.alive[p] and not _reborn(s, p)]


def _reborn(s: State, p: int) -> bool:
    return len(s.reborn) == s.n and s.reborn[p]


def _start_turn(s: State) -> None:
    if s.current == s.lord and s.options.get("countdown"):
        _countdown(s)
    s.hand[s.current] += _DRAW
    emit(s, f"— {s.players[s.current]} 的回合 — 摸牌阶段摸 {_DRAW} 张(手牌 {s.hand[s.current]} 张)。")


def _countdown(s: State) -> None:
    at_table = [p for p in range(s.n) if s.alive[p]]
    step = house.countdown_step(s, at_table)
    if step == "carry":
        emit(s, "三人倒计时:这一轮扣体力会让所有人一起出局,延续到下一轮。")
    elif step == "lose":
        for p in at_table:
            s.hp[p] -= 1
        lines = "、".join(f"{s.players[p]} {s.hp[p]}/{s.max_hp[p]}" for p in at_table)
        emit(s, f"三人倒计时:第 {s.round_no} 轮开始,所有人同时各失去 1 点体力({lines})。")
        for p in at_table:
            if s.hp[p] <= 0:
                emit(s, f"{s.players[p]} 濒死:救回请记录体力回复;否则记录阵亡。")


def _after_hp(s: State, target: int, source: int | None, delta: int) -> None:
    """最后一滴血 (详细规则 2): the protected player's last point holds; remember whom they attacked."""
    if s.protected is None or delta >= 0:
        return
    if source == s.protected and target not in s.hit_by_protected:
        s.hit_by_protected.append(target)
    anyone_out = house.someone_out(s)
    if s.hp[target] <= 0 and house.still_protected(s.protected, target, source, anyone_out, s.hit_by_protected):
        s.hp[target] = 1
        emit(s, f"最后一滴血受规则保护:{s.players[target]} 上一局第一个出局,本局还没有人出局,体力保留 1 点。")


def _before_death(s: State, victim: int, source: int | None) -> None:
    anyone_out = house.someone_out(s)
    if house.still_protected(s.protected, victim, source, anyone_out, s.hit_by_protected):
        raise tr.RuleError(
            f"最后一滴血受规则保护:{s.players[victim]} 上一局第一个出局,本局不能第一个出局"
            "(除非攻击他的人是他攻击过的人)。主持人可以更正。"
        )


def _on_death(s: State, victim: int, source: int | None) -> None:
    if _reborn(s, victim):  # 转世规则: still counted as out; no reward or penalty for killing them
        s.reborn[victim] = False
        s.kills.pop()
        s.hand[victim] = 0
        general = s.generals[victim]
        emit(s, f"转世的 {s.players[victim]}({general})再次出局:不计奖励、惩罚与击杀分;可以再接受献祭。")
        return  # their general stays in front of them until the next rebirth puts it back (house.rebirth)
    if s.options.get("ghosts") and s.roles[victim] in house.GHOSTS and len(s.ghosts) == s.n:
        ghost = house.GHOSTS[s.roles[victim]]
        s.ghosts[victim] = ghost
        emit(s, f"{s.players[victim]} 化为{ghost}暗魂(可以附体一次):{house.GHOST_TEXT[ghost]}。")
    _on_first_death(s, victim, source)


def _on_first_death(s: State, victim: int, source: int | None) -> None:
    if s.hand[victim]:  # the seed: "弃置他的所有牌" — the dead general's hand goes to the discard pile
        emit(s, f"{s.players[victim]} 弃置所有手牌({s.hand[victim]} 张)和装备。")
        s.hand[victim] = 0
    if source is not None and s.alive[source] and s.roles[victim] == sgs.REBEL:
        s.hand[source] += 3
        emit(s, f"奖励:{s.players[source]} 除掉反贼,摸三张牌(手牌 {s.hand[source]} 张)。")
    if source == s.lord and s.roles[victim] == sgs.LOYAL:
        s.hand[source] = 0
        emit(s, f"惩罚:主公错杀忠臣,{s.players[source]} 弃掉所有手牌和装备。")
    alive = _standing(s)
    if len(alive) == 2 and s.lord in alive and all(s.roles[p] in (sgs.LORD, sgs.RENEGADE) for p in alive):
        s.duel = True
        emit(s, "只剩主公与内奸:单挑开始。")


def _check_victory(s: State) -> bool:
    alive = _standing(s)
    side = None
    if not s.alive[s.lord]:
        side = sgs.SIDE_RENEGADE if len(alive) == 1 and s.roles[alive[0]] == sgs.RENEGADE else sgs.SIDE_REBEL
    elif not any(s.roles[p] in (sgs.REBEL, sgs.RENEGADE) for p in alive):
        side = sgs.SIDE_LORD
    return side is not None and tr.declare(s, side)


def check_ghost(s: State, owner: int, target: int) -> str:
    """May ``owner``'s ghost possess ``target`` now?  Its name (罗汉/玄武/祝由), else RuleError."""
    ghost = s.ghosts[owner] if len(s.ghosts) == s.n else None
    require(ghost is not None and not s.alive[owner], f"{s.players[owner]} 没有可以使用的暗魂。")
    require(s.alive[target], f"{s.players[target]} 已经出局:暗魂只能附体存活的玩家。")
    if ghost == "罗汉":
        require(s.hp[target] < s.max_hp[target], f"{s.players[target]} 没有受伤:罗汉抵挡的是刚受到的一点伤害。")
    if ghost == "祝由":
        require(target == s.current, f"祝由只能在被附体玩家的出牌阶段使用:现在是 {s.players[s.current]} 的回合。")
    return str(ghost)


def _ghost(hooks: tr.Hooks, s: State, actor: Any, action: dict[str, Any]) -> None:
    """暗魂: the ghost's owner (or the host for them) possesses a living player, once."""
    require(bool(s.options.get("ghosts")), "本桌没有使用暗魂。")
    owner = actor if actor != tr.HOST else seat_param(s, action, "ghost", "暗魂")
    owner = int(owner)
    target = seat_param(s, action, "target", "附体对象")
    ghost = check_ghost(s, owner, target)
    if ghost == "罗汉":
        s.hp[target] += 1
        s.hand[target] = max(0, s.hand[target] - 1)
        what = f"抵挡一点伤害:体力 {s.hp[target]}/{s.max_hp[target]},弃掉一张手牌(手牌 {s.hand[target]} 张)"
    elif ghost == "玄武":
        what = "从牌堆摸一张牌,与其一张手牌交换(手牌数不变)"
    else:
        what = f"令其弃掉所有手牌({s.hand[target]} 张)再摸同样多的牌(手牌数不变)"
    s.ghosts[owner] = None
    line = f"{s.players[owner]} 的{ghost}暗魂附体 {s.players[target]}:{what}。暗魂消失。"
    s.ghosts_used.append(line)
    emit(s, f"{line}〔{tr.who(s, actor)} 记录〕")


def check_giver(s: State, giver: int) -> None:
    """转世规则: who may give a card now — living, not reborn, once a turn, with a card."""
    require(s.alive[giver] and not _reborn(s, giver), "只有存活且没有转世的玩家可以献祭。")
    require(s.gave_on_turn[giver] != s.turn_no, f"{s.players[giver]} 这个回合已经献祭过了(每回合只能献祭一次)。")
    require(s.hand[giver] > 0, f"{s.players[giver]} 没有手牌可以献祭。")


def check_receiver(s: State, target: int) -> None:
    """转世规则: who may receive a card — out, and with a general of their kingdom left."""
    name = s.players[target]
    require(not s.alive[target], f"{name} 没有出局:只能献祭给已出局的玩家。")
    require(not s.no_rebirth[target], f"{name} 已经不能转世(没有同国籍的未使用武将),不再接受献祭。")


def _sacrifice(hooks: tr.Hooks, s: State, actor: Any, action: dict[str, Any]) -> None:
    """转世规则: a player gives one hand card a turn to a player who is out; at the threshold, rebirth."""
    require(bool(s.options.get("rebirth")), "本桌没有使用转世规则。")
    giver = actor if actor != tr.HOST else seat_param(s, action, "giver", "献祭者")
    giver = int(giver)
    target = seat_param(s, action, "target", "献祭对象")
    name = s.players[target]
    check_giver(s, giver)
    check_receiver(s, target)
    s.gave_on_turn[giver] = s.turn_no
    s.hand[giver] -= 1
    s.hand[target] += 1
    need = house.rebirth_threshold(s.n)
    emit(
        s,
        f"献祭:{s.players[giver]} 给 {name} 一张手牌({name} 已收到 {s.hand[target]}/{need} 张)。"
        f"〔{tr.who(s, actor)} 记录〕",
    )
    if s.hand[target] >= need:
        _rebirth(s, target)


def _rebirth(s: State, p: int) -> None:
    if house.rebirth(s, p, s.hand[p], f"已收到的 {s.hand[p]} 张牌") and len(s.last_source) == s.n:
        s.last_source[p] = -1


_HOOKS = tr.Hooks(
    step=-1,
    start_turn=_start_turn,
    on_death=_on_death,
    check_victory=_check_victory,
    after_hp=_after_hp,
    before_death=_before_death,
    extra={"choose_general": _choose, "ghost": _ghost, "sacrifice": _sacrifice},
    extra_expected=lambda s: ["choose_general"] if s.phase in ("lord_general", "generals") else None,
)


def apply(state: State, action: Any) -> tuple[State, list[dict[str, Any]]]:
    return tr.apply_with(_HOOKS, state, action)


legal = legal_via(apply)


def winner(s: State) -> list[int] | None:
    return sgs_score.winner(s)


def score(s: State) -> dict[int, int] | None:
    return sgs_score.score(s)


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
        "house": _house_view(s, seats) if everyone_chose else None,
        "log": visible_log(s.log, viewer),
    }


def _house_view(s: State, seats: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The house rules' public part: ghosts, sacrifices, rebirths, the countdown, the protected player."""
    o = s.options
    if not any(o.get(k) for k in ("ghosts", "rebirth", "countdown", "last_blood")):
        return None
    n = s.n
    for row in seats:
        p = row["seat"]
        row["ghost"] = s.ghosts[p] if len(s.ghosts) == n and not s.alive[p] else None
        row["reborn"] = _reborn(s, p)
        row["offerings"] = s.hand[p] if o.get("rebirth") and not s.alive[p] else None
        row["no_rebirth"] = len(s.no_rebirth) == n and s.no_rebirth[p]
    anyone_out = house.someone_out(s)
    return {
        "ghosts": bool(o.get("ghosts")),
        "ghost_lines": list(s.ghosts_used),
        "rebirth": bool(o.get("rebirth")),
        "need": house.rebirth_threshold(n),
        "countdown": house.countdown_text(s, [p for p in range(n) if s.alive[p]]) if o.get("countdown") else None,
        "protected": s.players[s.protected] if s.protected is not None and not anyone_out else None,
    }


def moves(s: State, seat: int | str) -> list[Move]:
    """Every record ``seat`` (or the host, ``tracker.HOST``) may make now."""
    if s.phase in ("lord_general", "generals"):
        return [*_choice_moves(s, seat), *tr.host_moves(s, seat, _HOOKS)]
    out = tr.record_moves(s, seat, _HOOKS)
    if s.phase == "over":
        return out
    return [*_ghost_moves(s, seat), *_sacrifice_moves(s, seat), *out]


def forms(s: State, seat: int | str) -> list[dict[str, Any]]:
    """The page's forms: one per legal move."""
    return [m.form() for m in moves(s, seat)]


def _choice_moves(s: State, seat: int | str) -> list[Move]:
    if seat == tr.HOST:
        return []
    choices = [(g, generals.label(g)) for g in s.candidates[int(seat)] if passes(check_choice, s, int(seat), g)]
    return [Move("choose_general", "选择武将", (choice_arg("general", "武将", choices),))] if choices else []


def _ghost_moves(s: State, seat: int | str) -> list[Move]:
    """暗魂: a ghost's owner possesses whom ``check_ghost`` allows; the host records it for any owner."""
    if not s.options.get("ghosts") or len(s.ghosts) != s.n:
        return []
    living = [p for p in range(s.n) if s.alive[p]]
    if seat == tr.HOST:
        return _host_ghost_moves(s, living)
    me = int(seat)
    targets = [t for t in living if passes(check_ghost, s, me, t)]
    if not targets:
        return []
    name = str(s.ghosts[me])
    args = (seat_arg("target", "附体谁", s.players, targets),)
    return [Move("ghost", f"{name}暗魂附体(只能用一次)", args, help=house.GHOST_TEXT[name])]


def _host_ghost_moves(s: State, living: list[int]) -> list[Move]:
    owners = [p for p in range(s.n) if s.ghosts[p] is not None and not s.alive[p]]
    combos = tuple((o, t) for o in owners for t in living if passes(check_ghost, s, o, t))
    if not combos:
        return []
    ghost = Arg("ghost", "谁的暗魂", "seat", tuple((p, f"{s.players[p]}({s.ghosts[p]})") for p in owners))
    return [Move("ghost", "暗魂附体", (ghost, seat_arg("target", "附体谁", s.players, living)), combos=combos)]


def _sacrifice_moves(s: State, seat: int | str) -> list[Move]:
    if not s.options.get("rebirth") or len(s.no_rebirth) != s.n:
        return []
    dead = [p for p in range(s.n) if passes(check_receiver, s, p)]
    givers = [p for p in range(s.n) if passes(check_giver, s, p)]
    if not dead or not givers or seat not in (tr.HOST, *givers):
        return []
    target = seat_arg("target", "献给谁", s.players, dead)
    if seat == tr.HOST:
        return [Move("sacrifice", "献祭一张手牌(转世)", (seat_arg("giver", "谁献祭", s.players, givers), target))]
    need = house.rebirth_threshold(s.n)
    help = f"已出局的玩家收到 {need} 张即转世;每回合只能献祭一次"
    return [Move("sacrifice", "献祭一张手牌(转世)", (target,), help=help)]
