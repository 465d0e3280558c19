"""The engine's four transitions: start_game, submit, end_phase, open_phase."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cards.catalogue import AMOEBA, CAMP_SELF, is_privilege
from moderator.game import orders, trace
from moderator.game.ledger import charge, night_grant_and_upkeep
from moderator.game.settle import Close
from moderator.game.state import (
    DAY,
    NIGHT,
    PHASE_MINUTES,
    Action,
    Amoeba,
    Card,
    CloseResult,
    GameState,
    Order,
    Pass,
    SeatSpec,
    SeatState,
    Verdict,
    Vote,
    evolve,
    next_phase,
)
from moderator.game.validate import ATTACKS, join_manifestos, submit_action, submit_pass, submit_vote
from nights import arson, resolve
from votes import count


def start_game(
    seats: Sequence[SeatSpec],
    *,
    ap: Mapping[str, int] | None = None,
    start: tuple[str, int] = (NIGHT, 1),
    phase_minutes: int = PHASE_MINUTES,
    tracer: trace.Tracer | None = None,
) -> GameState:
    """The table as dealt, hands in discard order, and its first phase opened (T1). A game that starts later than
    night 1 (a scenario's `start`) begins as if the earlier phases had passed with nothing happening — so with 3 or
    fewer players an earlier close already left 3 or fewer alive: the 默哀期 counts as announced (T7 ruling)."""
    built, uid = [], 0
    for spec in seats:
        hand = []
        for name in spec.hand:
            hand.append(Card(uid, name))
            uid += 1
        dealt = spec.dealt if spec.dealt is not None else spec.hand
        amoebas = {c.uid: Amoeba() for c in hand if c.name == AMOEBA}
        built.append(
            SeatState(
                spec.name, spec.camp, tuple(hand), frozenset(c for c in dealt if is_privilege(c)), amoebas=amoebas
            )
        )
    fresh = start == (NIGHT, 1)
    state = GameState(
        seats=tuple(built),
        phase_kind=start[0],
        phase_no=start[1],
        phase_open=False,
        phase_minutes=phase_minutes,
        dealt_total=sum(len(s.hand) for s in seats),
        orders_open=fresh,
        bottoms_fixed=not fresh,
        silence=not fresh and len(built) <= 3,
    )
    for name, points in (ap or {}).items():
        state = charge(state, name, points, "开局带入的行动点数")
    return open_phase(state, tracer)[0]


def submit(state: GameState, inp: Action | Vote | Order | Pass) -> tuple[GameState, Verdict]:
    """Validate one input at the moment it was sent and record it, or refuse it with the reason."""
    if isinstance(inp, Pass):
        return submit_pass(state, inp)
    if isinstance(inp, Vote):
        return submit_vote(state, inp)
    if isinstance(inp, Order):
        return orders.submit_order(state, inp)
    return submit_action(state, inp)


def submit_message(state: GameState, inputs: Sequence[Action | Vote | Order | Pass]) -> tuple[GameState, list[Verdict]]:
    """The inputs of one message (one PM), in the order written. N-kill ruling: one message, one count — its attacks
    are judged together with every 杀人宣言 it carries, wherever in the message the 宣言 stands: the message's
    manifestos ride with its first attack until one is accepted, so the count never misses or doubles them."""
    pool = "\n".join(i.manifesto for i in inputs if isinstance(i, Action) and _new_attack(i) and i.manifesto)
    verdicts: list[Verdict] = []
    for inp in inputs:
        attack = isinstance(inp, Action) and _new_attack(inp)
        if isinstance(inp, Action) and attack:
            inp = evolve(inp, manifesto=pool or None)
        state, verdict = submit(state, inp)
        if attack and verdict.accepted:
            pool = ""
        verdicts.append(verdict)
    if pool and any(v.accepted for v in verdicts):
        # N-kill ruling: a message with an accepted row is not refused, so its 宣言 counts whole even though none of
        # its attacks was accepted; a refused message's 宣言 counts for nothing (it is simply not kept)
        by = inputs[0].by
        bank = state.manifesto_bank
        state = evolve(state, manifesto_bank={**bank, by: join_manifestos(bank.get(by), pool) or ""})
    return state, verdicts


def _new_attack(act: Action) -> bool:
    return act.use in ATTACKS and not act.change


def end_phase(state: GameState, tracer: trace.Tracer | None = None) -> tuple[GameState, CloseResult]:
    """Resolve the open phase; the next phase is not open yet (open_phase starts it). `tracer`: told every step's
    clause and sentence (moderator/game/trace.py); the clock's close passes none."""
    if not state.phase_open:
        raise ValueError("no open phase to close")
    if state.phase_kind == NIGHT:
        work: Close = resolve.close_night(state, tracer)
    else:
        work = count.close_day(state, tracer)
    if state.phase == (NIGHT, 1):
        work.events.extend(_co_win_notice(work.state))
    result = CloseResult(
        phase=state.phase,
        lost=work.lost,
        saved=tuple(work.saved),
        executed=tuple(work.executed),
        tally=dict(work.tally),
        died=tuple(work.died),
        window=work.window,
        silence=work.silence,
        winner=work.state.winner,
        events=tuple(work.events),
    )
    kind, number = next_phase(*state.phase)
    closed = evolve(
        work.state,
        seats=tuple(evolve(s, actions=()) for s in work.state.seats),
        action_seq=0,
        phase_kind=kind,
        phase_no=number,
        phase_open=False,
        votes={},
        vote_changed=frozenset(),
        passed=frozenset(),
        manifesto_bank={},
        last=result,
    )
    return closed, result


def _co_win_notice(state: GameState) -> list[dict]:
    """S4: on 共赢 the partner is told privately; with no choice by the end of night 1 the player is independent."""
    events = []
    for seat in state.seats:
        if seat.camp != CAMP_SELF:
            continue
        if seat.mode == "共赢":
            partner = next((s.name for s in state.seats if s.camp == seat.side), None)
            events.append({"type": "co_win", "player": seat.name, "partner": partner, "side": seat.side})
        elif seat.mode is None:
            events.append({"type": "independent", "player": seat.name})
    return events


def open_phase(state: GameState, tracer: trace.Tracer | None = None) -> tuple[GameState, list[dict]]:
    """Start the phase: at night the AP grant and 保镖 upkeep (AP1, AP3 a), then the arsons due (AP3 b, c).
    `tracer`: told every AP row the opening wrote and every arson's outcome."""
    if state.phase_open:
        raise ValueError("the phase is already open")
    before = state
    if state.phase_kind == NIGHT:
        state = night_grant_and_upkeep(state)
    state, events = arson.apply_due(state)
    if tracer is not None:
        _trace_open(before, state, events, tracer)
    return evolve(state, phase_open=True), events


AP_CLAUSE = {"保镖维持": "AP3", "纵火消耗": "N14", "被纵火": "N14"}
ARSON_FAILED = {"dead": "纵火者已经死亡,纵火取消", "ap": "纵火者的空闲点数不足 2 点,纵火失败,谁也不扣", "prison": ""}


def _trace_open(before: GameState, after: GameState, events: list[dict], tracer: trace.Tracer) -> None:
    """AP1, AP3, N14: each AP row written at the start of the phase, with the balance it left; each arson due."""
    rows = [row for old, new in zip(before.seats, after.seats, strict=True) for row in new.ledger[len(old.ledger) :]]
    arson_rows = [r for r in rows if "纵火" in r.reason]  # AP3: every arsonist's cost (b) before any victim's (c)
    arson_rows.sort(key=lambda r: r.reason.startswith("被纵火"))
    for row in [r for r in rows if "纵火" not in r.reason] + arson_rows:
        clause = next((c for k, c in AP_CLAUSE.items() if row.reason.startswith(k)), "AP1")
        sign = "获得" if row.delta > 0 else "扣除"
        tracer(clause, f"行动点数:{row.seat}{sign} {abs(row.delta)} 点({row.reason}),余 {row.balance} 点", (row.seat,))
    for name, pending in after.pending_executions.items():
        if after.phase[0] == NIGHT:
            tracer(
                "AP2",
                f"行动点数:{name}昨天被处决丢掉的{pending.card.name}等到天亮才公布;今夜它不产生行动点数,也不能使用"
                "(即使被特赦)",
                (name,),
            )
    for e in events:
        if e["type"] == "arson":
            tracer("N14", f"纵火:{e['by']}对{e['target']}的纵火生效,{e['target']}的点数减半", (e["by"], e["target"]))
        elif e["why"] == "prison":
            tracer(
                "N14",
                f"纵火:{e['by']}发出纵火的那夜被禁锢:他照样被扣点数,{e['target']}不受影响",
                (e["by"], e["target"]),
            )
        else:
            tracer("N14", f"纵火:{e['by']}对{e['target']}的{ARSON_FAILED[e['why']]}", (e["by"], e["target"]))


__all__ = ["DAY", "end_phase", "open_phase", "start_game", "submit", "submit_message"]
