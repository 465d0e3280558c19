"""Previews: what a write would do, shown before the 天神 (or a player) confirms it.

One mechanism for every preview that must store to know: `rolled_back(write)` runs the write itself inside a
savepoint, keeps what it returned and rolls everything back — the preview is the confirm, not a copy of it (a PM or a
bulk paste entered out of forum order, a player's form, a substitution, a correction, a void). A preview the pure
engine can answer stores nothing at all: the open phase's dawn or dusk post as it would read if the phase closed now
(`close_preview`, `end_preview`), from the one close calculation (`closing.calculate`), so what the 天神 reads is word
for word what the close would draft.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.db import transaction
from django.utils import timezone

from moderator import rules
from moderator.game.state import CloseResult
from moderator.game.trace import Trace
from moderator.models import Game, Phase
from moderator.rules import views as rule_views
from moderator.selectors import open_phase_of
from moderator.services import closing, explain, storage, verdicts

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
    game: Game, phase: Phase, ends_at=None, state: rules.GameState | None = None, *, traced: bool = False
) -> dict | None:
    """The close the phase would give, from the one close calculation (`closing.calculate`), computed once: its public
    post, its result, the executions it announces and the digest of its outcome. `ends_at`: when the phase would end
    (its deadline, or now for an early end, T5): the next phase starts then. `state`: the game now, when the caller
    has replayed it already (a page replays once). `traced`: with each line of its post and the steps of that same close
    behind it (`why`)."""
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
        "digest": verdicts.result_digest(closed.result),
        "why": explain.why(post.text, list(steps), [s.name for s in state.seats]) if steps is not None else [],
    }


def close_preview(game: Game, state: rules.GameState | None = None) -> dict | None:
    """Whichever of the two the open phase has (`state`: the caller's replay of the game now, if it has one), with
    each line of its post and the steps of its close behind it (the dashboard's 为什么 panel)."""
    phase = open_phase_of(game)
    return _close_post(game, phase, state=state, traced=True) if phase else None


def end_preview(game: Game, state: rules.GameState | None = None) -> dict | None:
    """T5: the post the open phase would draft if the 天神 ended it now (the next phase then starts now), with the
    digest of that close, which the end-early confirmation carries (clock.phase_end_early(seen=…))."""
    phase = open_phase_of(game)
    return _close_post(game, phase, ends_at=timezone.now(), state=state) if phase else None


def close_result(state: rules.GameState) -> CloseResult | None:
    """What closing the open phase of `state` now would give (its tally, its executions), nothing stored; None when
    no phase is open."""
    return closing.resolve(state)[1] if state.phase_open else None
