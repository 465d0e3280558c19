"""Previews: what a write would do, shown before the 天神 (or a player) confirms it.

One mechanism for every preview that must store to know: `rolled_back(write)` runs the write itself inside a
savepoint, keeps what it returned and rolls everything back — the preview is the confirm, not a copy of it (a PM or a
bulk paste entered out of forum order, a player's form, a substitution, a correction, a void). A preview the pure
engine can answer stores nothing at all: the open phase's dawn or dusk post as it would read if the phase closed now
(`close_preview`, `end_preview`), from the one close calculation (`closing.calculate`), so what the 天神 reads is word
for word what the close would draft; on night 1 with the orders O1 would draw, judged unsaved: at the deadline
after the stored inputs (`storage.judged_after`), for an early end where their time places them
(`storage.game_replay(unsaved=…)`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from django.db import transaction
from django.utils import timezone

from moderator import rules
from moderator.game.state import CloseResult, Verdict
from moderator.game.trace import Trace
from moderator.models import Game, Input, Phase
from moderator.rules import codec
from moderator.rules import views as rule_views
from moderator.selectors import open_phase_of
from moderator.services import closing, explain, play, storage, verdicts

T = TypeVar("T")


class _RolledBack(Exception):
    """Leaves the savepoint of `rolled_back` (never seen outside it)."""


def rolled_back(write: Callable[[], T]) -> T:
    """What `write` returns, with nothing it wrote kept: run inside a savepoint (a transaction of its own outside
    one) that is rolled back. An error of the write is raised as is (nothing kept either)."""
    done: list[T] = []
    try:
        with transaction.atomic():
            done.append(write())
            raise _RolledBack
    except _RolledBack:
        pass
    return done[0]


def _close_post(
    game: Game,
    phase: Phase,
    ends_at=None,
    state: rules.GameState | None = None,
    *,
    traced: bool = False,
    drawn: Sequence[Input] = (),
) -> dict | None:
    """The close the phase would give, from the one close calculation (`closing.calculate`), computed once: its public
    post, its result, the executions it announces and the digest of its outcome. `ends_at`: when the phase would end
    (its deadline, or now for an early end, T5): the next phase starts then. `state`: the game now, when the caller
    has replayed it already (a page replays once). `traced`: with each line of its post and the steps of that same close
    behind it (`why`). `drawn`: the orders O1 would draw with this close, judged in `state` already: the digest
    covers them."""
    state = state if state is not None else storage.game_replay(game).state
    if not state.phase_open:  # the replay found no open phase to close (a page must not fail on it)
        return None
    steps = Trace() if traced else None
    closed = closing.calculate(game, phase, state, ends_at=ends_at, tracer=steps)
    post = closed.post  # the public post: dawn after a night, dusk after a day
    name = "天亮公告" if phase.kind == Phase.Kind.NIGHT else "天黑公告(投票结果)"
    return {
        "kind": phase.kind,
        "phase": phase,
        # What it computes, said: the dashboard's close at the deadline, the end-early page's close now (T5).
        "title": f"预览:如果{phase.label}现在提前结束,{name}会是这样"
        if ends_at is not None
        else f"预览:{phase.label}按时结束({timezone.localtime(phase.ends_at):%m-%d %H:%M})时,按现在的输入,{name}会是这样",
        "bbcode": post.bbcode,
        "text": post.text,
        "as_of": timezone.now(),
        "executed": list(closed.result.executed),
        "died": list(closed.result.died),
        "window": closed.result.window,
        "result": closed.result,
        "executions": rule_views.executions_preview(state, closed=(closed.state, closed.result)),
        "digest": verdicts.result_digest(closed.result, drawn),
        "why": explain.why(post.text, list(steps), [s.name for s in state.seats]) if steps is not None else [],
    }


def close_preview(game: Game, replay: storage.Replay | None = None) -> dict | None:
    """The close the open phase gives if it closes on time (`replay`: the caller's replay of the game now, if it has
    one; the replay is left as it is, the stored log: a page reads who has not acted or sent an order from it), with
    each line of its post and the steps of its close behind it (the dashboard's 为什么 panel). On night 1, with the
    orders O1 draws at the deadline for the seats that sent none (`play.default_orders` at the phase's end), judged
    after the stored inputs as the close judges them (`storage.judged_after`), and each as a sentence (`drawn`)."""
    phase = open_phase_of(game)
    if phase is None:
        return None
    replay = replay if replay is not None else storage.game_replay(game)
    drawn, state = play.judged_on_time(game, phase, replay)
    shown = _close_post(game, phase, state=state, traced=True, drawn=drawn)
    if shown is not None:
        shown["drawn"] = [drawn_sentence(rec, replay.names) for rec in drawn]
    return shown


def close_on_time(
    game: Game, phase: Phase, replay: storage.Replay, *, judged: Mapping[int, Verdict] | None = None
) -> tuple[list[Input], closing.Closed]:
    """The open `phase` of `replay` closed as the clock closes it at its deadline, from the one close calculation: on
    night 1 with the orders O1 draws then for the seats that sent none (`play.default_orders` at the phase's end,
    `judged`: the replay's verdicts when they are not stored, a preview inside a savepoint), judged after the stored
    inputs (`storage.judged_after`). The orders drawn, and the close. A void's and a correction's preview compare
    this close before and after (the replay of each side: no other)."""
    drawn, state = play.judged_on_time(game, phase, replay, judged=judged)
    return drawn, closing.calculate(game, phase, state)


def end_preview(game: Game) -> dict | None:
    """T5: what the end-early page shows of the open `phase`, from one replay and one close: who has not acted yet
    (`waiting`); the orders O1 would draw if the 天神 ended night 1 now (`play.default_orders`, judged unsaved,
    nothing stored): whose (`orders_missing`) and each as a sentence (`drawn`); and the post the phase would draft if
    ended now with those orders (`post`; the next phase then starts now), with the digest of that close and those
    orders, which the end-early confirmation carries (clock.phase_end_early(seen=…)). None when no phase is open."""
    phase = open_phase_of(game)
    if phase is None:
        return None
    now = timezone.now()
    drawn = play.default_orders(game, phase, at=now)
    replay = storage.game_replay(game, unsaved=drawn)
    return {
        "phase": phase,
        "waiting": rule_views.not_acted(replay.state),
        "orders_missing": [rec.seat.player_name for rec in drawn],
        "drawn": [drawn_sentence(rec, replay.names) for rec in drawn],
        "post": _close_post(game, phase, ends_at=now, state=replay.state, drawn=drawn),
    }


def drawn_sentence(rec: Input, names: Mapping[int, str]) -> str:
    """An order O1 draws, as the 天神 reads it: `阿飞 的丢牌顺序:庶民、…、狙击手〔底牌〕(系统随机,O1)`."""
    return f"{rec.seat.player_name} 的{codec.describe(rec.kind, rec.payload, names)}"


def close_result(state: rules.GameState) -> CloseResult | None:
    """What closing the open phase of `state` now would give (its tally, its executions), nothing stored; None when
    no phase is open."""
    return closing.resolve(state)[1] if state.phase_open else None
