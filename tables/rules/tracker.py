"""Physical-deck mode: the shared core of a tracker for a table that plays with its own box of cards.

Pure rules, no Django.  The app deals only the secret parts (identities, roles, generals' choices); the table plays
the real cards and records the public consequences in a few taps: HP and max HP, cards in hand (as counts), whose turn
it is, deaths (with the identity revealed) and the game-specific reward and penalty.  Victory and scoring follow from
what was recorded.

Who may record: any seat, for anyone (at a real table whoever holds the phone taps), and the host (``player`` =
``HOST``).  Only the host may ``correct`` a value outright, and a correction needs a reason, which is logged publicly.
Every entry names who recorded it.  A record that would reveal a secret needs its owner's or the host's word: a death
recorded by another seat waits (``pending``) until the victim or the host confirms it, and only then is the identity
shown (otherwise any seat could unmask any identity by recording a false death).

A game module built on this core provides ``Hooks``: the turn direction, what a death does (reveal, reward,
penalty), the victory check, and its own extra actions (secret choices such as a general).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .base import RuleError, TableState, action_type, emit, int_param, next_living, require, seat_param, str_param
from .moves import Arg, Move, choice_arg, passes, seat_arg

HOST = "host"
DELTAS = [d for d in range(-5, 6) if d != 0]
HP_HAND_FIELDS = {"hp": "体力", "max_hp": "体力上限", "hand": "手牌数"}
MAX_VALUE = 99
REASON_MAX = 200


@dataclasses.dataclass
class TrackerState(TableState):
    players: list[str]
    seed: int
    options: dict[str, Any]
    roles: list[str] = dataclasses.field(default_factory=list)
    revealed: list[bool] = dataclasses.field(default_factory=list)
    alive: list[bool] = dataclasses.field(default_factory=list)
    hp: list[int] = dataclasses.field(default_factory=list)
    max_hp: list[int] = dataclasses.field(default_factory=list)
    hand: list[int] = dataclasses.field(default_factory=list)
    current: int = 0
    turn_no: int = 0
    phase: str = "play"
    kills: list[list[int]] = dataclasses.field(default_factory=list)  # [killer or -1, victim]
    pending: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # deaths awaiting confirmation
    last_source: list[int] = dataclasses.field(default_factory=list)  # per seat: who last damaged them (-1: nobody)
    winning_side: str | None = None
    rng_count: int = 0
    log: list[dict[str, Any]] = dataclasses.field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.players)


@dataclasses.dataclass
class Hooks:
    """What differs between the games: the turn order, the start of a turn, a death, the victory check."""

    step: int  # +1: the next seat (clockwise list, to the left); -1: the previous seat (counter-clockwise)
    start_turn: Callable[[Any], None]
    on_death: Callable[[Any, int, int | None], None]
    check_victory: Callable[[Any], bool]
    extra: dict[str, Callable[[Hooks, Any, Any, dict[str, Any]], None]] = dataclasses.field(default_factory=dict)
    extra_expected: Callable[[Any], list[str] | None] = lambda s: None
    hp_floor: int | None = None  # 暗火线: "血量降到0(不会出现负值)"; 三国杀 HP may go below 0
    # House rules (三国杀's 最后一滴血): after an HP record (target, source, delta: may raise HP back and say why), and
    # before a death takes effect (victim, source: raises RuleError when the rules forbid it).
    after_hp: Callable[[Any, int, int | None, int], None] | None = None
    before_death: Callable[[Any, int, int | None], None] | None = None


def actor_of(s: TableState, action: dict[str, Any]) -> int | str:
    """The acting seat, or HOST."""
    if action.get("player") == HOST:
        return HOST
    return seat_param(s, action)


def who(s: TrackerState, actor: int | str) -> str:
    return "主持人" if actor == HOST else s.players[int(actor)]


def apply_with(hooks: Hooks, state: TrackerState, action: Any) -> tuple[Any, list[dict[str, Any]]]:
    s = state.clone()
    start = len(s.log)
    kind = action_type(action)
    actor = actor_of(s, action)
    require(s.phase != "over" or kind == "correct", "这一局已经结束,不能再记录。主持人可以撤销或更正。")
    special = hooks.extra_expected(s)
    if special is not None:
        require(kind in special or kind == "correct", "请先完成开局选择(见页面上的提示)。")
    handler = {**_COMMON, **hooks.extra}.get(kind)
    if handler is None:
        raise RuleError("没有这种记录。可以记录:体力、体力上限、手牌数、回合结束、阵亡;主持人还可以更正。")
    handler(hooks, s, actor, action)
    return s, s.log[start:]


def reason_param(action: dict[str, Any]) -> str:
    reason = action.get("reason")
    text = reason.strip() if isinstance(reason, str) else ""
    require(0 < len(text) <= REASON_MAX, f"请写明更正理由(1–{REASON_MAX} 字)。")
    return text


def declare(s: TrackerState, side: str) -> bool:
    """The game is won by ``side``: every identity is shown."""
    s.winning_side = side
    emit(s, f"游戏结束:{side}获胜。身份:" + ",".join(f"{p}={r}" for p, r in zip(s.players, s.roles, strict=True)))
    return True


def _delta(action: dict[str, Any]) -> int:
    return int_param(action, "delta", DELTAS, "变化量")


def _target(s: TrackerState, action: dict[str, Any]) -> int:
    target = seat_param(s, action, "target", "对象")
    require(s.alive[target], f"{s.players[target]} 已经阵亡。")
    return target


def _source(s: TrackerState, action: dict[str, Any]) -> int | None:
    if action.get("source") in (None, "none", ""):
        return None
    source = seat_param(s, action, "source", "伤害来源")
    require(s.alive[source], "伤害来源必须是存活的角色(或选「无来源」)。")
    return source


def _hp(hooks: Hooks, s: TrackerState, actor: Any, action: dict[str, Any]) -> None:
    target, delta = _target(s, action), _delta(action)
    source = _source(s, action)
    before = s.hp[target]
    s.hp[target] = min(s.hp[target] + delta, s.max_hp[target])
    if hooks.hp_floor is not None:
        s.hp[target] = max(s.hp[target], hooks.hp_floor)
    by = f"(来源:{s.players[source]})" if source is not None and delta < 0 else ""
    if delta < 0:
        if len(s.last_source) != s.n:
            s.last_source = [-1] * s.n
        s.last_source[target] = -1 if source is None else source
    emit(s, f"{s.players[target]} 体力 {before} → {s.hp[target]}/{s.max_hp[target]}{by}。〔{who(s, actor)} 记录〕")
    if hooks.after_hp is not None:
        hooks.after_hp(s, target, source, delta)
    if s.hp[target] <= 0:
        emit(s, f"{s.players[target]} 濒死:救回请记录体力回复;否则记录阵亡。")


def _max_hp(hooks: Hooks, s: TrackerState, actor: Any, action: dict[str, Any]) -> None:
    target, delta = _target(s, action), _delta(action)
    s.max_hp[target] = max(1, min(MAX_VALUE, s.max_hp[target] + delta))
    s.hp[target] = min(s.hp[target], s.max_hp[target])
    emit(s, f"{s.players[target]} 体力上限变为 {s.max_hp[target]}(体力 {s.hp[target]})。〔{who(s, actor)} 记录〕")


def _hand(hooks: Hooks, s: TrackerState, actor: Any, action: dict[str, Any]) -> None:
    target, delta = _target(s, action), _delta(action)
    s.hand[target] = max(0, min(MAX_VALUE, s.hand[target] + delta))
    word = f"摸 {delta}" if delta > 0 else f"失去 {-delta}"
    emit(s, f"{s.players[target]} {word} 张牌,手牌 {s.hand[target]} 张。〔{who(s, actor)} 记录〕")


def _end_turn(hooks: Hooks, s: TrackerState, actor: Any, action: dict[str, Any]) -> None:
    require(actor in (HOST, s.current), f"只有当前回合的 {s.players[s.current]} 或主持人可以结束回合。")
    emit(s, f"{s.players[s.current]} 的回合结束。〔{who(s, actor)} 记录〕")
    s.current = next_living(s, s.current, hooks.step)
    s.turn_no += 1
    hooks.start_turn(s)


def check_death(hooks: Hooks, s: TrackerState, actor: Any, victim: int, source: int | None) -> None:
    """May ``actor`` record ``victim``'s death by ``source`` now (RuleError if not)?  The record and its form ask it."""
    require(s.alive[victim], f"{s.players[victim]} 已经阵亡。")
    require(source is None or s.alive[source], "伤害来源必须是存活的角色(或选「无来源」)。")
    require(source != victim, "阵亡者不能是自己的伤害来源;自己造成的请选「无来源」。")
    if hooks.before_death is not None:
        hooks.before_death(s, victim, source)
    if actor not in (HOST, victim):
        require(
            all(d["victim"] != victim for d in s.pending),
            f"{s.players[victim]} 的阵亡已经记录过,正在等待本人或主持人确认。",
        )


def _death(hooks: Hooks, s: TrackerState, actor: Any, action: dict[str, Any]) -> None:
    victim = _target(s, action)
    source = _source(s, action)
    check_death(hooks, s, actor, victim, source)
    if actor not in (HOST, victim):  # a death reveals the identity: the victim or the host must confirm it
        s.pending.append({"victim": victim, "source": -1 if source is None else source})
        by = f",凶手 {s.players[source]}" if source is not None else ""
        emit(
            s,
            f"{s.players[victim]} 阵亡{by}(待确认):{s.players[victim]} 本人或主持人确认后才亮出身份。"
            f"〔{who(s, actor)} 记录〕",
        )
        return
    s.pending = [d for d in s.pending if d["victim"] != victim]
    _kill(hooks, s, actor, victim, source)


def _pending_of(s: TrackerState, actor: Any, action: dict[str, Any]) -> dict[str, Any]:
    victim = seat_param(s, action, "target", "对象")
    found = next((d for d in s.pending if d["victim"] == victim), None)
    require(found is not None, f"没有等待确认的 {s.players[victim]} 阵亡记录(可能已经确认或驳回)。")
    require(actor in (HOST, victim), f"只有 {s.players[victim]} 本人或主持人可以确认或驳回这条阵亡记录。")
    assert found is not None
    s.pending.remove(found)
    return found


def _confirm_death(hooks: Hooks, s: TrackerState, actor: Any, action: dict[str, Any]) -> None:
    found = _pending_of(s, actor, action)
    victim, source = found["victim"], None if found["source"] < 0 else found["source"]
    require(s.alive[victim], f"{s.players[victim]} 已经阵亡。")
    if source is not None and not s.alive[source]:
        source = None
    if hooks.before_death is not None:
        hooks.before_death(s, victim, source)
    _kill(hooks, s, actor, victim, source)


def _reject_death(hooks: Hooks, s: TrackerState, actor: Any, action: dict[str, Any]) -> None:
    found = _pending_of(s, actor, action)
    emit(s, f"{who(s, actor)} 驳回了 {s.players[found['victim']]} 的阵亡记录:身份不亮出。")


def _kill(hooks: Hooks, s: TrackerState, actor: Any, victim: int, source: int | None) -> None:
    s.alive[victim] = False
    s.revealed[victim] = True
    s.hp[victim] = min(s.hp[victim], 0)
    s.kills.append([-1 if source is None else source, victim])
    by = f",凶手 {s.players[source]}" if source is not None else ""
    emit(s, f"{s.players[victim]} 阵亡{by},亮出身份:{s.roles[victim]}。〔{who(s, actor)} 记录〕")
    hooks.on_death(s, victim, source)  # before the victory check: the final death moves the loot too
    if hooks.check_victory(s):
        s.phase = "over"
        return
    if s.current == victim:
        s.current = next_living(s, victim, hooks.step)
        s.turn_no += 1
        hooks.start_turn(s)


def _correct(hooks: Hooks, s: TrackerState, actor: Any, action: dict[str, Any]) -> None:
    require(actor == HOST, "只有主持人可以直接更正数值。")
    target = seat_param(s, action, "target", "对象")
    field = str_param(action, "field", HP_HAND_FIELDS, "更正项")
    value = int_param(action, "value", range(-MAX_VALUE, MAX_VALUE + 1), "新数值")
    reason = reason_param(action)
    check_correction(hooks, s, target, field, value)
    values = getattr(s, field)
    before, values[target] = values[target], value
    if field == "max_hp":
        s.hp[target] = min(s.hp[target], value)
    emit(s, f"主持人更正:{s.players[target]} 的{HP_HAND_FIELDS[field]} {before} → {values[target]}。理由:{reason}")


def check_correction(hooks: Hooks, s: TrackerState, target: int, field: str, value: int) -> None:
    """Is ``value`` a possible ``field`` of ``target`` (a hand ≥ 0, 体力上限 ≥ 1, 体力 ≤ 体力上限)?"""
    name = s.players[target]
    if field == "hand":
        require(value >= 0, f"手牌数不能是负数(收到 {value}):请填 0 到 {MAX_VALUE}。")
    elif field == "max_hp":
        require(value >= 1, f"体力上限至少是 1(收到 {value})。")
    else:
        low = -MAX_VALUE if hooks.hp_floor is None else hooks.hp_floor
        require(
            low <= value <= s.max_hp[target],
            f"{name} 的体力上限是 {s.max_hp[target]}:体力只能填 {low} 到 {s.max_hp[target]}(先更正体力上限)。",
        )


_COMMON: dict[str, Callable[[Hooks, TrackerState, Any, dict[str, Any]], None]] = {
    "hp": _hp,
    "max_hp": _max_hp,
    "hand": _hand,
    "end_turn": _end_turn,
    "death": _death,
    "confirm_death": _confirm_death,
    "reject_death": _reject_death,
    "correct": _correct,
}


# --- views and forms ------------------------------------------------------------------------------------------------


def seat_rows(s: TrackerState, viewer: int | None, role_shown: Callable[[int], bool]) -> list[dict[str, Any]]:
    over = s.phase == "over"
    return [
        {
            "seat": p,
            "name": name,
            "role": s.roles[p] if (over or s.revealed[p] or p == viewer or role_shown(p)) else None,
            "hp": s.hp[p],
            "max_hp": s.max_hp[p],
            "hand_count": s.hand[p],
            "alive": s.alive[p],
            "dying": s.alive[p] and s.hp[p] <= 0 and s.phase not in ("lord_general", "generals"),
            "death_pending": any(d["victim"] == p for d in s.pending),
        }
        for p, name in enumerate(s.players)
    ]


NO_HOOKS = Hooks(step=1, start_turn=lambda s: None, on_death=lambda s, v, k: None, check_victory=lambda s: False)


def _example(hooks: Hooks, s: TrackerState, target: int, field: str) -> int | None:
    return next(
        (v for v in (getattr(s, field)[target], 1) if passes(check_correction, hooks, s, target, field, v)), None
    )


def record_moves(s: TrackerState, actor: int | str, hooks: Hooks = NO_HOOKS) -> list[Move]:
    """The public records ``actor`` may make now, plus the host's correction (``hooks``: the game's death rules)."""
    if s.phase == "over":
        return host_moves(s, actor, hooks)
    living = [p for p in range(s.n) if s.alive[p]]
    deltas = choice_arg("delta", "变化", [(d, f"{d:+d}") for d in sorted(DELTAS, key=lambda d: (d > 0, abs(d)))])
    deltas = dataclasses.replace(deltas, kind="int")
    target = seat_arg("target", "谁", s.players, living)
    sources = Arg("source", "伤害来源", "source", _sources(s, living))
    out: list[Move | None] = [*_pending_moves(hooks, s, actor), *_dying_moves(hooks, s, actor)]
    out += [
        Move("hp", "体力变化", (target, deltas, sources)),
        Move("hand", "手牌数变化", (target, deltas)),
        Move("max_hp", "体力上限变化", (target, deltas)),
        _death_move(
            hooks, s, actor, "阵亡", target, dataclasses.replace(sources, label="凶手", placeholder="— 请选择 —")
        ),
    ]
    if actor in (HOST, s.current):
        out.insert(0, Move("end_turn", f"结束 {s.players[s.current]} 的回合"))
    return [m for m in out if m is not None] + host_moves(s, actor, hooks)


def _sources(s: TrackerState, seats: list[int]) -> tuple[tuple[Any, str], ...]:
    return (("none", "无来源"), *((p, s.players[p]) for p in seats))


def _death_move(hooks: Hooks, s: TrackerState, actor: Any, label: str, target: Arg, source: Arg) -> Move | None:
    """A 阵亡 form: its legal (victim, killer) pairs by ``check_death``; none, no form."""
    combos = tuple(
        (v, k)
        for v in target.values()
        for k in source.values()
        if passes(check_death, hooks, s, actor, v, None if k == "none" else k)
    )
    return Move("death", label, (target, source), combos=combos) if combos else None


def _pending_moves(hooks: Hooks, s: TrackerState, actor: int | str) -> list[Move]:
    """The victim (or the host) confirms or rejects a death another seat recorded."""
    out = []
    for d in s.pending:
        victim = d["victim"]
        if actor not in (HOST, victim):
            continue
        name = "我" if actor == victim else s.players[victim]
        target = Arg("target", "", "hidden", ((victim, s.players[victim]),))
        source = None if d["source"] < 0 or not s.alive[d["source"]] else d["source"]
        if passes(check_death, hooks, s, HOST, victim, source):
            out.append(Move("confirm_death", f"确认{name}阵亡(亮出身份)", (target,)))
        out.append(Move("reject_death", f"驳回{name}的阵亡记录", (target,)))
    return out


def _dying_moves(hooks: Hooks, s: TrackerState, actor: int | str) -> list[Move]:
    """One 阵亡 form per dying seat, its killer preselected: who last damaged them (无来源 by default would
    silently drop the reward, the penalty and the kill bonus)."""
    dying = [p for p in range(s.n) if s.alive[p] and s.hp[p] <= 0 and all(d["victim"] != p for d in s.pending)]
    out = [_dying_move(hooks, s, actor, p) for p in dying]
    return [m for m in out if m is not None]


def _dying_move(hooks: Hooks, s: TrackerState, actor: int | str, p: int) -> Move | None:
    living = [c for c in range(s.n) if s.alive[c]]
    last = s.last_source[p] if len(s.last_source) == s.n else -1
    first = [(last, s.players[last])] if last >= 0 and s.alive[last] else []
    rest = [(c, s.players[c]) for c in living if c != last and c != p]
    sources = Arg("source", "凶手", "source", (*first, ("none", "无来源"), *rest))
    target = Arg("target", "", "hidden", ((p, s.players[p]),))
    return _death_move(hooks, s, actor, f"{s.players[p]} 阵亡", target, sources)


def host_moves(s: TrackerState, actor: int | str, hooks: Hooks = NO_HOOKS) -> list[Move]:
    """The host's correction: any seat, any field, a value typed in (each pair's legal example: the value it has now,
    or 1 for a 体力上限 not set yet)."""
    if actor != HOST:
        return []
    examples = {(p, f): _example(hooks, s, p, f) for p in range(s.n) for f in HP_HAND_FIELDS}
    args = (
        seat_arg("target", "谁", s.players, list(range(s.n))),
        choice_arg("field", "项目", list(HP_HAND_FIELDS.items())),
        Arg("value", "新数值", "number", ()),
        Arg("reason", "理由", "text", ()),
    )
    combos = tuple((p, f, v, "记错了") for (p, f), v in examples.items() if v is not None)
    return [Move("correct", "更正数值", args, combos=combos)]
