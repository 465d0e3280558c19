"""The engine's four transitions: new_game, submit, close_phase, open_phase."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cards import orders
from cards.catalogue import AMOEBA, CAMP_SELF, is_privilege
from moderator.rules.ledger import charge, night_grant_and_upkeep
from moderator.rules.settle import Close
from moderator.rules.state import (
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
    Seat,
    SeatSpec,
    Verdict,
    Vote,
    evolve,
    next_phase,
)
from moderator.rules.validate import ATTACKS, join_manifestos, submit_action, submit_pass, submit_vote
from nights import arson, resolve
from votes import count


def new_game(
    seats: Sequence[SeatSpec],
    *,
    ap: Mapping[str, int] | None = None,
    start: tuple[str, int] = (NIGHT, 1),
    phase_minutes: int = PHASE_MINUTES,
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
            Seat(spec.name, spec.camp, tuple(hand), frozenset(c for c in dealt if is_privilege(c)), amoebas=amoebas)
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
        next_uid=uid,
    )
    for name, points in (ap or {}).items():
        state = charge(state, name, points, "开局带入的行动点数")
    return open_phase(state)[0]


def submit(state: GameState, inp: Action | Vote | Order | Pass) -> tuple[GameState, Verdict]:
    """Validate one input at the moment it was sent and record it, or refuse it with the reason."""
    if isinstance(inp, Pass):
        return submit_pass(state, inp)
    if isinstance(inp, Vote):
        return submit_vote(state, inp)
    if isinstance(inp, Order):
        return orders.submit_order(state, inp)
    return submit_action(state, inp)


def submit_message(state: GameState, inputs: Sequence[Action | Vote | Order]) -> tuple[GameState, list[Verdict]]:
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


def close_phase(state: GameState) -> tuple[GameState, CloseResult]:
    """Resolve the open phase; the next phase is not open yet (open_phase starts it)."""
    if not state.phase_open:
        raise ValueError("no open phase to close")
    work: Close = resolve.close_night(state) if state.phase_kind == NIGHT else count.close_day(state)
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


def open_phase(state: GameState) -> tuple[GameState, list[dict]]:
    """Start the phase: at night the AP grant and 保镖 upkeep (AP1, AP3 a), then the arsons due (AP3 b, c)."""
    if state.phase_open:
        raise ValueError("the phase is already open")
    if state.phase_kind == NIGHT:
        state = night_grant_and_upkeep(state)
    state, events = arson.apply_due(state)
    return evolve(state, phase_open=True), events


__all__ = ["DAY", "close_phase", "new_game", "open_phase", "submit", "submit_message"]
