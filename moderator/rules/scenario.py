"""The scenario file format (docs/scenarios.md): loading with exact key checking, checking expectations, and
`play`, which plays a scenario through the pure engine only (the simulator's shrunk scenarios are re-run with it).

Pure: the runner that plays a scenario through the services lives in moderator.scenarios (Django side); both must
agree on every scenario.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from cards.catalogue import CAMPS, CARD_NAMES, USES
from moderator.game.settle import COMMON, PRIVILEGE
from moderator.game.state import (
    DAY,
    NIGHT,
    PHASE_MINUTES,
    Action,
    CloseResult,
    GameState,
    Order,
    SeatSpec,
    Verdict,
    Vote,
    next_phase,
)
from moderator.game.trace import Trace, input_step
from moderator.rules import codec
from moderator.rules.engine import end_phase, open_phase, start_game, submit_message

TOP_KEYS = {"name", "rules", "players", "ap", "phases", "start"}
PLAYER_KEYS = {"name", "camp", "hand"}
PHASE_KEYS = {"night", "day", "actions", "votes", "orders", "expect", "ended_early_at"}
SCENARIO_ACTION_KEYS = {
    "by",
    "card",
    "use",
    "target",
    "position",
    "into",
    "side",
    "mode",
    "at",
    "change",
    "manifesto",
    "expect_error",
}
VOTE_KEYS = {"by", "for", "change", "at", "edited", "expect_error"}
ORDER_KEYS = {"by", "order", "at", "expect_error"}
EXPECT_KEYS = {"ap", "cards", "hand", "lost", "dead", "saved", "executed", "tally", "winner", "window", "silence"}
WINNERS = {"平民", "杀手", "狼人", "自选", "平局", None}
# docs/scenarios.md (`manifesto`): an attack row without one gets exactly 100 characters, not counting whitespace (N-kill)
DEFAULT_MANIFESTO = "月黑风高夜,杀人放火天。" * 8 + "天神代写"


class ScenarioError(ValueError):
    """The file is not a valid scenario; the message says where and what would be accepted."""


@dataclass(frozen=True)
class ScenarioStep:
    """One input of a phase, in the order the GM entered it."""

    inp: Action | Vote | Order
    expect_error: bool
    label: str


@dataclass(frozen=True)
class PhasePlan:
    kind: str
    number: int
    steps: tuple[ScenarioStep, ...]
    expect: dict[str, Any]
    ended_early_at: int | None = None  # T5: minutes since the phase began; cutoffs still count from the announced end

    @property
    def label(self) -> str:
        return f"{self.kind} {self.number}"


@dataclass(frozen=True)
class Scenario:
    name: str
    players: tuple[dict[str, Any], ...]
    ap: dict[str, int]
    start: tuple[str, int]
    phases: tuple[PhasePlan, ...]
    rules: tuple[str, ...] = field(default=())


def _keys(where: str, item: Any, allowed: set[str]) -> dict:
    if not isinstance(item, dict):
        raise ScenarioError(f"{where}: expected a mapping, got {item!r}")
    unknown = sorted(set(item) - allowed)
    if unknown:
        raise ScenarioError(
            f"{where}: unknown key(s) {', '.join(map(str, unknown))}; allowed: {', '.join(sorted(allowed))}"
        )
    return item


def minutes(value: Any, where: str) -> int:
    """`at` as "hours:minutes" since the phase began; an unquoted 12:37 read by YAML 1.1 as 757 is taken as minutes."""
    if value is None:
        return 60
    if isinstance(value, bool):
        raise ScenarioError(f'{where}: at must be "hours:minutes"')
    if isinstance(value, int):
        return value
    text = str(value).strip()
    try:
        hours, _, mins = text.partition(":")
        return int(hours) * 60 + int(mins or 0)
    except ValueError:
        raise ScenarioError(f'{where}: at must be "hours:minutes", got {value!r}') from None


def _phase_id(text: Any) -> tuple[str, int]:
    kind, _, number = str(text).partition(" ")
    kinds = {"night": NIGHT, "day": DAY}
    if kind not in kinds or not (number.strip().isascii() and number.strip().isdigit()):
        raise ScenarioError(f'start: expected e.g. "night 1" or "day 2", got {text!r}')
    return kinds[kind], int(number)


def load(data: Any) -> Scenario:
    top = _keys("scenario", data, TOP_KEYS)
    for key in ("name", "players", "phases"):
        if key not in top:
            raise ScenarioError(f"scenario: missing required key {key}")
    players = tuple(_player(i, p) for i, p in enumerate(top["players"] or []))
    names = [p["name"] for p in players]
    if len(set(names)) != len(names):
        raise ScenarioError("players: duplicate names")
    ap = top.get("ap") or {}
    for name in ap:
        _known(name, names, "ap")
    start = _phase_id(top["start"]) if "start" in top else (NIGHT, 1)
    plans, expected = [], start
    for i, raw in enumerate(top["phases"] or []):
        plan = _phase(i, raw, names)
        if (plan.kind, plan.number) != expected:
            raise ScenarioError(f"phases[{i}]: expected {expected[0]} {expected[1]} next, got {plan.label}")
        plans.append(plan)
        expected = next_phase(plan.kind, plan.number)
    return Scenario(str(top["name"]), players, dict(ap), start, tuple(plans), tuple(map(str, top.get("rules") or ())))


def _known(name: Any, names: list[str], where: str) -> str:
    if name not in names:
        raise ScenarioError(f"{where}: unknown player {name!r}; players: {', '.join(names)}")
    return name


def _card(card: Any, where: str) -> str:
    if card not in CARD_NAMES:
        raise ScenarioError(f"{where}: unknown card {card!r}; cards: {'、'.join(CARD_NAMES)}")
    return card


def _player(i: int, raw: Any) -> dict:
    p = _keys(f"players[{i}]", raw, PLAYER_KEYS)
    if not {"name", "camp", "hand"} <= set(p):
        raise ScenarioError(f"players[{i}]: name, camp and hand are required")
    if p["camp"] not in CAMPS:
        raise ScenarioError(f"players[{i}]: unknown camp {p['camp']!r}; camps: {'、'.join(CAMPS)}")
    hand = [_card(c, f"players[{i}].hand") for c in p["hand"] or []]
    if not hand or hand[-1] == "庶民":
        raise ScenarioError(f"players[{i}]: the last card (底牌) must be a privilege card (O2)")
    return {"name": str(p["name"]), "camp": p["camp"], "hand": tuple(hand)}


def _phase(i: int, raw: Any, names: list[str]) -> PhasePlan:
    ph = _keys(f"phases[{i}]", raw, PHASE_KEYS)
    kinds = [k for k in ("night", "day") if k in ph]
    if len(kinds) != 1:
        raise ScenarioError(f"phases[{i}]: give exactly one of night: N or day: N")
    kind, number = (NIGHT if kinds[0] == "night" else DAY), int(ph[kinds[0]])
    where = f"{kinds[0]} {number}"
    steps = [_action(f"{where} actions[{j}]", a, names) for j, a in enumerate(ph.get("actions") or [])]
    if ph.get("votes") and kind != DAY:
        raise ScenarioError(f"{where}: votes are for days only")
    steps += [_vote(f"{where} votes[{j}]", v, names) for j, v in enumerate(ph.get("votes") or [])]
    steps += [_order(f"{where} orders[{j}]", o, names) for j, o in enumerate(ph.get("orders") or [])]
    expect = _keys(f"{where} expect", ph.get("expect") or {}, EXPECT_KEYS)
    _check_expect(where, expect, names)
    early = _early_end(where, ph, steps)
    return PhasePlan(kind, number, tuple(steps), expect, early)


def _early_end(where: str, ph: dict, steps: list[ScenarioStep]) -> int | None:
    """T5: the phase was ended early at this time; every input of the phase is at or before it."""
    if "ended_early_at" not in ph:
        return None
    early = minutes(ph["ended_early_at"], f"{where} ended_early_at")
    if not 0 <= early <= PHASE_MINUTES:
        raise ScenarioError(
            f'{where}: ended_early_at must lie within the phase, "00:00" to "24:00", got {early} minutes'
        )
    late = [s.label for s in steps if s.inp.at > early]
    if late:
        raise ScenarioError(f"{where}: ended early at {_hhmm(early)}, but {', '.join(late)} come after it (T5)")
    return early


def _hhmm(value: int | float) -> str:
    return f"{int(value) // 60:02d}:{int(value) % 60:02d}"


def _action(where: str, raw: Any, names: list[str]) -> ScenarioStep:
    a = _keys(where, raw, SCENARIO_ACTION_KEYS)
    if "by" not in a or "use" not in a:
        raise ScenarioError(f"{where}: by and use are required")
    if a["use"] not in USES:
        raise ScenarioError(f"{where}: unknown privilege {a['use']!r}; privileges: {'、'.join(USES)}")
    card = _card(a["card"], where) if a.get("card") is not None else None
    if a.get("into") is not None:
        _card(a["into"], where)
    target = _known(a["target"], names, where) if a.get("target") is not None else None
    manifesto = a.get("manifesto")
    if manifesto is None and a["use"] in ("普通攻击", "一击必杀", "普通狙击", "瞄准狙击") and not a.get("change"):
        manifesto = DEFAULT_MANIFESTO
    act = Action(
        by=_known(a["by"], names, where),
        use=a["use"],
        card=card,
        target=target,
        position=a.get("position"),
        into=a.get("into"),
        side=a.get("side"),
        mode=a.get("mode"),
        manifesto=manifesto,
        at=minutes(a.get("at"), where),
        change=bool(a.get("change", False)),
    )
    return ScenarioStep(act, bool(a.get("expect_error", False)), where)


def _vote(where: str, raw: Any, names: list[str]) -> ScenarioStep:
    v = _keys(where, raw, VOTE_KEYS)
    if "by" not in v or ("for" in v) == ("change" in v):
        raise ScenarioError(f"{where}: by and exactly one of for / change are required")
    target = _known(v["for"], names, where) if "for" in v else None
    change = _known(v["change"], names, where) if "change" in v else None
    vote = Vote(
        _known(v["by"], names, where), target, change, minutes(v.get("at"), where), bool(v.get("edited", False))
    )
    return ScenarioStep(vote, bool(v.get("expect_error", False)), where)


def _order(where: str, raw: Any, names: list[str]) -> ScenarioStep:
    o = _keys(where, raw, ORDER_KEYS)
    if "by" not in o or "order" not in o:
        raise ScenarioError(f"{where}: by and order are required")
    cards = tuple(_card(c, where) for c in o["order"] or [])
    order = Order(_known(o["by"], names, where), cards, minutes(o.get("at"), where))
    return ScenarioStep(order, bool(o.get("expect_error", False)), where)


def _check_expect(where: str, expect: dict, names: list[str]) -> None:
    for key in ("ap", "cards", "hand", "lost", "tally"):
        for name in expect.get(key) or {}:
            _known(name, names, f"{where} expect.{key}")
    for key in ("dead", "saved", "executed"):
        for name in expect.get(key) or []:
            _known(name, names, f"{where} expect.{key}")
    for name, cards in (expect.get("hand") or {}).items():
        for card in cards or []:
            _card(card, f"{where} expect.hand[{name}]")
    for name, kinds in (expect.get("lost") or {}).items():
        _keys(f"{where} expect.lost[{name}]", kinds or {}, {PRIVILEGE, COMMON})
    if "winner" in expect and expect["winner"] not in WINNERS:
        raise ScenarioError(f"{where} expect.winner: one of 平民, 杀手, 狼人, 自选, 平局 or null")


def mismatches(plan: PhasePlan, state: GameState, result: CloseResult) -> list[str]:
    """Every expectation of the phase that the closed state does not meet, as `after night 1: cards[乙] expected 4,
    got 5`."""
    out: list[str] = []
    exp = plan.expect
    at = f"after {plan.label}"

    def differ(key: str, expected: Any, got: Any) -> None:
        if expected != got:
            out.append(f"{at}: {key} expected {expected}, got {got}")

    for name, n in (exp.get("ap") or {}).items():
        differ(f"ap[{name}]", n, state.seat(name).ap)
    for name, n in (exp.get("cards") or {}).items():
        differ(f"cards[{name}]", n, len(state.seat(name).hand))
    for name, cards in (exp.get("hand") or {}).items():
        differ(f"hand[{name}]", list(cards or []), list(state.seat(name).names))
    if "lost" in exp:
        want = {
            n: {PRIVILEGE: int((k or {}).get(PRIVILEGE, 0)), COMMON: int((k or {}).get(COMMON, 0))}
            for n, k in (exp["lost"] or {}).items()
        }
        want = {n: k for n, k in want.items() if any(k.values())}
        got = {n: k for n, k in result.lost.items() if any(k.values())}
        for name in sorted(set(want) | set(got)):
            differ(f"lost[{name}]", want.get(name, {PRIVILEGE: 0, COMMON: 0}), got.get(name, {PRIVILEGE: 0, COMMON: 0}))
    if "dead" in exp:
        differ("dead", sorted(exp["dead"] or []), sorted(s.name for s in state.seats if not s.alive))
    for key, got_list in (("saved", result.saved), ("executed", result.executed)):
        if key in exp:
            differ(key, sorted(exp[key] or []), sorted(got_list))
    if "tally" in exp:
        want_t = {n: t for n, t in (exp["tally"] or {}).items() if t}
        for name in sorted(set(want_t) | set(result.tally)):
            differ(f"tally[{name}]", want_t.get(name, 0), result.tally.get(name, 0))
    if "winner" in exp:
        differ("winner", exp["winner"], result.winner)
    for key, got_flag in (("window", result.window), ("silence", result.silence)):
        if key in exp:
            differ(key, bool(exp[key]), got_flag)
    return out


# --- the pure runner --------------------------------------------------------------------------------------------


def in_forum_order(steps: tuple[ScenarioStep, ...]) -> list[ScenarioStep]:
    """docs/scenarios.md: a phase's inputs in forum-time order, equal times in the order listed."""
    return sorted(steps, key=lambda s: s.inp.at)


def by_message(steps: tuple[ScenarioStep, ...]) -> list[list[ScenarioStep]]:
    """The PMs of a phase: consecutive inputs (in forum order) of one sender at one forum minute are one message
    (N-kill: its attacks are judged with all its manifestos). A forum time is read to the minute, so two PMs of
    one player in one minute cannot be told apart anyway."""
    out: list[list[ScenarioStep]] = []
    for step in in_forum_order(steps):
        if out and (out[-1][-1].inp.by, out[-1][-1].inp.at) == (step.inp.by, step.inp.at):
            out[-1].append(step)
        else:
            out.append([step])
    return out


def verdict_problems(step: ScenarioStep, verdict: Verdict) -> list[str]:
    if verdict.accepted and step.expect_error:
        return [f"{step.label}: expected a refusal, but it was accepted"]
    if not verdict.accepted and not step.expect_error:
        return [f"{step.label}: expected it to be accepted, but it was refused: {verdict.reason}"]
    return []


def play(scenario: Scenario) -> list[str]:
    """Play a scenario through the pure engine (no services, no database) and return every mismatch. An early end
    (T5) closes the phase with its announced length: the cutoffs of T3 and D3 do not move."""
    seats = [SeatSpec(p["name"], p["camp"], p["hand"]) for p in scenario.players]
    state = start_game(seats, ap=scenario.ap, start=scenario.start)
    problems: list[str] = []
    for i, plan in enumerate(scenario.phases):
        for message in by_message(plan.steps):
            state, verdicts = submit_message(state, [s.inp for s in message])
            for step, verdict in zip(message, verdicts, strict=True):
                problems += verdict_problems(step, verdict)
        state, result = end_phase(state)
        problems += mismatches(plan, state, result)
        if result.winner and i + 1 < len(scenario.phases):
            problems.append(f"after {plan.label}: the game is over ({result.winner}) but more phases follow")
            break
        state, _ = open_phase(state)
    return problems


def input_kind(inp: Action | Vote | Order) -> str:
    return "D3" if isinstance(inp, Vote) else ("O1" if isinstance(inp, Order) else "AP4")


def trace(scenario: Scenario) -> list[str]:
    """Play a scenario with tracing on: for each phase, its opening (AP, arsons), every input with its verdict, and
    every step of its close, one line each with its clause (the golden traces, tests/golden/traces/)."""
    seats = [SeatSpec(p["name"], p["camp"], p["hand"]) for p in scenario.players]
    steps = Trace()
    state = start_game(seats, ap=scenario.ap, start=scenario.start, tracer=steps)
    lines: list[str] = []
    for plan in scenario.phases:
        lines.append(f"== {state.phase_label} ==")
        for message in by_message(plan.steps):
            state, verdicts = submit_message(state, [s.inp for s in message])
            for step, verdict in zip(message, verdicts, strict=True):
                said = codec.describe_item(codec.from_engine(step.inp))
                kind = input_kind(step.inp)
                input_step(steps, step.inp.by, said, verdict.accepted, verdict.reason, verdict.cost, kind)
        state, result = end_phase(state, steps)
        lines += steps.lines
        steps = Trace()
        if result.winner:
            break
        state, _ = open_phase(state, steps)
    return lines


__all__ = [
    "Counter",
    "PhasePlan",
    "Scenario",
    "ScenarioError",
    "ScenarioStep",
    "by_message",
    "load",
    "minutes",
    "mismatches",
    "play",
    "trace",
]
