"""狄仁杰 card game (source 000): clue sets, the killer's secret mission, scoring, killer expansion, team variant.

Pure rules module; clue shapes in ``direnjie_cards_clues.py``, the step-1 check/function in
``direnjie_cards_bonus.py``, where cards may be taken from in ``direnjie_cards_draws.py``, answers and scoring in
``direnjie_cards_score.py``, the legal moves in ``direnjie_cards_moves.py``, views and forms in
``direnjie_cards_view.py``.  Cards: T1–T6, W1–W5, L1–L5 (×3 each),
M1–M5 (×1, 丐帮), optional A (杀手).  Actions (``player`` is the acting seat):

* step 1 bonus (2nd/4th/6th clue revealed): ``check`` {owner, index} or ``function`` {target}, then for a T clue
  ``give_back`` {cards}
* step 2: ``request`` {category: T|W|L} or {number: 1–5}; each other player ``give`` {card} or ``pass`` {};
  if nothing came, ``consolation`` {source: "deck" | seat | "none"}
* step 3: ``submit`` {cards} (three cards) or, for the killer only, ``no_submit`` {}
* step 4: ``refill`` {sources: list of up to two of "deck" / seat}
* after the game: every player ``answer`` {T, W, L, killer}

Rulings (also in docs/tables.md):

* Seats are entered clockwise; the next player is the one on the left (next seat).  With fewer than 6 players nobody
  may draw T1 for the starting player; then the lowest T drawn starts.
* The killer expansion needs 5–6 players: only there does the rule make sure A is dealt at set-up (in 2–4 players A
  could stay in the deck and there would be no killer).
* T6 is wild only when giving in step 2; in a clue it only forms T6 clues and the T6 + any 丐帮 special.
* A clue's category and number are those of its top card (the revealed one); the bans count public clues.
* Check: another player's clue (hidden or public) that you have not checked before; the tracker writes it into your
  notes (the 捕快笔记).  Clue function targets: T any other player with cards (if they hold fewer than 3 you take and
  give back that many), W one of the other players with the most cards, L any other player.
* Step 4 "补至最多两张手牌" is read as "take at most two cards" using the three listed ways; it is optional.
* Step 3 is compulsory whenever the hand holds a clue (the killer may decline).
* A clue is submitted top to bottom, its special card at the bottom; a request names one category or one number; an
  answer names a killer only when the game asks for one (a detective, with the killer expansion).
* The game ends when the last player in turn order (尾家) finishes a turn once 8 public clues exist.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from .base import (
    RuleError,
    TableState,
    cards_param,
    check_players,
    dispatch,
    emit,
    int_param,
    legal_via,
    require,
    str_param,
    take_from,
)
from .direnjie_cards_bonus import _do_check, _do_function, _do_give_back, check_targets, function_targets, steal
from .direnjie_cards_clues import (  # noqa: F401  (arrange_clue: what a clue is, as the game shows it)
    CATEGORY,
    arrange_clue,
    check_clue,
    describe_request,
    givable,
    number,
    possible_clue,
    public_clues,
    request_categories,
    request_numbers,
)
from .direnjie_cards_draws import FROM_DECK, check_consolation, check_refill, steal_targets
from .direnjie_cards_score import TEAM_SHAPES, do_answer

KIND = "direnjie_cards"
TITLE = "狄仁杰(卡牌推理)"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
PUBLIC_CLUES_TO_END = 8


def full_deck(killer: bool) -> list[str]:
    deck = [f"T{n}" for n in range(1, 7) for _ in range(3)]
    deck += [f"{c}{n}" for c in "WL" for n in range(1, 6) for _ in range(3)]
    deck += [f"M{n}" for n in range(1, 6)]
    return deck + (["A"] if killer else [])


class Circle:
    """The seats around the table: how many, and the 尾家 (the last in turn order, just before the starting player)."""

    players: list[str]
    start: int

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def tail(self) -> int:
        return (self.start - 1) % self.n


@dataclasses.dataclass
class State(Circle, TableState):
    players: list[str]
    seed: int
    options: dict[str, Any]
    start: int = 0
    mission: dict[str, int] = dataclasses.field(default_factory=dict)
    notes: list[list[str]] = dataclasses.field(default_factory=list)
    hands: list[list[str]] = dataclasses.field(default_factory=list)
    deck: list[str] = dataclasses.field(default_factory=list)
    clues: list[list[dict[str, Any]]] = dataclasses.field(default_factory=list)  # {"cards": [top, mid, bottom], …}
    checked: list[list[list[int]]] = dataclasses.field(default_factory=list)
    submitted: list[int] = dataclasses.field(default_factory=list)
    killer: int | None = None
    current: int = 0
    turn_no: int = 0
    phase: str = "request"
    bonus: str | None = None  # the category whose clue function is available
    pending: dict[str, Any] | None = None  # T function: {"target", "count"}
    request: dict[str, Any] | None = None
    givers: list[int] = dataclasses.field(default_factory=list)
    given: list[int] = dataclasses.field(default_factory=list)
    received: int = 0
    last_round: bool = False
    answers: list[dict[str, Any] | None] = dataclasses.field(default_factory=list)
    rng_count: int = 0
    log: list[dict[str, Any]] = dataclasses.field(default_factory=list)


def check_team_of(n: int, team_of: Any) -> list[int] | None:
    """Teams chosen by the table: team_of[seat] = team number (1–3); at least two teams of equal size."""
    if not team_of:
        return None
    ok = isinstance(team_of, list) and len(team_of) == n and all(t in (1, 2, 3) for t in team_of)
    require(ok, f"分队必须按座位给出 {n} 个队号(1–3),例如 1,2,1,2。")
    sizes = sorted(team_of.count(t) for t in set(team_of))
    require(len(sizes) >= 2 and sizes[0] == sizes[-1], "至少分两队,并且每队人数相同。")
    return list(team_of)


def new_game(players: list[str], seed: int, options: dict[str, Any] | None = None) -> State:
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS)
    n = len(names)
    options = {"killer": False, "teams": "", **(options or {})}
    killer = bool(options["killer"])
    require(not killer or n >= 5, "杀手扩充需要 5–6 名玩家(只有此时所有牌都会发出,杀手牌一定有人拿到)。")
    teams = options["teams"] or ""
    require(teams == "" or teams in TEAM_SHAPES, f"团队变体只能是 {'、'.join(TEAM_SHAPES)} 或留空。")
    require(teams == "" or TEAM_SHAPES[teams][0] == n, f"{teams} 需要 {TEAM_SHAPES.get(teams, (0,))[0]} 名玩家。")
    options.update(killer=killer, teams=teams, team_of=check_team_of(n, options.get("team_of")))
    rng = random.Random(seed)
    s = State(players=names, seed=seed, options=options)
    s.notes = [[] for _ in range(n)]
    s.clues = [[] for _ in range(n)]
    s.checked = [[] for _ in range(n)]
    s.submitted = [0] * n
    s.answers = [None] * n
    # 起始玩家: one each of T1–T6, one to each player; T1 (or, with fewer than 6 players, the lowest) starts.
    starters = [f"T{k}" for k in range(1, 7)]
    rng.shuffle(starters)
    drawn = starters[:n]
    s.start = min(range(n), key=lambda p: number(drawn[p]))
    emit(s, "起始玩家抽牌:" + ",".join(f"{names[p]} {drawn[p]}" for p in range(n)) + f";{names[s.start]} 先开始。")
    # 秘密任务: one T, one W, one L set aside under the box.
    s.mission = {c: rng.randint(1, 6 if c == "T" else 5) for c in "TWL"}
    # 起始线索: the 13 remaining single cards, 3 each (2–4 players) or 2 each (5–6), noted and returned to the deck.
    singles = [f"{c}{k}" for c in "TWL" for k in range(1, 7 if c == "T" else 6) if k != s.mission[c]]
    rng.shuffle(singles)
    per = 3 if n <= 4 else 2
    for p in range(n):
        s.notes[p] = [f"起始线索:{c}" for c in singles[p * per : (p + 1) * per]]
        emit(s, f"你的起始线索(不是秘密任务):{'、'.join(singles[p * per : (p + 1) * per])}。", to=[p])
    deck = full_deck(killer)
    for c, k in s.mission.items():
        deck.remove(f"{c}{k}")
    rng.shuffle(deck)
    order = [(s.start + k) % n for k in range(n)]
    size = 8 if n == 6 else 10
    s.hands = [[] for _ in range(n)]
    for p in order:
        s.hands[p] = [deck.pop() for _ in range(size)]
    if n == 6:  # the last two cards go to the 5th and 6th in order
        for p in order[4:6]:
            s.hands[p].append(deck.pop())
    if killer:  # 5–6 players: the one card left goes to the 尾家
        s.hands[order[-1]].append(deck.pop())
        s.killer = next(p for p in range(n) if "A" in s.hands[p])
        emit(s, "你拿到了杀手牌:你是本局的杀手,不可告诉其他玩家。", to=[s.killer])
    s.deck = deck
    emit(s, f"每人发 {size} 张手牌;牌堆剩 {len(deck)} 张。")
    _start_turn(s, s.start)
    return s


# --- turn flow ----------------------------------------------------------------------------------------------------


def _start_turn(s: State, seat: int) -> None:
    s.current = seat
    s.turn_no += 1
    s.request, s.givers, s.given, s.received, s.bonus, s.pending = None, [], [], 0, None, None
    emit(s, f"— {s.players[seat]} 的回合 —")
    s.phase = "request"
    hidden = [clue for clue in s.clues[seat] if not clue["public"]]
    if not hidden:
        return
    clue = hidden[0]
    clue["public"] = True
    revealed = sum(1 for c in s.clues[seat] if c["public"])
    total = len(public_clues(s))
    emit(s, f"步骤1:{s.players[seat]} 翻开线索,成为公开线索 {clue['cards'][0]}(场上共 {total} 个公开线索)。")
    if total >= PUBLIC_CLUES_TO_END and not s.last_round:
        s.last_round = True
        emit(s, f"场上出现第 {PUBLIC_CLUES_TO_END} 个公开线索:游戏进行到尾家 {s.players[s.tail]} 完成回合为止。")
    if revealed in (2, 4, 6):
        s.bonus = clue["cards"][0][0]
        if check_targets(s) or function_targets(s):
            s.phase = "bonus"
            emit(s, f"这是 {s.players[seat]} 的第 {revealed} 个线索:须执行检查线索或线索功能({CATEGORY[s.bonus]})。")
        else:
            emit(s, "没有可检查的线索,也没有可执行线索功能的对象:跳过。")


def _draw_one(s: State, seat: int) -> str:
    card = s.deck.pop()
    s.hands[seat].append(card)
    return card


def to_submit(s: State) -> None:
    """Step 3.  With the killer expansion a player with no possible clue is asked too (「没有可组成的线索」), so that the
    killer's decline looks exactly like having none: same wait, same public line."""
    seat = s.current
    if possible_clue(s.hands[seat], seat == s.killer) or s.options.get("killer"):
        s.phase = "submit"
    else:
        emit(s, f"步骤3:{s.players[seat]} 没有可组成的线索,跳过。")
        s.phase = "refill"


def _end_turn(s: State) -> None:
    if s.last_round and s.current == s.tail:
        for row in s.clues:
            for clue in row:
                clue["public"] = True
        s.phase = "answer"
        emit(s, "游戏结束:所有隐藏线索翻开最上面一张(不执行检查或功能)。请每位玩家写下解答。")
        return
    _start_turn(s, (s.current + 1) % s.n)


def direnjie_cards_expected(s: State) -> tuple[list[int], list[str]]:
    if s.phase == "give":
        return [s.givers[0]], ["give", "pass"]
    if s.phase == "answer":
        return [p for p in range(s.n) if s.answers[p] is None], ["answer"]
    if s.phase == "over":
        raise RuleError("游戏已经结束,不能再行动。")
    if s.phase == "submit":
        return [s.current], submit_actions(s)
    actions = {
        "bonus": ["check", "function"],
        "give_back": ["give_back"],
        "request": ["request"],
        "consolation": ["consolation"],
        "refill": ["refill"],
    }[s.phase]
    return [s.current], actions


def submit_actions(s: State) -> list[str]:
    """Step 3's choices: a compulsory clue when one can be formed; 不提交 for the killer or for a hand with none."""
    seat = s.current
    can = possible_clue(s.hands[seat], seat == s.killer)
    return (["submit"] if can else []) + (["no_submit"] if seat == s.killer or not can else [])


def apply(state: State, action: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    return dispatch(state, action, direnjie_cards_expected, _HANDLERS, ACTION_NAMES)


def _do_request(s: State, seat: int, action: dict[str, Any]) -> None:
    require(("category" in action) != ("number" in action), "索取只选一项:一个类别,或一个号码。")
    if "category" in action:
        category = str_param(action, "category", ("T", "W", "L"), "类别")
        require(category in request_categories(s), f"{CATEGORY[category]}已有 5 组公开线索,不能再索取该类别。")
        s.request = {"category": category}
    else:
        allowed = request_numbers(s)
        if action.get("number") == 6:
            raise RuleError("不可以索取 6 号。可以索取号码:" + "、".join(map(str, allowed)) + ",或某个类别。")
        s.request = {"number": int_param(action, "number", allowed, "号码(已有 3 组公开线索的号码不可索取)")}
    s.givers = [(seat + k) % s.n for k in range(1, s.n)]
    s.phase = "give"
    emit(s, f"步骤2:{s.players[seat]} 索取「{describe_request(s.request)}」。")


def _do_give(s: State, seat: int, action: dict[str, Any]) -> None:
    assert s.request
    me = s.current
    if action["type"] == "give":
        card = action.get("card")
        if not (isinstance(card, str) and card in s.hands[seat]):
            raise RuleError(f"你手中没有「{card}」。")
        require(card[0] not in "MA", "不可以将丐帮牌或杀手牌传给其他玩家。")
        require(
            card in givable(s.hands[seat], s.request),
            f"「{card}」不符合索取条件「{describe_request(s.request)}」(T6 可作百搭)。",
        )
        s.hands[seat].remove(card)
        s.hands[me].append(card)
        s.given.append(seat)
        s.received += 1
        emit(s, f"{s.players[seat]}:给。")
        emit(s, f"{s.players[seat]} 传给 {s.players[me]}:{card}。", to=[seat, me])
    else:
        emit(s, f"{s.players[seat]}:不给。")
    s.givers.pop(0)
    if s.givers:
        return
    if s.received == 0 and (s.deck or steal_targets(s, me)):
        s.phase = "consolation"
    else:
        to_submit(s)


def _do_consolation(s: State, seat: int, action: dict[str, Any]) -> None:
    source = action.get("source")
    target = check_consolation(s, seat, source)
    if source == FROM_DECK:
        card = _draw_one(s, seat)
        emit(s, f"{s.players[seat]} 没有索取到牌,从牌库拿 1 张。")
        emit(s, f"你拿到:{card}。", to=[seat])
    elif target is not None:
        taken = steal(s, target, seat, 1)
        emit(s, f"{s.players[seat]} 没有索取到牌,从 {s.players[target]} 手中随机抽取 1 张。")
        emit(s, f"{s.players[seat]} 抽走了:{taken[0]}。", to=[seat, target])
    to_submit(s)


def _do_submit(s: State, seat: int, action: dict[str, Any]) -> None:
    if action["type"] == "no_submit":  # the same public line whether the killer declined or nobody could
        emit(s, f"步骤3:{s.players[seat]} 没有提交线索。")
    else:
        cards = check_clue(cards_param(action), seat == s.killer)
        take_from(s.hands[seat], cards)
        s.clues[seat].append({"cards": cards, "public": False})
        s.submitted[seat] += 1
        emit(s, f"步骤3:{s.players[seat]} 提交了一组隐藏线索。")
        emit(s, f"你的隐藏线索:{' '.join(cards)}(由上到下)。", to=[seat])
    s.phase = "refill"


def _do_refill(s: State, seat: int, action: dict[str, Any]) -> None:
    sources = action.get("sources", [])
    check_refill(s, seat, sources)
    got = []
    for src in sources:
        if src == FROM_DECK:
            got.append(_draw_one(s, seat))
            continue
        got += steal(s, src, seat, 1)
        emit(s, f"你被 {s.players[seat]} 抽走:{got[-1]}。", to=[src])
    where = "、".join("牌库" if x == FROM_DECK else s.players[x] for x in sources) or "不补牌"
    emit(s, f"步骤4:{s.players[seat]} 补手牌({where})。")
    if got:
        emit(s, f"你补到:{'、'.join(got)}。", to=[seat])
    _end_turn(s)


ACTION_NAMES = {
    "check": "检查线索",
    "function": "线索功能",
    "give_back": "还牌",
    "request": "索取",
    "give": "给牌",
    "pass": "不给",
    "consolation": "补一张",
    "submit": "提交线索",
    "no_submit": "不提交线索",
    "refill": "补手牌",
    "answer": "写下解答",
}
_HANDLERS = {
    "check": _do_check,
    "function": _do_function,
    "give_back": _do_give_back,
    "request": _do_request,
    "give": _do_give,
    "pass": _do_give,
    "consolation": _do_consolation,
    "submit": _do_submit,
    "no_submit": _do_submit,
    "refill": _do_refill,
    "answer": do_answer,
}
legal = legal_via(apply)
