"""A whole-game simulator that hunts rule bugs: `python -m bench.simulate --games N --seed S [--out var/simulate/]`.

It plays N random full games through the pure engine (no Django): 4–9 players, hands dealt per S3 or arbitrary, and
every kind of input — privileges of every card, votes, vote changes and edited votes (D3), target changes (T3),
orders (O1–O3), pardons (N12), arson (N14), the amoeba (M1–M4), substitutions (T4: the phase is 12 h longer), early
ends (T5: the announced length stays the reference) and corrections (an input voided, then the phase or the whole
game replayed). After every phase it checks the invariants below; each violation is shrunk to a small scenario file
(docs/scenarios.md) that `manage.py scenario` — and `python -m bench.simulate --replay FILE` — reproduces.
Game i of a run uses the seed S + i, so `--seed S+i --games 1` replays it alone.

Invariants: AP6 (a balance is the sum of its ledger, never negative); cards are conserved (held + lost − pardoned =
dealt) and the 底牌 stays last (O2); the dead hold nothing, are in no tally, are never executed and none of their
inputs — nor any input naming them — is accepted (D4, V5); two replays give the same states, and so does a replay
that continues from a stored snapshot when moderator.rules.codec exists; the 默哀期 comes once, at the first close
leaving 3 or 2 alive (T7); a winner is declared exactly when V1–V4 say so, and no input is accepted after it.
The rulings: the winners are the whole camp, a 共赢 self-chosen included, alive or dead (V2); no 变形 is
accepted while another of the same card is pending (M2); no pardon is accepted that cannot succeed when sent, and a
refused input costs nothing (N12, AP4); a player whose last card is pending execution is alive at the next night's
opening, gets its 2 AP and his due arson is not cancelled as a dead man's (N14, D6); a 圣人 voter loses a card to the
圣人 exactly when he still holds one after his own execution card, and one executed with his last card stays alive
until dawn (D8, N14). N-kill: at each night's close every attacker's accepted attacks are covered by 100 characters each
of the 杀人宣言 his messages that night carried — a message counts whole when any of its rows was accepted, nothing when
all were refused, and an accepted target change adds its own (counted here from the messages, not from the engine).
Some games start later than night 1 with two to four players (a scenario's `start`, T7).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from cards.catalogue import (
    AMOEBA,
    AMOEBA_FORMS,
    CAMP_CIVILIAN,
    CAMP_KILLER,
    CAMP_SELF,
    CAMP_WEREWOLF,
    CARD_NAMES,
    COMMONER,
    is_privilege,
    privileges_of,
    standard_deck,
)
from cards.dealing import deal
from moderator.game.settle import COMMON, PRIVILEGE, winners
from moderator.game.state import DAY, NIGHT, PHASE_MINUTES, Action, CloseResult, GameState, Order, SeatSpec, Vote
from moderator.game.validate import ATTACKS, MANIFESTO_CHARS, manifesto_length
from moderator.rules.engine import end_phase, open_phase, start_game, submit_message

NAMES = ("甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬")
EXTENSION = 12 * 60  # T4
MAX_PHASES = 40
CLAUSES = {  # what each invariant pins, for the `rules:` line of a shrunk scenario
    "ap": ("AP6", "AP3", "AP4"),
    "cards": ("O4", "D6", "N12"),
    "bottom": ("O2", "B3", "N12"),
    "dead_holds": ("V5",),
    "dead_in_tally": ("D4",),
    "dead_executed": ("D4", "D5"),
    "dead_input": ("D4", "V5"),
    "after_winner": ("V1", "V2", "V3", "V4"),
    "silence": ("T7",),
    "winner": ("V1", "V2", "V3", "V4"),
    "determinism": ("T1",),
    "snapshot": ("T1",),
    "co_win": ("V2", "S4"),
    "transform": ("M2",),
    "pardon": ("N12", "N14"),
    "refused_cost": ("AP4", "M2", "N12", "N-kill"),
    "pending_alive": ("N14", "D6", "AP1", "AP2"),
    "saint_voter": ("D8", "N14", "D7"),
    "manifesto": ("N-kill", "T3"),
}
MANIFESTOS = ("", "夜" * 50, "杀" * 100, "宣" * 150, "月黑风高" * 52)
Input = Action | Vote | Order


@dataclass
class PhaseLog:
    """One phase as the 天神 entered it: its messages (PMs, posts), an early end, a substitution."""

    kind: str
    number: int
    messages: list[tuple[Input, ...]] = field(default_factory=list)
    early: int | None = None  # T5: minutes since the phase began
    extended: bool = False  # T4: a substitution made it 12 h longer

    @property
    def length(self) -> int:
        return PHASE_MINUTES + (EXTENSION if self.extended else 0)


@dataclass(frozen=True)
class Violation:
    kind: str
    phase: int  # index in the game's phase log
    detail: str
    expect: tuple[tuple[str, Any], ...] = ()  # what the rules say instead, as scenario `expect` entries
    refuse: tuple[int, int] | None = None  # (message, input) that must be refused


# --- the invariants ------------------------------------------------------------------------------------------------


def winner_by_the_rules(state: GameState) -> str | None:
    """V1–V4 read afresh (not the engine's code): draw when all are dead; a camp when everyone alive belongs to it
    (a 共赢 self-chosen belongs to their side); a lone 独赢 or independent self-chosen."""
    alive = [s for s in state.seats if s.alive]
    if not alive:
        return "平局"
    camps = {s.side if s.camp == CAMP_SELF and s.mode == "共赢" else s.camp for s in alive}
    if len(camps) == 1 and (camp := camps.pop()) != CAMP_SELF:
        return camp
    if len(alive) == 1:
        return CAMP_SELF
    return None


class Checker:
    """The game-long bookkeeping the invariants need, independent of the engine's own counters."""

    def __init__(self, state: GameState) -> None:
        self.dealt = {s.name: len(s.hand) for s in state.seats}
        self.uids = {s.name: {c.uid for c in s.hand} for s in state.seats}
        self.net_lost = dict.fromkeys(self.dealt, 0)
        self.bottoms: dict[str, int] = {}
        self.silences = int(state.silence)  # T7: a game started late with 3 or fewer counts it as announced
        self.manifestos: dict[str, int] = {}  # N-kill: characters each sender's messages carried tonight
        self.found: list[Violation] = []

    def flag(self, kind: str, phase: int, detail: str, **kw: Any) -> None:
        self.found.append(Violation(kind, phase, detail, **kw))

    def ledger(self, state: GameState, phase: int) -> None:
        for s in state.seats:
            total = sum(row.delta for row in s.ledger)
            if s.ap != total or s.ap < 0:
                want = {s.name: max(total, 0)}
                self.flag("ap", phase, f"{s.name}: AP {s.ap}, ledger sum {total}", expect=(("ap", want),))

    def message(self, before: GameState, after: GameState, msg: tuple[Input, ...], verdicts, phase: int, m: int):
        if any(v.accepted for v in verdicts):  # N-kill: a message with an accepted row counts whole
            new = [i for i in msg if isinstance(i, Action) and i.use in ATTACKS and not i.change]
            moved = [i for i, v in zip(msg, verdicts, strict=True) if v.accepted and isinstance(i, Action) and i.change]
            chars = sum(manifesto_length(i.manifesto) for i in (*new, *moved))
            self.manifestos[msg[0].by] = self.manifestos.get(msg[0].by, 0) + chars
        for i, (inp, verdict) in enumerate(zip(msg, verdicts, strict=True)):
            if not verdict.accepted:
                continue
            named = [getattr(inp, k, None) for k in ("target", "change")]
            dead = [n for n in named if n and before.has(n) and not before.seat(n).alive]
            if not before.seat(inp.by).alive or dead or before.winner:
                why = "after the winner" if before.winner else f"dead: {inp.by if not dead else dead[0]}"
                self.flag("dead_input" if not before.winner else "after_winner", phase, why, refuse=(m, i))
        self._rulings(before, after, msg, verdicts, phase, m)
        self.ledger(after, phase)

    def _rulings(self, before: GameState, after: GameState, msg: tuple[Input, ...], verdicts, phase: int, m: int):
        """M2, N12: no second 变形 of a card while one is pending; no pardon that cannot succeed; what a
        message costs its sender is exactly what its accepted inputs cost (a refused input costs nothing)."""
        if not before.has(msg[0].by):
            return
        seat = before.seat(msg[0].by)
        transforming = False
        for i, (inp, verdict) in enumerate(zip(msg, verdicts, strict=True)):
            if not verdict.accepted or not isinstance(inp, Action):
                continue
            if inp.use == "变形" and not inp.change:
                uid = next((c.uid for c in seat.hand if c.name == AMOEBA), None)
                pending = seat.amoebas.get(uid) if uid is not None else None
                if transforming or (pending and pending.pending):
                    self.flag("transform", phase, f"{inp.by}: 变形 accepted while another is pending", refuse=(m, i))
                transforming = True
            if inp.use == "特赦" and inp.target and before.has(inp.target):
                target = before.seat(inp.target)
                hopeless = (
                    inp.target not in before.pending_executions
                    or target.pardoned_once
                    or inp.target in before.unpardonable
                )
                if hopeless:
                    self.flag("pardon", phase, f"{inp.by}: a pardon of {inp.target} that cannot succeed", refuse=(m, i))
        spent = seat.ap - after.seat(seat.name).ap
        cost = sum(v.cost for v in verdicts if v.accepted)
        if spent != cost:
            self.flag("refused_cost", phase, f"{seat.name}: the message cost {spent} AP, its accepted inputs {cost}")

    def opened(self, pre: GameState, state: GameState, events: list[dict], phase: int) -> None:
        """N14/D6 ruling: a player whose last card is pending loss by yesterday's execution is alive until the dawn
        announcement — at the night's opening he is alive, gets the 2-AP grant (the pending card produces nothing,
        AP2) and an arson of his due now is not cancelled as a dead man's."""
        self.ledger(state, phase)
        if state.phase_kind != NIGHT:
            return
        for name in state.pending_executions:
            seat = state.seat(name)
            rows = [r for r in seat.ledger[len(pre.seat(name).ledger) :]]
            grant = sum(r.delta for r in rows if r.reason.startswith("每夜基本行动点数"))
            bonus = sum(r.delta for r in rows if r.reason.startswith("庶民"))
            if not seat.alive or grant != 2 or bonus != seat.names.count(COMMONER):
                self.flag("pending_alive", phase, f"{name}: pending execution, alive {seat.alive}, grant {grant}")
        for e in events:
            if e["type"] == "arson_failed" and e.get("why") == "dead" and e["by"] in state.pending_executions:
                self.flag("pending_alive", phase, f"{e['by']}'s arson cancelled although he is alive until dawn")

    def close(self, pre: GameState, state: GameState, result: CloseResult, phase: int) -> None:
        self.ledger(state, phase)
        for seat in pre.seats:  # N-kill: the night's accepted attacks against what the sender's messages carried
            attacks = sum(a.use in ATTACKS for a in seat.actions)
            carried = self.manifestos.get(seat.name, 0)
            if carried < MANIFESTO_CHARS * attacks:
                self.flag("manifesto", phase, f"{seat.name}: {attacks} attacks accepted on {carried} characters")
        self.manifestos = {}
        self._cards(state, result, phase)
        living_before = {s.name for s in pre.seats if s.alive}
        dead_in = sorted(set(result.tally) - living_before)
        if dead_in:
            tally = {n: t for n, t in result.tally.items() if n in living_before}
            self.flag("dead_in_tally", phase, f"tally names {dead_in}", expect=(("tally", tally),))
        dead_ex = sorted(set(result.executed) - living_before)
        if dead_ex:
            kept = [n for n in result.executed if n in living_before]
            self.flag("dead_executed", phase, f"executed {dead_ex}", expect=(("executed", kept),))
        alive = sum(s.alive for s in state.seats)
        due = self.silences == 0 and 2 <= alive <= 3
        self.silences += result.silence
        if result.silence != due:
            self.flag("silence", phase, f"silence {result.silence} with {alive} alive", expect=(("silence", due),))
        won = winner_by_the_rules(state)
        if result.winner != won:
            self.flag("winner", phase, f"winner {result.winner}, V1–V4 say {won}", expect=(("winner", won),))
        if result.winner:
            self._winners(state, result, phase)
        if pre.phase_kind == DAY:
            self._saint_voters(pre, state, result, phase)

    def _winners(self, state: GameState, result: CloseResult, phase: int) -> None:
        """V2 ruling: a camp's win is every player of the camp, its 共赢 self-chosen included, alive or dead; a lone
        self-chosen wins alone; a draw has no winner. Read afresh, then compared with the victory the close announced
        (and with moderator.game.settle.winners, which the pages and the final posts use)."""
        won = result.winner
        if won == "平局":
            want: list[str] = []
        elif won == CAMP_SELF:
            want = [s.name for s in state.seats if s.alive]
        else:
            want = [s.name for s in state.seats if s.camp == won or (s.side == won and s.mode == "共赢")]
        event = next((e for e in result.events if e["type"] == "victory"), {})
        told = [w["name"] for w in event.get("winners", [])]
        if told != want or [w["name"] for w in winners(state)] != want:
            self.flag("co_win", phase, f"winners {told}, V2 says {want}")

    def _saint_voters(self, pre: GameState, state: GameState, result: CloseResult, phase: int) -> None:
        """D8 × N14 ruling: a voter for an executed 圣人 loses one card to it when he still holds one after his own
        execution card, none otherwise; executed with his last card, he is alive until dawn (the card is pending)."""
        tally = next((e for e in result.events if e["type"] == "tally"), {})
        ballots = tally.get("ballots", {})
        for saint in (e["player"] for e in result.events if e["type"] == "saint"):
            for voter, (target, _) in ballots.items():
                if target != saint or voter == saint:
                    continue
                held = len(pre.seat(voter).hand)
                left = held - (voter in result.executed and held > 0)
                taken = sum(
                    1 for e in result.events if e["type"] == "loss" and e["player"] == voter and e["cause"] == "圣人"
                )
                if taken != (left > 0):
                    self.flag("saint_voter", phase, f"{voter} held {left} after his execution, lost {taken} to 圣人")
                pardonable = voter not in state.unpardonable and not pre.seat(voter).pardoned_once
                if voter in result.executed and held == 1 and pardonable:
                    if not state.seat(voter).alive or voter not in state.pending_executions:
                        self.flag("saint_voter", phase, f"{voter}'s last card went to his execution: alive till dawn")

    def _cards(self, state: GameState, result: CloseResult, phase: int) -> None:
        pardoned = {e["player"] for e in result.events if e["type"] == "pardon"}
        for s in state.seats:
            self.net_lost[s.name] += sum(result.lost.get(s.name, {}).values()) - (s.name in pardoned)
            pending = state.pending_executions.get(s.name)
            uids = [c.uid for c in s.hand] + ([pending.card.uid] if pending else [])
            want = self.dealt[s.name] - self.net_lost[s.name]
            if len(s.hand) != want or len(set(uids)) != len(uids) or not set(uids) <= self.uids[s.name]:
                self.flag(
                    "cards", phase, f"{s.name} holds {len(s.hand)}, dealt − lost = {want}", expect=_cards(s, want)
                )
            if not s.alive and (s.hand or pending):
                self.flag("dead_holds", phase, f"{s.name} is dead and holds cards", expect=_cards(s, 0))
            if state.bottoms_fixed and s.hand and s.name not in self.bottoms:
                self.bottoms[s.name] = s.hand[-1].uid
            bottom = self.bottoms.get(s.name)
            if bottom in {c.uid for c in s.hand[:-1]}:
                self.flag("bottom", phase, f"{s.name}'s 底牌 is no longer last")


def _cards(seat, n: int) -> tuple[tuple[str, Any], ...]:
    return (("cards", {seat.name: n}),)


# --- playing a logged game -----------------------------------------------------------------------------------------


def snapshot_codec() -> tuple[Any, Any]:
    """The pure state codec (moderator.rules.codec: GameState ↔ JSON), as the stored snapshots use it."""
    from moderator.rules import codec

    return codec.state_dump, codec.state_load


def in_forum_order(messages: list[tuple[Input, ...]]) -> list[tuple[int, tuple[Input, ...]]]:
    """(index in the log, message), by forum time; equal times in the order entered."""
    return sorted(enumerate(messages), key=lambda pair: pair[1][0].at)


def play_phase(state: GameState, log: PhaseLog, index: int, check: Checker | None):
    """One phase from its opening state: every message in forum order, then the close (T5: an early end closes it
    with the announced length unchanged)."""
    state = replace(state, phase_minutes=log.length)
    for m, msg in in_forum_order(log.messages):
        before = state
        state, verdicts = submit_message(state, list(msg))
        if check:
            check.message(before, state, msg, verdicts, index, m)
    pre = state
    state, result = end_phase(state)
    if check:
        check.close(pre, state, result, index)
    return state, result


@dataclass
class Played:
    closed: list[GameState]
    results: list[CloseResult]
    check: Checker


def replay(
    specs: list[SeatSpec], logs: list[PhaseLog], snapshots: bool = False, start: tuple[str, int] = (NIGHT, 1)
) -> Played:
    """The whole game from the table; with `snapshots`, every closed state goes through the codec and the game goes
    on from the decoded copy, which must equal the original."""
    state = start_game(specs, start=start)
    played = Played([], [], Checker(state))
    codec = snapshot_codec() if snapshots else None
    for i, log in enumerate(logs):
        if i:
            pre = state
            state, events = open_phase(state)
            played.check.opened(pre, state, events, i)
        state, result = play_phase(state, log, i, played.check)
        if codec:
            copy = codec[1](codec[0](state))
            if copy != state:
                played.check.flag("snapshot", i, "a decoded snapshot differs from the state")
            state = copy
        played.closed.append(state)
        played.results.append(result)
        if result.winner:
            break
    return played


def after_the_winner(state: GameState, rng: random.Random, check: Checker, index: int) -> None:
    """V1–V4: once a winner is declared no input is accepted, even if someone opens another phase."""
    state = open_phase(state)[0]
    tries: list[Input] = [*_votes(rng, state)]
    for seat in state.seats:
        tries += _privileges(rng, state, seat, PHASE_MINUTES)
    for inp in tries:
        _, verdicts = submit_message(state, [inp])
        if verdicts[0].accepted:
            check.flag("after_winner", index, f"{inp.by}'s {type(inp).__name__} accepted after {state.winner} won")
            return


# --- random inputs -------------------------------------------------------------------------------------------------


def _time(rng: random.Random, length: int) -> int:
    """Forum minutes, often at the cutoffs of T3 (10 min) and D3 (1 h), measured from the announced end."""
    pick = rng.random()
    if pick < 0.15:
        at = length - 60 + rng.randint(-1, 1)
    elif pick < 0.3:
        at = length - 10 + rng.randint(-1, 1)
    else:
        at = rng.randint(0, length)
    return max(0, min(at, length))


def _someone(rng: random.Random, state: GameState, living: float = 0.92) -> str:
    alive = [s.name for s in state.seats if s.alive]
    return rng.choice(alive) if alive and rng.random() < living else rng.choice([s.name for s in state.seats])


def _privileges(rng: random.Random, state: GameState, seat, length: int) -> list[Action]:
    night = state.phase_kind == NIGHT
    out: list[Action] = []
    for _ in range(rng.choice((0, 1, 1, 2, 3))):
        if not seat.hand:
            break
        card = rng.choice(seat.hand)
        amoeba = seat.amoebas.get(card.uid)
        form = amoeba.form if amoeba and amoeba.form else card.name
        uses = [p for p in privileges_of(form) if (p.night if night else p.day)]
        uses += [p for p in privileges_of(AMOEBA) if card.name == AMOEBA and form != AMOEBA]
        if not uses:
            continue
        p = rng.choice(uses)
        target = _someone(rng, state) if p.target else None
        if p.use == "特赦" and state.pending_executions and rng.random() < 0.8:
            target = rng.choice(sorted(state.pending_executions))
        position = rng.choice((1, 2, 3, -2, -1)) if p.use == "瞄准狙击" else None
        into = rng.choice(AMOEBA_FORMS) if p.use == "变形" else None
        manifesto = rng.choice(MANIFESTOS[1:] * 3 + MANIFESTOS[:1]) if p.attack else None
        act = Action(seat.name, p.use, card.name, target, position, into, None, None, manifesto, _time(rng, length))
        out.append(act)
        if p.target and rng.random() < 0.15:  # T3: a target change, maybe past the cutoff
            extra = rng.choice(MANIFESTOS) if p.attack and rng.random() < 0.3 else None  # N-kill: a change adds its own
            change = replace(act, target=_someone(rng, state), at=_time(rng, length), change=True, manifesto=extra)
            out.append(change)
    return out


def _votes(rng: random.Random, state: GameState, length: int = PHASE_MINUTES) -> list[Vote]:
    out: list[Vote] = []
    for seat in state.seats:
        if rng.random() > (0.85 if seat.alive else 0.1):
            continue
        at = rng.randint(0, length // 2)
        out.append(Vote(seat.name, _someone(rng, state), None, at, edited=rng.random() < 0.08))
        if rng.random() < 0.3:  # D3: one change, until 1 h before the announced end
            out.append(Vote(seat.name, None, _someone(rng, state), max(at, _time(rng, length))))
    return out


def _orders(rng: random.Random, state: GameState, length: int) -> list[Order]:
    out: list[Order] = []
    for seat in state.seats:
        if not seat.hand or rng.random() > (0.5 if state.orders_open else 0.03):
            continue
        names = list(seat.names)
        rng.shuffle(names)
        keep = state.bottoms_fixed or rng.random() < 0.5
        bottom = seat.names[-1] if keep else next((n for n in names if is_privilege(n)), names[-1])
        names.remove(bottom)
        order = [*names, bottom]
        if rng.random() < 0.1:
            order = order[1:] or [COMMONER]  # a card missing: refused with the reason
        out.append(Order(seat.name, tuple(order), _time(rng, length)))
    return out


def _stances(rng: random.Random, state: GameState) -> list[Action]:
    if state.phase != (NIGHT, 1):
        return []
    return [
        Action(
            s.name, "立场", side=rng.choice(("杀手", "狼人")), mode=rng.choice(("共赢", "独赢")), at=rng.randint(0, 600)
        )
        for s in state.seats
        if s.camp == CAMP_SELF and rng.random() < 0.7
    ]


def _messages(rng: random.Random, inputs: list[Input]) -> list[tuple[Input, ...]]:
    """Inputs into PMs: now and then one player's actions go out together in one message at one time, its
    manifesto written once (N-kill ruling)."""
    by: dict[str, list[Input]] = {}
    for inp in inputs:
        by.setdefault(inp.by, []).append(inp)
    out: list[tuple[Input, ...]] = []
    for mine in by.values():
        news = [i for i in mine if isinstance(i, Action) and not i.change]
        if len(news) > 1 and rng.random() < 0.3:
            at = min(i.at for i in news)
            text = "".join(i.manifesto or "" for i in news)
            together = [replace(i, at=at, manifesto=None) for i in news]
            together[-1] = replace(together[-1], manifesto=text or None)
            out.append(tuple(together))
            mine = [i for i in mine if i not in news]
        out += [(i,) for i in mine]
    return out


def phase_log(rng: random.Random, state: GameState) -> PhaseLog:
    log = PhaseLog(state.phase_kind, state.phase_no, extended=rng.random() < 0.05)
    inputs: list[Input] = [*_stances(rng, state), *_orders(rng, state, log.length)]
    for seat in state.seats:
        if seat.alive or rng.random() < 0.1:
            inputs += _privileges(rng, state, seat, log.length)
    if state.phase_kind == DAY:
        inputs += _votes(rng, state, log.length)
    log.messages = _messages(rng, inputs)
    senders = {i.by for i in inputs}
    if rng.random() < 0.15 and all(s.name in senders for s in state.seats if s.alive):
        last = max((i.at for i in inputs), default=0)
        log.early = min(log.length, last + rng.randint(0, 60))  # T5: the announced length stays the reference
    return log


# --- one game ------------------------------------------------------------------------------------------------------


def table(rng: random.Random, seed: int) -> list[SeatSpec]:
    """4–9 players; hands dealt per S3 (5 cards) when the deck allows, otherwise (or at random) arbitrary hands."""
    n = rng.randint(4, 9)
    camps = [CAMP_KILLER, CAMP_WEREWOLF, *([CAMP_SELF] if rng.random() < 0.7 else []), *[CAMP_CIVILIAN] * 9][:n]
    rng.shuffle(camps)
    if n * 5 <= 35 and rng.random() < 0.6:
        hands = [list(h) for h in deal(camps, standard_deck(), 5, seed).hands]
    else:
        hands = [[rng.choice(CARD_NAMES) for _ in range(rng.randint(1, 5))] for _ in camps]
    specs = []
    for name, camp, hand in zip(NAMES, camps, hands, strict=False):
        privileged = [i for i, c in enumerate(hand) if is_privilege(c)]
        if not privileged:
            hand[-1] = rng.choice(AMOEBA_FORMS)
        elif not is_privilege(hand[-1]):
            hand.append(hand.pop(privileged[-1]))  # O2: the 底牌 is a privilege card
        specs.append(SeatSpec(name, camp, tuple(hand)))
    return specs


@dataclass
class Game:
    seed: int
    specs: list[SeatSpec]
    logs: list[PhaseLog]
    played: Played
    inputs: int = 0
    start: tuple[str, int] = (NIGHT, 1)


LATE_STARTS = ((DAY, 1), (NIGHT, 2), (DAY, 2), (NIGHT, 3))


def late_start(seed: int) -> tuple[tuple[str, int], list[SeatSpec]] | None:
    """One game in eight starts later than night 1 with two to four players (a scenario's `start`; T7: with three or
    fewer the 默哀期 counts as announced). Drawn from its own stream, so the other games stay as they were."""
    rng = random.Random(f"start{seed}")
    if rng.random() >= 0.125:
        return None
    n = rng.randint(2, 4)
    camps = [rng.choice((CAMP_KILLER, CAMP_WEREWOLF)), *[rng.choice((CAMP_CIVILIAN, CAMP_SELF)) for _ in range(n - 1)]]
    specs = []
    for name, camp in zip(NAMES, camps, strict=False):
        hand = [rng.choice(CARD_NAMES) for _ in range(rng.randint(1, 4))]
        if not is_privilege(hand[-1]):
            hand[-1] = rng.choice(AMOEBA_FORMS)
        specs.append(SeatSpec(name, camp, tuple(hand)))
    return rng.choice(LATE_STARTS), specs


def play_game(seed: int) -> Game:
    """Generate and play one game, phase by phase; corrections void an input and replay; then the replay checks."""
    rng = random.Random(seed)
    specs = table(rng, seed)
    start: tuple[str, int] = (NIGHT, 1)
    if late := late_start(seed):
        start, specs = late
    logs: list[PhaseLog] = []
    state = start_game(specs, start=start)
    check = Checker(state)
    closed: list[GameState] = []
    while len(logs) < MAX_PHASES:
        opening = state
        log = phase_log(rng, opening)
        logs.append(log)
        if log.messages and rng.random() < 0.1:  # a correction in the open phase: void one message, replay it
            play_phase(opening, log, len(logs) - 1, None)
            log.messages.pop(rng.randrange(len(log.messages)))
        state, result = play_phase(opening, log, len(logs) - 1, check)
        closed.append(state)
        if len(logs) > 2 and rng.random() < 0.03:  # a correction of a closed phase: void, replay the whole game
            past = logs[rng.randrange(len(logs) - 1)]
            if past.messages:
                past.messages.pop(rng.randrange(len(past.messages)))
                redone = replay(specs, logs, start=start)
                logs, closed, check = logs[: len(redone.closed)], redone.closed, redone.check
                state, result = closed[-1], redone.results[-1]
        if result.winner:
            after_the_winner(state, rng, check, len(logs) - 1)
            break
        pre = state
        state, events = open_phase(state)
        check.opened(pre, state, events, len(logs))
    game = Game(seed, specs, logs, Played(closed, [], check), start=start)
    game.inputs = sum(len(m) for log in logs for m in log.messages)
    determinism(game)
    return game


def determinism(game: Game) -> None:
    """Two replays give the live states; one through stored snapshots (when the codec exists) gives them too."""
    again = replay(game.specs, game.logs, snapshots=True, start=game.start)
    game.played.check.found += [v for v in again.check.found if v.kind == "snapshot"]
    for i, (live, redone) in enumerate(zip(game.played.closed, again.closed, strict=False)):
        if live != redone:
            game.played.check.flag("determinism", i, "a replay of the same inputs gives another state")
            return
    if len(again.closed) != len(game.played.closed):
        game.played.check.flag("determinism", len(again.closed) - 1, "a replay ends the game at another phase")


# --- shrinking and writing scenarios -------------------------------------------------------------------------------


def violations(
    specs: list[SeatSpec], logs: list[PhaseLog], rng_seed: int = 0, start: tuple[str, int] = (NIGHT, 1)
) -> list[Violation]:
    game = Game(rng_seed, specs, logs, replay(specs, logs, start=start), start=start)
    if game.played.results and game.played.results[-1].winner:
        after_the_winner(game.played.closed[-1], random.Random(rng_seed), game.played.check, len(game.played.closed))
    determinism(game)
    return game.played.check.found


def shrink(logs: list[PhaseLog], still: Callable[[list[PhaseLog]], bool]) -> list[PhaseLog]:
    """The smallest log that `still` holds for (greedy, last phase first: its early end, its extension, then each
    message)."""
    logs = [_copy(log) for log in logs]
    for i in reversed(range(len(logs))):
        for simpler in (replace(logs[i], early=None), _unextended(logs[i])):
            if simpler != logs[i] and still([*logs[:i], simpler, *logs[i + 1 :]]):
                logs[i] = simpler
        for msg in list(logs[i].messages):
            fewer = replace(logs[i], messages=[m for m in logs[i].messages if m is not msg])
            if still([*logs[:i], fewer, *logs[i + 1 :]]):
                logs[i] = fewer
    return logs


def _unextended(log: PhaseLog) -> PhaseLog:
    kept = [m for m in log.messages if all(i.at <= PHASE_MINUTES for i in m)]
    return replace(log, extended=False, messages=kept, early=min(log.early, PHASE_MINUTES) if log.early else log.early)


def _copy(log: PhaseLog) -> PhaseLog:
    return replace(log, messages=list(log.messages))


def _hhmm(minutes: float) -> str:
    return f"{int(minutes) // 60:02d}:{int(minutes) % 60:02d}"


def _step(inp: Input, refused: bool) -> dict:
    if isinstance(inp, Vote):
        row: dict[str, Any] = {"by": inp.by, **({"for": inp.target} if inp.change is None else {"change": inp.change})}
        row.update({"edited": True} if inp.edited else {})
    elif isinstance(inp, Order):
        row = {"by": inp.by, "order": list(inp.order)}
    else:
        keys = ("card", "use", "target", "position", "into", "side", "mode", "change", "manifesto")
        row = {"by": inp.by, **{k: getattr(inp, k) for k in keys if getattr(inp, k) not in (None, False)}}
        if inp.use in ("普通攻击", "一击必杀", "普通狙击", "瞄准狙击") and not inp.change:
            row["manifesto"] = inp.manifesto or ""  # absent would mean "a valid one" to a runner
    row["at"] = _hhmm(inp.at)
    return {**row, **({"expect_error": True} if refused else {})}


def scenario(game: Game, logs: list[PhaseLog], found: Violation) -> dict:
    """The shrunk game as a scenario: every verdict as the engine gives it, except where the rules disagree."""
    specs = game.specs
    state = start_game(specs, start=game.start)
    phases = []
    for i, log in enumerate(logs):
        if i:
            state = open_phase(state)[0]
        state = replace(state, phase_minutes=log.length)
        rows: dict[str, list[dict]] = {"actions": [], "votes": [], "orders": []}
        for m, msg in in_forum_order(log.messages):
            state, verdicts = submit_message(state, list(msg))
            for j, (inp, v) in enumerate(zip(msg, verdicts, strict=True)):
                must = found.phase == i and found.refuse == (m, j)
                key = "votes" if isinstance(inp, Vote) else "orders" if isinstance(inp, Order) else "actions"
                rows[key].append(_step(inp, refused=not v.accepted or must))
        state, result = end_phase(state)
        phase: dict[str, Any] = {"night" if log.kind == NIGHT else "day": log.number}
        phase.update({k: v for k, v in rows.items() if v})
        if log.early is not None:
            phase["ended_early_at"] = _hhmm(log.early)
        phase["expect"] = dict(found.expect) if i == found.phase else _facts(state, result)
        phases.append(phase)
        if result.winner:
            break
    t4 = "(含换人延长的时段:scenario 格式无法表达,需在控制台重现)" if any(log.extended for log in logs) else ""
    late = (
        {"start": f"{'night' if game.start[0] == NIGHT else 'day'} {game.start[1]}"} if game.start != (NIGHT, 1) else {}
    )
    return {
        "name": f"模拟器发现:{found.kind} — {found.detail}(种子 {game.seed}){t4}",
        "rules": list(CLAUSES.get(found.kind, ())),
        **late,
        "players": [{"name": s.name, "camp": s.camp, "hand": list(s.hand)} for s in specs],
        "phases": phases,
    }


def _facts(state: GameState, result: CloseResult) -> dict:
    lost = {n: {PRIVILEGE: k[PRIVILEGE], COMMON: k[COMMON]} for n, k in result.lost.items() if any(k.values())}
    return {"lost": lost, "dead": sorted(s.name for s in state.seats if not s.alive), "executed": list(result.executed)}


def write(game: Game, out: Path) -> list[Path]:
    written = []
    for kind in dict.fromkeys(v.kind for v in game.played.check.found):
        first = min(v.phase for v in game.played.check.found if v.kind == kind)

        def still(logs: list[PhaseLog], kind: str = kind) -> bool:
            return any(v.kind == kind for v in violations(game.specs, logs, game.seed, game.start))

        logs = game.logs[: first + 1]
        plain = [_unextended(log) for log in logs]  # a scenario cannot say "T4: 12 h longer": drop it if we may
        logs = shrink(plain if still(plain) else logs, still)
        found = next(v for v in violations(game.specs, logs, game.seed, game.start) if v.kind == kind)
        path = out / f"seed{game.seed}_{kind}.yaml"
        out.mkdir(parents=True, exist_ok=True)
        path.write_text(
            yaml.safe_dump(
                scenario(game, logs, found), allow_unicode=True, sort_keys=False, default_flow_style=None, width=120
            ),
            "utf-8",
        )
        written.append(path)
    return written


# --- the command ---------------------------------------------------------------------------------------------------


@dataclass
class Totals:
    games: int = 0
    phases: int = 0
    inputs: int = 0
    violations: int = 0
    files: list[Path] = field(default_factory=list)


def run(games: int, seed: int, out: Path | None = None) -> Totals:
    totals = Totals()
    for i in range(games):
        game = play_game(seed + i)
        totals.games += 1
        totals.phases += len(game.logs)
        totals.inputs += game.inputs
        totals.violations += len(game.played.check.found)
        if game.played.check.found and out is not None:
            totals.files += write(game, out)
    return totals


def replay_files(paths: list[str]) -> int:
    """Scenario files through the pure engine: PASS/FAIL lines as `manage.py scenario` prints them."""
    from moderator.rules.scenario import load, play

    failed = 0
    files = [f for p in map(Path, paths) for f in (sorted(p.rglob("*.yaml")) if p.is_dir() else [p])]
    for f in files:
        sc = load(yaml.safe_load(f.read_text(encoding="utf-8")))
        problems = play(sc)
        failed += bool(problems)
        print(f"{'FAIL' if problems else 'PASS'} {f}: {sc.name}", *(f"  {p}" for p in problems), sep="\n")
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.simulate", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("var/simulate"))
    parser.add_argument("--replay", nargs="+", metavar="PATH", help="run scenario files through the pure engine")
    args = parser.parse_args(argv)
    if args.replay:
        return replay_files(args.replay)
    began = time.perf_counter()
    totals = run(args.games, args.seed, args.out)
    rate = totals.games / (time.perf_counter() - began)
    print(
        f"games={totals.games} phases={totals.phases} inputs={totals.inputs} "
        f"invariant_violations={totals.violations} games_per_s={rate:.1f}"
    )
    for path in totals.files:
        print(f"  {path}", file=sys.stderr)
    return 1 if totals.violations else 0


if __name__ == "__main__":
    sys.exit(main())
