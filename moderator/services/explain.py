"""为什么: the steps behind every line of a dawn or dusk draft, and the 复盘 post of a finished game.

Nothing here runs at the clock's close. A trace is computed when the 天神 asks, by replaying the stored inputs with
tracing on (`storage.game_replay(tracers=…)`, the same replay and the same pipeline as the close): the phase's opening
(AP grant, upkeep, arsons), every input with its verdict, every step of the close with its clause. The trace names
cards and who did what, so it is shown only on the console (its pages go through `gm_game`) and, once the game is
over, in the 复盘 draft the 天神 may paste into the thread.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone

from moderator.game.trace import Step, Trace, input_step, use_clause
from moderator.models import Announcement, Game, Input, Phase, SeatHolder
from moderator.rules import codec
from moderator.services import closing, play, storage
from moderator.services.errors import PlayError

KIND_CLAUSE = {Input.Kind.VOTE: "D3", Input.Kind.PASS: "T5"}
VICTORY = ("V1", "V2", "V3", "V4", "V1–V4")
# Lines of a post that name no player, and the clauses that explain them (checked before the players' names).
TOPICS = (
    ("丢掉的牌已达到", ("O3",)),
    ("丢牌顺序", ("O3",)),
    ("默哀期", ("T7",)),
    ("游戏结束", VICTORY),
    ("获胜的游戏者", VICTORY),
    ("现在是", VICTORY),
    ("杀人宣言", ("A2",)),
    ("没有人被处决", ("D5",)),
    ("没有人得票", ("D5",)),
    ("加权计票结果", ("D1", "D2", "D4", "N13")),
)


ATTACK = ("N1", "N2", "N3", "N4", "N5", "N6", "N9", "N10", "B1", "B2", "B3", "B5", "O4")
# A line naming players is explained by the steps about them under the clauses of what the line says (so that
# "X被特赦" shows the pardon, not X's own 绝杀 that night); a line none of these fit shows every step about them.
SAYS = (
    ("被特赦", ("N12", "D6")),
    ("不能被特赦", ("D6", "N12", "N14", "B4", "O4")),
    ("被处决的", ("D6", "N12")),
    ("受到了攻击", ATTACK),
    ("束魂/巫医失败", ("N7", "N8", *ATTACK)),
    ("被绝杀", ("N11", "B4", "O4")),
    ("被救活", ("N7", "N8", "N7/N8", "D1")),
    ("死亡", ("V5",)),
    ("圣人", ("N14", "D7", "B4", "O4")),
    ("被处决的是", ("D5", "D4")),
    (" 票", ("D1", "D2", "D4", "N13")),
)


@dataclass
class PhaseTrace:
    """One phase told step by step: its opening, its inputs with their verdicts, its close (empty while open and no
    dry run was asked)."""

    phase: Phase
    opening: list[Step] = field(default_factory=list)
    inputs: list[Step] = field(default_factory=list)
    close: list[Step] = field(default_factory=list)
    draft: str = ""  # the dawn or dusk draft, plain text (the stored one; for a dry run, the preview's)

    @property
    def steps(self) -> list[Step]:
        return [*self.opening, *self.inputs, *self.close]


@dataclass
class WhyLine:
    text: str
    steps: list[Step]


def _input_steps(replay: storage.Replay, phase: Phase, by_seat: dict[int, str], holders: Holders) -> list[Step]:
    """Every input of the phase in forum order, with the verdict the replay gave it (a voided one says so), under
    the player who held the seat when it was sent (S5)."""
    out: list[Step] = []
    for rec in replay.records.get(phase.pk, []):
        steps = Trace()
        said = f"{timezone.localtime(rec.forum_at):%m-%d %H:%M} " + codec.describe(rec.kind, rec.payload, replay.names)
        kind = _input_clause(rec, phase)
        by = by_seat[rec.seat_id]
        verdict = replay.verdicts.get(rec.pk)
        if storage.voided(rec) or verdict is None:
            steps(kind, f"输入:{by} {said}:已被天神作废,不参与结算", (by,))
        else:
            input_step(steps, by, said, verdict.accepted, verdict.reason, verdict.cost, kind)
        out += _as_held(list(steps), held_at(holders, rec.forum_at))
    return out


def _drawn_steps(drawn: list[Input], replay: storage.Replay, phase: Phase, holders: Holders) -> list[Step]:
    """O1: each order the deadline of night 1 draws for a seat that sent none, said as the step it will be."""
    out: list[Step] = []
    for rec in drawn:
        steps = Trace()
        by = rec.seat.player_name
        said = codec.describe(rec.kind, rec.payload, replay.names)
        steps("O1", f"{phase.label}截止时:{by} 没有交丢牌顺序,系统随机决定的{said}", (by,))
        out += _as_held(list(steps), held_at(holders, rec.forum_at))
    return out


Holders = dict[str, list[tuple[datetime, str]]]  # the seat's player now → [(since, who held it)], oldest first


def seat_holders_of(game: Game) -> Holders:
    """S5: who held each seat from when, under the name the replay gives the seat (its player now)."""
    now = dict(game.seats.values_list("pk", "player_name"))
    out: Holders = {}
    for seat_id, since, name in SeatHolder.objects.filter(seat__game=game).values_list(
        "seat_id", "since", "player_name"
    ):
        out.setdefault(now[seat_id], []).append((since, name))
    for rows in out.values():
        rows.sort(key=lambda r: r[0])
    return out


def held_at(holders: Holders, when: datetime) -> dict[str, str]:
    """Each seat's player now → who held the seat at `when` (the replay names every seat by its player now)."""
    out = {}
    for now, rows in holders.items():
        out[now] = next((name for since, name in reversed(rows) if since <= when), rows[0][1] if rows else now)
    return out


def _as_held(steps: list[Step], held: dict[str, str]) -> list[Step]:
    """The steps with each seat named by who held it then, not by the substitute who holds it now (S5)."""
    if all(k == v for k, v in held.items()):
        return steps
    pattern = re.compile("|".join(re.escape(n) for n in sorted(held, key=len, reverse=True) if n))

    def swap(text: str) -> str:
        return pattern.sub(lambda m: held[m.group(0)], text)

    return [Step(s.clause, swap(s.sentence), tuple(held.get(p, p) for p in s.players), s.quote) for s in steps]


def _input_clause(rec: Input, phase: Phase) -> str:
    """The clause that defines an input: its privilege's (N1–N14, M1, S4); an order sent on night 1 is O1, any later
    one is sent in an order-change window (O3)."""
    if rec.kind == Input.Kind.ACTION:
        return use_clause(str(rec.payload.get("use", "")), rec.payload.get("card"))
    if rec.kind == Input.Kind.ORDER:
        return "O1" if phase.kind == Phase.Kind.NIGHT and phase.number == 1 else "O3"
    return KIND_CLAUSE.get(Input.Kind(rec.kind), "AP4")


def _dawn_or_dusk(game: Game, phase: Phase) -> str:
    kinds = (Announcement.Kind.DAWN, Announcement.Kind.DUSK)
    draft = game.announcements.filter(phase=phase, kind__in=kinds, corrected_at__isnull=True).order_by("-id").first()
    return draft.text if draft else ""


def _traced_replay(game: Game, phases: list[Phase], from_phase: Phase | None) -> tuple[storage.Replay, dict]:
    """The replay with tracing on for `phases`: of the whole game (`from_phase` None), or of that one phase alone
    (the phases after it are not closed again)."""
    tracers = {p.pk: (Trace(), Trace()) for p in phases}
    replay = storage.game_replay(
        game, from_phase=from_phase, full=from_phase is None, tracers=tracers, until=from_phase
    )
    return replay, tracers


def _told(phase: Phase, opening, inputs: list[Step], close, holders: Holders) -> PhaseTrace:
    """A phase's steps, each seat named by who held it then: at the phase's start, at each input, at its end."""
    return PhaseTrace(
        phase,
        _as_held(list(opening), held_at(holders, phase.starts_at)),
        inputs,
        _as_held(list(close), held_at(holders, phase.ends_at)),
    )


def phase_trace(game: Game, phase: Phase) -> PhaseTrace:
    """A closed phase, replayed from the snapshot before it with tracing on; an open one, closed as a dry run by the
    one close calculation with its tracer, as it closes on time (on night 1 with the orders O1 draws at the deadline,
    each a step): its steps and its post come from that one close."""
    replay, tracers = _traced_replay(game, [phase], phase)
    opening, close = tracers[phase.pk]
    by_seat = dict(game.seats.values_list("pk", "player_name"))
    holders = seat_holders_of(game)
    if phase.status == Phase.Status.CLOSED:
        out = _told(phase, opening, _input_steps(replay, phase, by_seat, holders), close, holders)
        out.draft = _dawn_or_dusk(game, phase)
        return out
    out = _told(phase, opening, _input_steps(replay, phase, by_seat, holders), [], holders)
    if (
        replay.state.phase_open
    ):  # closed on time: on night 1 with the orders O1 draws at the deadline (as the dashboard)
        drawn, state = play.judged_on_time(game, phase, replay)
        out.inputs += _drawn_steps(drawn, replay, phase, holders)
        out.draft = closing.calculate(game, phase, state, tracer=close).post.text
        out.close = list(close)  # closed now: by the seats' players now
    return out


def game_trace(game: Game) -> list[PhaseTrace]:
    """Every phase of the game, from night 1, in one traced replay (the 复盘)."""
    phases = list(game.phases.order_by("starts_at", "id"))
    replay, tracers = _traced_replay(game, phases, None)
    by_seat = dict(game.seats.values_list("pk", "player_name"))
    holders = seat_holders_of(game)
    out = []
    for phase in replay.phases:
        opening, close = tracers[phase.pk]
        closed = phase.status == Phase.Status.CLOSED
        trace = _told(phase, opening, _input_steps(replay, phase, by_seat, holders), close if closed else [], holders)
        if closed:
            trace.draft = _dawn_or_dusk(game, phase)
        out.append(trace)
    return out


def why(text: str, steps: list[Step], players: list[str]) -> list[WhyLine]:
    """Each non-blank line of a post with the steps of the close behind it: a quoted 杀人宣言 → A2; a line about the
    window, the 默哀期, the end or the tally → those clauses; a line naming players → every step about them; the
    title line → every step."""
    longest_first = sorted(players, key=len, reverse=True)
    lines = [line for line in text.splitlines() if line.strip()]
    out = []
    for i, line in enumerate(lines):
        if i == 0:
            out.append(WhyLine(line, list(steps)))
            continue
        if line.startswith(">"):
            quoted = line[1:].strip()
            own = [s for s in steps if s.clause == "A2" and quoted and quoted in s.quote]
            out.append(WhyLine(line, own or [s for s in steps if s.clause == "A2"]))
            continue
        topic = next((clauses for word, clauses in TOPICS if word in line), None)
        if topic is not None:
            out.append(WhyLine(line, [s for s in steps if s.clause in topic]))
            continue
        named, rest = set(), line
        for name in longest_first:
            if name and name in rest:
                named.add(name)
                rest = rest.replace(name, "\0")
        about = [s for s in steps if named & set(s.players)]
        says = {c for word, clauses in SAYS if word in line for c in clauses}
        out.append(WhyLine(line, [s for s in about if s.clause in says] or about if says else about))
    return out


def phase_why(game: Game, trace: PhaseTrace, text: str | None = None) -> list[WhyLine]:
    players = list({*game.seats.values_list("player_name", flat=True), *_holder_names(game)})
    return why(trace.draft if text is None else text, trace.close, players)


def _holder_names(game: Game) -> list[str]:
    return list(SeatHolder.objects.filter(seat__game=game).values_list("player_name", flat=True))


# --- the 复盘 post ----------------------------------------------------------------------------------------------------


class ReviewNotReady(PlayError):
    """The game is not over: before its end nothing of the trace is public (A1–A5)."""
