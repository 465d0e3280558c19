"""狄仁杰 card game, physical-deck tracker (source 000): the table deals and plays its own cards.

The app keeps what a real table loses track of: whose turn it is (to the left = the next seat, from option ``start``,
the player who drew T1), each player's cards in hand (counts), hidden and public clues, the last round after the 8th
public clue, the answers (private until everyone has written one), the mission when it is turned over, and the score
(``direnjie_cards_view.score``: 1/3/6 + 1 per two clues, killer expansion, teams).

Rulings (also in docs/tables.md):

* The mission is three real cards set aside face down; nobody (the app included) knows it until the end, when it is
  turned over and recorded (by the host or any player) after every answer is in.
* Killer expansion: the killer is whoever was dealt A; they tell the app so privately (``claim_killer``) before they
  answer; nobody else learns it before the mission is turned over.  The offer stays on every unanswered player's page
  and the last claim counts, so neither a missing button nor a refusal tells anyone that the killer has claimed.
* Records are public and may be made by anyone at the table; answers and the killer's claim only by the player.
* Who may record what now, and the forms, are ``direnjie_table_moves``; once the mission is recorded the game is over
  and takes no record or correction (the host undoes the mission record first).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from . import direnjie_cards as dj
from . import direnjie_cards_view as djv
from . import tracker as tr
from .base import (
    RuleError,
    TableState,
    action_type,
    emit,
    int_param,
    legal_via,
    require,
    seat_param,
    str_param,
    visible_log,
)
from .direnjie_cards_score import numbers_param
from .direnjie_table_moves import (
    CLUE_HAND_FIELDS,
    answer_refusal,
    claim_refusal,
    may_end_turn,
    moves,
    open_actions,
    reveal_targets,
    submit_targets,
    withdraw_refusal,
)

KIND = "direnjie_cards"
TITLE = dj.TITLE
MIN_PLAYERS, MAX_PLAYERS = dj.MIN_PLAYERS, dj.MAX_PLAYERS


@dataclasses.dataclass
class State(dj.Circle, TableState):
    players: list[str]
    seed: int
    options: dict[str, Any]
    start: int = 0
    current: int = 0
    turn_no: int = 0
    phase: str = "play"  # play | answer | mission | over
    hand: list[int] = dataclasses.field(default_factory=list)
    hidden: list[int] = dataclasses.field(default_factory=list)
    public: list[int] = dataclasses.field(default_factory=list)
    submitted: list[int] = dataclasses.field(default_factory=list)
    last_round: bool = False
    killer: int | None = None
    claims: list[int] = dataclasses.field(default_factory=list)  # seats that claimed A, in order; the last counts
    answers: list[dict[str, Any] | None] = dataclasses.field(default_factory=list)
    mission: dict[str, int] = dataclasses.field(default_factory=dict)
    rng_count: int = 0
    log: list[dict[str, Any]] = dataclasses.field(default_factory=list)


def new_game(players: list[str], seed: int, options: dict[str, Any] | None = None) -> State:
    base = dj.new_game(players, seed, options)  # validates players, killer and teams the same way
    n = base.n
    options = dict(base.options)
    start = options.get("start", 0)
    require(isinstance(start, int) and start in range(n), f"起始玩家座位号必须在 0 到 {n - 1} 之间。")
    s = State(players=base.players, seed=seed, options=options, start=start, current=start)
    hands = 10 if n < 6 else 8
    s.hand = [hands + (1 if n == 6 and p in ((start + 4) % n, (start + 5) % n) else 0) for p in range(n)]
    if options["killer"]:  # with A in the deck one card is left over: it goes to the 尾家
        s.hand[s.tail] += 1
    s.hidden, s.public, s.submitted = [0] * n, [0] * n, [0] * n
    s.answers = [None] * n
    emit(s, f"实体牌开局:{s.players[start]} 先行(抽到 T1),尾家是 {s.players[s.tail]}。请按规则发牌并盖放秘密任务。")
    return s


def apply(state: State, action: Any) -> tuple[State, list[dict[str, Any]]]:
    kind = action_type(action)
    actor = tr.actor_of(state, action)
    require(state.phase != "over", "这一局已经结束,不能再记录或更正(主持人可以先撤销最后一条记录)。")
    allowed = open_actions(state)
    if kind not in allowed:
        raise RuleError(
            f"现在不能「{ACTION_NAMES.get(kind, '这个动作')}」。现在可以:{'、'.join(ACTION_NAMES[k] for k in allowed)}。"
        )
    s = state.clone()  # a record the phase does not take costs no copy of the state
    start = len(s.log)
    _HANDLERS[kind](s, actor, action)
    return s, s.log[start:]


def _seat(s: State, action: dict[str, Any]) -> int:
    return seat_param(s, action, "target", "对象")


def _name(s: State, actor: Any) -> str:
    return tr.who(s, actor)  # type: ignore[arg-type]


def _hand(s: State, actor: Any, action: dict[str, Any]) -> None:
    target, delta = _seat(s, action), int_param(action, "delta", tr.DELTAS, "变化量")
    s.hand[target] = max(0, min(tr.MAX_VALUE, s.hand[target] + delta))
    emit(s, f"{s.players[target]} 手牌 {delta:+d},现有 {s.hand[target]} 张。〔{_name(s, actor)} 记录〕")


def _submit(s: State, actor: Any, action: dict[str, Any]) -> None:
    target = _seat(s, action)
    require(target in submit_targets(s), f"{s.players[target]} 手牌不足 3 张,不能提交线索(可先更正手牌数)。")
    s.hand[target] -= 3
    s.hidden[target] += 1
    s.submitted[target] += 1
    emit(s, f"{s.players[target]} 提交了一组线索(暗),已提交 {s.submitted[target]} 组。〔{_name(s, actor)} 记录〕")


def _reveal(s: State, actor: Any, action: dict[str, Any]) -> None:
    target = _seat(s, action)
    require(target in reveal_targets(s), f"{s.players[target]} 没有暗线索可以翻开。")
    s.hidden[target] -= 1
    s.public[target] += 1
    total = sum(s.public)
    emit(s, f"{s.players[target]} 翻开一组线索:公开线索共 {total}/8。〔{_name(s, actor)} 记录〕")
    if s.public[target] in (2, 4, 6):
        emit(s, f"这是 {s.players[target]} 翻开的第 {s.public[target]} 组线索:请执行检查线索或线索功能(在桌上进行)。")
    if total >= dj.PUBLIC_CLUES_TO_END and not s.last_round:
        s.last_round = True
        emit(s, f"已有 8 组公开线索:最后一轮,到尾家 {s.players[s.tail]} 为止。")


def _end_turn(s: State, actor: Any, action: dict[str, Any]) -> None:
    require(may_end_turn(s, actor), f"只有当前回合的 {s.players[s.current]} 或主持人可以结束回合。")
    emit(s, f"{s.players[s.current]} 的回合结束。〔{_name(s, actor)} 记录〕")
    if s.last_round and s.current == s.tail:
        s.phase = "answer"
        emit(s, "游戏结束:每位玩家在自己的页面写下解答(提交前他人看不到)。")
        return
    s.current = (s.current + 1) % s.n
    s.turn_no += 1


def _claim(s: State, actor: Any, action: dict[str, Any]) -> None:
    refusal = claim_refusal(s, actor)
    require(refusal is None, str(refusal))
    seat = int(actor)
    s.claims = [*s.claims, seat]
    s.killer = seat
    emit(s, "你声明自己拿到了杀手牌 A。点错了可以在写解答之前撤回。", to=[seat])


def _withdraw(s: State, actor: Any, action: dict[str, Any]) -> None:
    """A mis-tap on 「我拿到了杀手牌 A」 is taken back by the same player; the claim before it counts again."""
    refusal = withdraw_refusal(s, actor)
    require(refusal is None, str(refusal))
    seat = int(actor)
    s.claims = [p for p in s.claims if p != seat]
    s.killer = s.claims[-1] if s.claims else None
    emit(s, "你撤回了「拿到杀手牌 A」的声明。", to=[seat])


def _answer(s: State, actor: Any, action: dict[str, Any]) -> None:
    refusal = answer_refusal(s, actor)
    require(refusal is None, str(refusal))
    seat = int(actor)
    djv.write_answer(s, seat, action)
    emit(s, "你的解答:" + djv.describe_answer(s, s.answers[seat]), to=[seat])
    if all(a is not None for a in s.answers):
        s.phase = "mission"
        emit(s, "所有解答都已写好:请翻开秘密任务的三张牌并记录。")


def _mission(s: State, actor: Any, action: dict[str, Any]) -> None:
    s.mission = numbers_param(action)
    s.phase = "over"
    m = s.mission
    emit(s, f"秘密任务揭晓:目标 T{m['T']}、凶器 W{m['W']}、地点 L{m['L']}。〔{_name(s, actor)} 记录〕")
    if s.options["killer"]:
        emit(s, f"杀手:{s.players[s.killer]}。" if s.killer is not None else "没有人声明拿到杀手牌。")
    for p, a in enumerate(s.answers):
        emit(s, f"{s.players[p]} 的解答:{djv.describe_answer(s, a)}")
    scores = djv.score(s)
    assert scores is not None
    emit(s, "得分:" + ",".join(f"{s.players[p]} {scores[p]}" for p in range(s.n)))
    emit(s, "获胜:" + "、".join(s.players[p] for p in djv.winner(s) or []))


def _correct(s: State, actor: Any, action: dict[str, Any]) -> None:
    require(actor == tr.HOST, "只有主持人可以直接更正数值。")
    target = _seat(s, action)
    field = str_param(action, "field", CLUE_HAND_FIELDS, "更正项")
    value = int_param(action, "value", range(tr.MAX_VALUE + 1), "新数值")
    reason = tr.reason_param(action)
    values = getattr(s, field)
    before, values[target] = values[target], value
    s.submitted[target] = s.hidden[target] + s.public[target]
    emit(s, f"主持人更正:{s.players[target]} 的{CLUE_HAND_FIELDS[field]} {before} → {value}。理由:{reason}")


ACTION_NAMES = {
    "hand": "手牌数变化",
    "submit_clue": "提交线索",
    "reveal_clue": "翻开线索",
    "end_turn": "结束回合",
    "claim_killer": "声明拿到杀手牌",
    "withdraw_claim": "撤回杀手牌声明",
    "answer": "写下解答",
    "mission": "记录秘密任务",
    "correct": "更正数值",
}
# Records only their maker may see: they change no other page, so they bump no version, and the host's undo skips
# them (the host cannot see what they are; the player withdraws a claim himself).
PRIVATE_ACTIONS = frozenset({"claim_killer", "withdraw_claim"})
_HANDLERS = {
    "hand": _hand,
    "submit_clue": _submit,
    "reveal_clue": _reveal,
    "end_turn": _end_turn,
    "claim_killer": _claim,
    "withdraw_claim": _withdraw,
    "answer": _answer,
    "mission": _mission,
    "correct": _correct,
}
legal = legal_via(apply)
score, winner = djv.score, djv.winner


def view(s: State, viewer: int | None) -> dict[str, Any]:
    over = s.phase == "over"
    seats = [
        {
            "seat": p,
            "name": s.players[p],
            "hand_count": s.hand[p],
            "hidden": s.hidden[p],
            "public": s.public[p],
            "submitted": s.submitted[p],
            "answered": s.answers[p] is not None,
            "answer": djv.describe_answer(s, s.answers[p]) if (over or p == viewer) and s.answers[p] else None,
        }
        for p in range(s.n)
    ]
    me = None
    if viewer is not None:
        # the claimant's own claim, not "the last claim": another seat's claim must not change this page
        me = {"seat": viewer, "killer": viewer in s.claims or (s.killer == viewer and not s.claims)}
    return {
        "kind": KIND,
        "mode": "physical",
        "seats": seats,
        "start": s.start,
        "tail": s.tail,
        "current": s.current,
        "phase": s.phase,
        "to_act": _waiting(s),
        "public_count": sum(s.public),
        "last_round": s.last_round,
        "me": me,
        "mission": dict(s.mission) if over else None,
        "killer": s.killer if over else None,
        "teams": djv.teams(s),
        "log": visible_log(s.log, viewer),
    }


def _waiting(s: State) -> list[int]:
    if s.phase == "play":
        return [s.current]
    if s.phase == "answer":
        return [p for p in range(s.n) if s.answers[p] is None]
    return []


def forms(s: State, seat: int | str) -> list[dict[str, Any]]:
    """The page's forms for a seat or the host: one per legal move (``direnjie_table_moves``)."""
    return [m.form() for m in moves(s, seat)]
