"""为什么: the steps behind every line of a dawn or dusk draft, and the 复盘 post of a finished game.

Nothing here runs at the clock's close. A trace is computed when the 天神 asks, by replaying the stored inputs with
tracing on (`storage.game_replay(tracers=…)`, the same replay and the same pipeline as the close): the phase's opening
(AP grant, upkeep, arsons), every input with its verdict, every step of the close with its clause. The trace names
cards and who did what, so it is shown only on the console (its pages go through `gm_game`) and, once the game is
over, in the 复盘 draft the 天神 may paste into the thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import timezone

from moderator import rules
from moderator.game.trace import Step, Trace, input_step
from moderator.models import Announcement, Game, Input, Phase
from moderator.rules import codec
from moderator.services import storage
from moderator.services.drafts import BLANK_LINES
from moderator.services.errors import PlayError
from moderator.services.posts import bb

KIND_CLAUSE = {Input.Kind.ACTION: "AP4", Input.Kind.VOTE: "D3", Input.Kind.ORDER: "O1", Input.Kind.PASS: "T5"}
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


def _input_steps(replay: storage.Replay, phase: Phase, by_seat: dict[int, str]) -> list[Step]:
    """Every input of the phase in forum order, with the verdict the replay gave it (a voided one says so)."""
    steps = Trace()
    for rec in replay.records.get(phase.pk, []):
        said = f"{timezone.localtime(rec.forum_at):%m-%d %H:%M} " + codec.describe(rec.kind, rec.payload, replay.names)
        kind = KIND_CLAUSE.get(Input.Kind(rec.kind), "AP4")
        by = by_seat[rec.seat_id]
        verdict = replay.verdicts.get(rec.pk)
        if storage.voided(rec) or verdict is None:
            steps(kind, f"输入:{by} {said}:已被天神作废,不参与结算", (by,))
        else:
            input_step(steps, by, said, verdict.accepted, verdict.reason, verdict.cost, kind)
    return list(steps)


def _dawn_or_dusk(game: Game, phase: Phase) -> str:
    kinds = (Announcement.Kind.DAWN, Announcement.Kind.DUSK)
    draft = game.announcements.filter(phase=phase, kind__in=kinds, corrected_at__isnull=True).order_by("-id").first()
    return draft.text if draft else ""


def _traced_replay(game: Game, phases: list[Phase], from_phase: Phase | None) -> tuple[storage.Replay, dict]:
    tracers = {p.pk: (Trace(), Trace()) for p in phases}
    full = from_phase is None
    replay = storage.game_replay(game, from_phase=from_phase, full=full, tracers=tracers)  # type: ignore[arg-type]
    return replay, tracers


def phase_trace(game: Game, phase: Phase) -> PhaseTrace:
    """A closed phase, replayed from the snapshot before it with tracing on; an open one, closed as a dry run."""
    replay, tracers = _traced_replay(game, [phase], phase)
    opening, close = tracers[phase.pk]
    by_seat = dict(game.seats.values_list("pk", "player_name"))
    out = PhaseTrace(phase, list(opening), _input_steps(replay, phase, by_seat))
    if phase.status == Phase.Status.CLOSED:
        out.close, out.draft = list(close), _dawn_or_dusk(game, phase)
    elif replay.state.phase_open:
        out.close = dry_run_steps(replay.state)
    return out


def dry_run_steps(state: rules.GameState) -> list[Step]:
    """The steps of closing the open phase now (a dry run: nothing is stored)."""
    steps = Trace()
    rules.end_phase(state, steps)
    return list(steps)


def game_trace(game: Game) -> list[PhaseTrace]:
    """Every phase of the game, from night 1, in one traced replay (the 复盘)."""
    phases = list(game.phases.order_by("starts_at", "id"))
    replay, tracers = _traced_replay(game, phases, None)
    by_seat = dict(game.seats.values_list("pk", "player_name"))
    out = []
    for phase in replay.phases:
        opening, close = tracers[phase.pk]
        trace = PhaseTrace(phase, list(opening), _input_steps(replay, phase, by_seat))
        if phase.status == Phase.Status.CLOSED:
            trace.close, trace.draft = list(close), _dawn_or_dusk(game, phase)
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
            out.append(WhyLine(line, [s for s in steps if s.clause == "A2"]))
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
        out.append(WhyLine(line, [s for s in steps if named & set(s.players)]))
    return out


def phase_why(game: Game, trace: PhaseTrace, text: str | None = None) -> list[WhyLine]:
    players = [s.player_name for s in game.seats.all()]
    return why(trace.draft if text is None else text, trace.close, players)


# --- the 复盘 post ----------------------------------------------------------------------------------------------------


class ReviewNotReady(PlayError):
    """The game is not over: before its end nothing of the trace is public (A1–A5)."""


def review_post(game: Game) -> tuple[str, str]:
    """The 复盘 of a finished game as (BBCode, plain text): the hands as dealt, then night by night and day by day
    every input with its verdict and every step of the close with its clause; last, the winner."""
    if game.status != Game.Status.FINISHED:
        raise ReviewNotReady("游戏结束之后才能生成复盘帖:结束之前,结算过程不能公开(A1–A5)。")
    blocks: list[tuple[str, list[str]]] = []
    deal = []
    for seat in game.seats.order_by("number"):
        deal.append(f"{seat.player_name}({seat.camp}):{'、'.join(seat.dealt_hand)}")
    blocks.append(("开局发牌(丢牌顺序从左到右,最后一张是底牌)", deal))
    for trace in game_trace(game):
        label = trace.phase.label
        if trace.opening:
            blocks.append((f"{label} · 开始(行动点数、纵火)", [s.line for s in trace.opening]))
        blocks.append((f"{label} · 输入与裁决", [s.line for s in trace.inputs] or ["没有输入。"]))
        if trace.close:
            blocks.append((f"{label} · 结算", [s.line for s in trace.close]))
    won = {"平局": "平局", "自选": "自选立场者获胜"}.get(game.winner or "") or f"{game.winner}阵营获胜"
    title = f"【{game.name}】复盘:{won}"
    bbcode = [f"[b]{bb(title)}[/b]\n"]
    text = [f"{title}\n"]
    for heading, lines in blocks:
        bbcode.append(f"\n[b]{bb(heading)}[/b]\n[list]\n" + "".join(f"[*]{bb(line)}\n" for line in lines) + "[/list]\n")
        text.append(f"\n{heading}\n" + "".join(f"· {line}\n" for line in lines))
    bbcode.append("\n感谢各位参与!\n")
    text.append("\n感谢各位参与!\n")
    return BLANK_LINES.sub("\n\n", "".join(bbcode)), "".join(text)
