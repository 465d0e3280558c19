"""What every close ends with: losses taken, deaths (V5), order-change windows (O3), 默哀期 (T7), victory (V1–V4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cards.catalogue import CAMP_CIVILIAN, CAMP_KILLER, CAMP_SELF, CAMP_WEREWOLF, is_privilege
from moderator.game.state import Card, GameState, SeatState, evolve
from moderator.game.trace import Tracer

PRIVILEGE, COMMON = "特权", "庶民"


def card_type(card: Card) -> str:
    return PRIVILEGE if is_privilege(card.name) else COMMON


@dataclass
class Close:
    """The working record of one close (local to the close; the result is frozen into CloseResult)."""

    state: GameState
    lost: dict[str, dict[str, int]] = field(default_factory=dict)  # taken at this close, by type
    announced: int = 0  # O3: losses announced at this close
    events: list[dict[str, Any]] = field(default_factory=list)
    saved: list[str] = field(default_factory=list)
    executed: list[str] = field(default_factory=list)
    tally: dict[str, int] = field(default_factory=dict)
    died: list[str] = field(default_factory=list)
    window: bool = False
    silence: bool = False
    trace: Tracer | None = None  # why each step decided what it did (moderator/game/trace.py); None at the clock

    def take(self, name: str, card: Card, cause: str, announce: bool = True) -> None:
        """Remove a card from a hand and book it (A1: announced by type only; `cause` for A2's named causes)."""
        seat = self.state.seat(name)
        self.state = self.state.with_seat(evolve(seat, hand=tuple(c for c in seat.hand if c.uid != card.uid)))
        self.book(name, card, cause, announce)

    def book(self, name: str, card: Card, cause: str, announce: bool) -> None:
        kinds = self.lost.setdefault(name, {PRIVILEGE: 0, COMMON: 0})
        kinds[card_type(card)] += 1
        if announce:
            self.announced += 1
        if self.trace is not None:
            when = "现在公布" if announce else "暂不公布(可被特赦,D6)"
            left = "、".join(c.name for c in self.state.seat(name).hand) or "没有牌了"
            self.trace(
                "O4",
                f"丢牌:{name}丢掉{card.name}({card_type(card)}牌,原因:{cause}),{when};剩下:{left}",
                (name,),
            )
        self.events.append(
            {"type": "loss", "player": name, "card_type": card_type(card), "cause": cause, "announced": announce}
        )


def deaths(close: Close, day: bool, executed_last: set[str] | None = None) -> None:
    """V5: a player dies when their last card is announced gone; day deaths (and a death by yesterday's execution,
    announced at dawn) show the camp, night deaths do not."""
    state = close.state
    for seat in state.alive:
        if seat.hand or seat.name in state.pending_executions:
            continue
        state = state.with_seat(evolve(seat, alive=False))
        reveal = day or seat.name in (executed_last or set())
        if close.trace is not None:
            shown = (
                f"白天死亡,公布身份:{seat.camp}"
                if day
                else f"昨天被处决的牌到今夜结束才公布,仍算白天死亡,公布身份:{seat.camp}"
                if reveal
                else "夜里死亡,不公布身份"
            )
            close.trace("V5", f"死亡:{seat.name}的牌已全部丢光,死亡({shown})", (seat.name,))
        close.died.append(seat.name)
        close.events.append(
            {"type": "death", "player": seat.name, "camp": seat.camp if reveal else None, "day": reveal}
        )
    close.state = state


def windows(close: Close) -> None:
    """O3: when the losses announced first reach ⌊total/3⌋, then 2·⌊total/3⌋, every living player may send a new
    order during the next phase; one close passing both marks opens one window."""
    state = close.state
    total = state.lost_total + close.announced
    third = state.dealt_total // 3
    reached = sum(1 for mark in (third, 2 * third) if third and total >= mark)
    opened = reached > state.windows
    close.window = opened
    if close.trace is not None:
        said = f"开放第 {reached} 次改顺序窗口" if opened else "不开放改顺序窗口"
        close.trace(
            "O3",
            f"改顺序窗口:本次公布丢牌 {close.announced} 张,累计 {total} 张(共发 {state.dealt_total} 张,"
            f"1/3 线 {third} 张,2/3 线 {2 * third} 张,已开 {state.windows} 次)→ {said}",
        )
    close.state = evolve(state, lost_total=total, windows=max(reached, state.windows), orders_open=opened)
    if opened:
        close.events.append({"type": "window", "mark": reached})


def silence(close: Close) -> None:
    """T7 ruling: the 默哀期 is announced once, at the first close that leaves 3 or 2 players alive (one close may take
    the table from four or more straight to two); the post says how many are left. Not when one is left."""
    state = close.state
    left = len(state.alive)
    if close.trace is not None:
        if state.silence:
            said = "默哀期已宣布过"
        elif 2 <= left <= 3:
            said = "宣布默哀期"
        else:
            said = "不宣布默哀期(剩 2 或 3 人时才宣布)"
        close.trace("T7", f"默哀期:活着 {left} 人 → {said}")
    if not state.silence and 2 <= left <= 3:
        close.silence = True
        close.state = evolve(state, silence=True)
        close.events.append({"type": "silence", "alive": left})


def team(seat: SeatState) -> str:
    """V1–V3: killer camp, werewolf camp, civilians, or the self-chosen on their own (独赢 or independent)."""
    if seat.camp == CAMP_SELF:
        return seat.side if seat.mode == "共赢" and seat.side else CAMP_SELF
    return seat.camp


def winning_camp(state: GameState) -> str | None:
    """The camp that has won (or 平局), None while the game goes on: V4 first (everyone dead: a draw), then V1, V2, V3."""
    alive = state.alive
    if not alive:
        return "平局"
    teams = {team(s) for s in alive}
    if teams in ({CAMP_CIVILIAN}, {CAMP_KILLER}, {CAMP_WEREWOLF}):
        return teams.pop()
    if teams == {CAMP_SELF} and len(alive) == 1:
        return CAMP_SELF
    return None


def winners(state: GameState) -> list[dict[str, Any]]:
    """V1–V3: every player who wins with the declared winner, alive or dead, in seat order. V2 ruling: a 共赢
    self-chosen belongs to the camp, so a camp's win is theirs too (`co_win`), whoever of the two survived. A draw
    (V4) has no winner; a 自选 win is the lone survivor's."""
    won = state.winner
    if won is None or won == "平局":
        return []
    if won == CAMP_SELF:
        return [{"name": s.name, "co_win": False} for s in state.seats if s.alive and team(s) == CAMP_SELF]
    return [{"name": s.name, "co_win": s.camp == CAMP_SELF} for s in state.seats if team(s) == won]


VICTORY_CLAUSE = {"平局": "V4", CAMP_CIVILIAN: "V1", CAMP_KILLER: "V2", CAMP_WEREWOLF: "V2", CAMP_SELF: "V3"}


def victory(close: Close) -> None:
    if close.state.winner is None:
        won = winning_camp(close.state)
        if close.trace is not None:
            alive = close.state.alive
            teams = "、".join(f"{s.name}({team(s)})" for s in alive) or "无人"
            said = {None: "胜负未分,游戏继续", "平局": "平局(V4)", CAMP_SELF: "自选立场者获胜"}.get(
                won
            ) or f"{won}阵营获胜"
            close.trace(VICTORY_CLAUSE.get(won or "", "V1–V4"), f"胜负:活着的是 {teams} → {said}")
        if won:
            close.state = evolve(close.state, winner=won)
            close.events.append({"type": "victory", "winner": won, "winners": winners(close.state)})


def complete_transformations(state: GameState, trace: Tracer | None = None) -> GameState:
    """M1: a transformation ordered last night (or the day before yesterday) is done at the end of this phase."""
    for seat in state.seats:
        done = {
            uid: evolve(a, form=a.pending, spent=0, pending=None, done_at=None)
            for uid, a in seat.amoebas.items()
            if a.pending and a.done_at == state.phase
        }
        if done:
            state = state.with_seat(evolve(seat, amoebas={**seat.amoebas, **done}))
            if trace is not None:
                held = {c.uid for c in seat.hand}
                for uid, a in done.items():
                    if uid in held:
                        trace("M1", f"变形:{seat.name}的阿米巴变形完成,现在是{a.form}", (seat.name,))
                    else:  # the card was lost before the end of the transformation: nothing works as the new form
                        said = f"变形:{seat.name}变为{a.form}的阿米巴在变形完成之前已经丢掉,没有变形"
                        trace("M1", said, (seat.name,))
    return state
