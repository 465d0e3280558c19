"""Writing inputs: one path for every input of the open phase.

An `Entry` is one message's inputs (actions, vote posts, discard orders, a pass, in the codec's vocabulary) from one
seat at one forum time. `write` stores them in the log and judges them by continuing the open phase's replay, and
returns what it did (`Written`); `store` only appends them to the log (a correction's input of a closed phase, judged
by the replay that follows). The console's forms, a PM, a bulk paste, a player's own page and a scenario all write
through `write`; its preview is the same write rolled back (services.preview.rolled_back).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db import transaction

from moderator import rules
from moderator.game.state import Verdict
from moderator.models import Game, Input, Message, Phase, Seat
from moderator.rules import codec
from moderator.services import inputlog
from moderator.services.base import game_lock
from moderator.services.closing import check_forum_time
from moderator.services.closing import minutes_into as _minutes
from moderator.services.errors import PlayError
from moderator.services.once import Once, spend
from moderator.services.play import seat_numbers
from moderator.services.storage import Replay, game_replay, replay_save
from moderator.services.verdicts import EntryOutcome, check_seen, later_inputs, verdict_changes


@dataclass(frozen=True)
class Entry:
    """One message's inputs: who sent them (`seat`), what (`items`, the codec's vocabulary), when (`forum_at`); the
    stored raw message they came from, who entered them, and what the message is besides its inputs (`context`,
    intake.pm_context: part of the digest the 天神 confirms)."""

    seat: Seat
    items: Sequence[dict]
    forum_at: datetime
    message: Message | None = None
    entered_by: Any = None
    context: Sequence[str] = ()


@dataclass(frozen=True)
class Written:
    """What a write did: the stored inputs with their verdicts, the outcome the 天神 is shown (and its digest), and
    the replay after it (the caller's replay is left as it was)."""

    inputs: list[Input]
    verdicts: list[Verdict]
    outcome: EntryOutcome
    replay: Replay

    @property
    def first(self) -> tuple[Input, Verdict]:
        """The one input of a one-item entry, with its verdict."""
        return self.inputs[0], self.verdicts[0]


def store(game: Game, phase: Phase, entry: Entry, *, seat_of: dict[str, int] | None = None) -> list[Input]:
    """Append the entry's inputs to the log of `phase`, in one insert, unjudged (the caller holds the game lock and
    replays). Unknown players are refused before anything is written."""
    seat_of = seat_of if seat_of is not None else seat_numbers(game)
    try:
        encoded = [codec.encode(item, seat_of) for item in entry.items]
    except codec.CodecError as exc:
        raise PlayError(str(exc)) from exc
    if not encoded:
        return []
    return inputlog.append(
        game=game,
        phase=phase,
        seat=entry.seat,
        encoded=encoded,
        forum_at=entry.forum_at,
        message=entry.message,
        entered_by=entry.entered_by,
    )


@transaction.atomic
def write(
    game: Game, entry: Entry, *, once: Once | None = None, seen: str | None = None, replay: Replay | None = None
) -> Written:
    """Store the entry's inputs in the open phase and judge them, under the game lock. A message sent at or after
    every input already entered for the phase (the usual case) is judged by continuing the open phase's replay —
    `replay`, if the caller made one under this lock, or one from the last snapshot; a message entered out of forum
    order replays the phase again, since it may change the verdicts after it (T3, AP4, N-kill). A repeated or stale
    submit (`once`) stores nothing.

    Nothing changes a verdict the 天神 has not seen: `seen` is the `EntryOutcome.digest` the 天神 was shown, or ""
    when nothing was shown (a form without a preview) — then the write is refused (`verdicts.NotAsSeen`, nothing
    stored) if the outcome differs, or ("") if any other input's verdict would change. None checks nothing
    (previews, scenarios, commands)."""
    game = game_lock(game)
    if once is not None:
        spend(game, once, "录入输入")
    return write_locked(game, entry, seen=seen, replay=replay)


def write_locked(game: Game, entry: Entry, *, seen: str | None = None, replay: Replay | None = None) -> Written:
    """`write` for a caller that already holds the game lock (`game` is the row it locked) in its own transaction, as
    intake.pm_confirm does: no second lock, no savepoint. Raises before writing anything else."""
    if game.status == Game.Status.FINISHED:  # V4: a declared draw ends the game with its phase still open
        raise PlayError(f"这局游戏已经结束({game.winner}),不再接受输入")
    before = replay if replay is not None else game_replay(game)
    phase = next((p for p in reversed(before.phases) if p.status == Phase.Status.OPEN), None)
    if phase is None:
        raise PlayError("这局游戏现在没有进行中的时段")
    check_forum_time(phase, entry.forum_at)
    earlier = before.records.get(phase.pk, [])
    in_order = all(r.forum_at <= entry.forum_at for r in earlier)
    seat_of = {name: number for number, name in before.names.items()}
    recs = store(game, phase, entry, seat_of=seat_of)
    if in_order:
        after, judged = _continued(before, phase, entry, recs)
        outcome = EntryOutcome(judged)
    else:
        after = game_replay(game)
        new = frozenset(r.pk for r in recs)
        changes = verdict_changes(before, after, phase.pk, skip=new)
        judged = [after.verdicts[r.pk] for r in recs]
        outcome = EntryOutcome(judged, changes, later_inputs(before, phase, entry.forum_at))
    outcome.what = [codec.describe(r.kind, r.payload, after.names) for r in recs]
    outcome.context = list(entry.context)
    check_seen(outcome, seen)
    replay_save(after)
    return Written(recs, judged, outcome, after)


def _continued(before: Replay, phase: Phase, entry: Entry, recs: list[Input]) -> tuple[Replay, list[Verdict]]:
    """The open phase's replay continued by one message entered in forum order: a new replay (the old one as it was)
    and the message's verdicts."""
    at, by = _minutes(phase, entry.forum_at), entry.seat.player_name
    engine_inputs = [codec.to_engine(r.kind, r.payload, by=by, at=at, names=before.names) for r in recs]
    state, judged = rules.submit_message(before.state, engine_inputs)  # N-kill: one message, one count
    ids = [r.pk for r in recs]
    after = replace(
        before,
        state=state,
        records={**before.records, phase.pk: [*before.records.get(phase.pk, []), *recs]},
        fresh=before.fresh | set(ids),
        verdicts={**before.verdicts, **dict(zip(ids, judged, strict=True))},
    )
    return after, list(judged)


def vote_item(target: Seat | None, *, change: bool, edited: bool = False) -> dict:
    """A vote post (D1–D3) as an item: an original vote or a change post; an edited post without a target: the
    original target cannot be known (D3)."""
    return {("change" if change else "for"): target.player_name, "edited": edited} if target else {"edited": True}
