"""The phase clock (T1, T4, T5): deadlines are data, closing is safe to run twice, the GM's controls are logged.

Every service here locks the game row before it touches a phase, the same order as the input services
(`base.game_lock`), so a close racing a pause, an extension or an input waits for it instead of deadlocking. Times are
the database's clock: the close's compare-and-set (`storage.close_claim`, or closesql's WRITE) trusts nothing else.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, OperationalError, transaction
from django.db.models import F, QuerySet
from django.db.models.functions import Now
from django.template.loader import render_to_string

from moderator import rules
from moderator.models import Announcement, AuditLog, Game, Phase
from moderator.rules import views
from moderator.selectors import has_open_phase
from moderator.services import audit, closesql, closing, play, versions
from moderator.services.announce import clock_notice
from moderator.services.base import db_now, game_lock
from moderator.services.drafts import bbcode_plain, count
from moderator.services.errors import PlayError
from moderator.services.once import Once, spend
from moderator.services.storage import game_replay, require_open_phase
from moderator.services.verdicts import result_digest

_log = logging.getLogger(__name__)

SUBSTITUTION_EXTENSION = timedelta(hours=12)  # T4: 交替期
MAX_EXTENSION = timedelta(days=30)  # a longer extension (hours=1e10) would overflow the end time
QUARANTINE_AFTER = 3  # failed closes of one phase before the sweeper leaves it to the 天神


# --- selectors ----------------------------------------------------------------------------------------------------


def due_phases(now: datetime | None = None) -> QuerySet[Phase]:
    """Open phases of running games whose end time has come, oldest deadline first (a paused game never is due, nor
    a quarantined phase)."""
    return Phase.objects.filter(
        status=Phase.Status.OPEN,
        ends_at__lte=now or Now(),
        game__status=Game.Status.RUNNING,
        close_failures__lt=QUARANTINE_AFTER,
    ).order_by("ends_at", "pk")


def phases_ending_within(window: timedelta) -> QuerySet[Phase]:
    """Open phases of running games that end in the next `window` (the short-ETA trigger)."""
    now = db_now()
    return Phase.objects.filter(
        status=Phase.Status.OPEN, ends_at__gt=now, ends_at__lte=now + window, game__status=Game.Status.RUNNING
    ).order_by("ends_at", "pk")


def waiting_for(game: Game) -> list[str]:
    """T5: the living players the GM is still waiting for (the rules' view of the state now)."""
    if not has_open_phase(game):
        return []
    return views.not_acted(game_replay(game).state)


# --- closing ------------------------------------------------------------------------------------------------------


def phase_close_due(*, phase_id: int, now: datetime | None = None, skip_locked: bool = False) -> bool:
    """Close one phase if its end time has come, exactly once however many callers race (T1).

    The game row is locked first; the second of two closers waits and then finds nothing to do (the close's
    compare-and-set). With `skip_locked` a closer that finds the game locked leaves it to whoever holds it — a sweep
    never queues behind another close; if the holder rolls back, the next sweep finds the phase still due."""
    with transaction.atomic():
        # One statement: the phase and its game, the game row locked (only it: the one lock order).
        for game, phase in _locked([phase_id], skip_locked=skip_locked):
            return _close(game, phase, now)
        return False


def _locked(phase_ids: list[int], *, skip_locked: bool) -> list[tuple[Game, Phase]]:
    """The phases and their games, game rows locked, in game order (closesql.lock on PostgreSQL)."""
    if closesql.usable():
        return closesql.lock(phase_ids, skip_locked=skip_locked)
    locked = Phase.objects.select_related("game").select_for_update(skip_locked=skip_locked, of=("game",))
    return [(phase.game, phase) for phase in locked.filter(pk__in=phase_ids).order_by("game_id", "pk")]


def _read_many(locked: list[tuple[Game, Phase]]) -> dict[int, tuple]:
    """On PostgreSQL, the read of every close of a batch in one statement (closesql.read_many) — only of the phases
    it may close, and only when no two are of one game (a close writes its game's next phase: the other's read would
    be stale)."""
    if not closesql.usable() or len({game.pk for game, _ in locked}) != len(locked):
        return {}
    return closesql.read_many(
        [(g, p) for g, p in locked if p.status == Phase.Status.OPEN and g.status == Game.Status.RUNNING]
    )


def _close(game: Game, phase: Phase, now: datetime | None, read: tuple | None = None) -> bool:
    """The close under the caller's game lock, with its `phase_close` log row in the same transaction (so: one per
    close): the one close calculation (`closing.calculate`) written by closesql on PostgreSQL (two more statements: one
    read, one write that stores everything and the log row, or nothing), through the ORM where closesql says so
    (`play.phase_close_locked`)."""
    if closesql.usable():
        done = closesql.close(game, phase, now, read)
        if done:
            versions.bump_on_commit(game.pk)  # pages: a new version after the commit
        if done is not None:
            return done
    return play.phase_close_locked(game=game, phase=phase, now=now, logged=True)


def sweep(now: datetime | None = None) -> int:
    """Close every overdue open phase of a running game, in batches of CLOCK_BATCH_SIZE (one transaction each);
    returns how many this call closed. One game that fails is logged and left for the next sweep; it does not stop
    the others."""
    due = list(due_phases(now).values_list("pk", flat=True))
    size = settings.CLOCK_BATCH_SIZE
    return sum(close_batch(due[i : i + size], now=now) for i in range(0, len(due), size))


class _ResolutionFailed(Exception):
    def __init__(self, phase_id: int):
        self.phase_id = phase_id


def close_batch(phase_ids: list[int], *, now: datetime | None = None) -> int:
    """Close these phases if due, all in one transaction (a close costs its BEGIN, COMMIT and fsync once per batch):
    the games not held by another closer are locked first, in one statement (FOR UPDATE SKIP LOCKED, game rows only:
    the one lock order), then each phase is closed exactly as alone (`_close`: the same compare-and-set, snapshot,
    drafts and log row). A game whose close raises is left out: the batch is rolled back and closed again without it,
    and that game is closed alone (`close_each`: a second failure is counted and reported). A database error
    falls back to one-by-one closes. Returns how many this call closed."""
    if len(phase_ids) <= 1:
        return close_each(phase_ids, now=now)
    try:
        with transaction.atomic():
            closed = 0
            locked = _locked(phase_ids, skip_locked=True)
            reads = _read_many(locked)
            for game, phase in locked:
                try:
                    closed += _close(game, phase, now, reads.get(phase.pk))
                except DatabaseError:
                    raise
                except Exception as exc:
                    raise _ResolutionFailed(phase.pk) from exc
            return closed
    except _ResolutionFailed as failed:
        _log.warning("phase %s: close failed in a batch (%s); closing it alone", failed.phase_id, failed.__cause__)
        rest = [pk for pk in phase_ids if pk != failed.phase_id]
        return close_each([failed.phase_id], now=now) + close_batch(rest, now=now)
    except DatabaseError as exc:
        _log.warning("a batch of %s closes failed (%s); closing them one by one", len(phase_ids), exc)
        return close_each(phase_ids, now=now)


def close_each(phase_ids: list[int], *, now: datetime | None = None) -> int:
    """Close these phases if due, each in its own transaction, skipping a game another closer holds; returns how
    many this call closed. A transient failure is left for the next sweep; any other is counted on the phase, and
    after QUARANTINE_AFTER of them the phase is quarantined: no sweep tries it again, the dashboard shows why."""
    closed = 0
    for phase_id in phase_ids:
        try:
            closed += phase_close_due(phase_id=phase_id, now=now, skip_locked=True)
        except OperationalError as exc:  # transient: SQLite's "database is locked", a dropped connection
            _log.warning("phase %s: close failed (%s); the next sweep tries again", phase_id, exc)
        except Exception as exc:
            _log.exception("phase %s: close failed", phase_id)
            _close_failed(phase_id, exc)
    return closed


def _close_failed(phase_id: int, exc: Exception) -> None:
    error = f"{type(exc).__name__}: {exc}"[:500]
    Phase.objects.filter(pk=phase_id).update(close_failures=F("close_failures") + 1, close_error=error)
    if Phase.objects.filter(pk=phase_id, close_failures__gte=QUARANTINE_AFTER).exists():
        _log.error("phase %s: quarantined after %s failed closes: %s", phase_id, QUARANTINE_AFTER, error)


# --- the GM's controls (T4, T5, pause) ----------------------------------------------------------------------------


def _lock(game: Game) -> Game:
    return game_lock(game)


def _open_phase(game: Game) -> Phase:
    return Phase.objects.select_for_update().get(pk=require_open_phase(game).pk)


def _audit(game: Game, action: AuditLog.Action, actor, **detail) -> AuditLog:
    return audit.record(
        game, actor, action, {k: v.isoformat() if isinstance(v, datetime) else v for k, v in detail.items()}
    )


def _require(game: Game, status: str, doing: str) -> None:
    if game.status != status:
        raise PlayError(f"{doing}需要游戏处于“{Game.Status(status).label}”状态,现在是“{game.get_status_display()}”")


@transaction.atomic
def phase_extend(
    *, game: Game, by: timedelta, actor=None, reason: str = "", once: Once | None = None, notice: bool = True
) -> Phase:
    """T4: lengthen the current phase — 12 hours when a substitute takes a seat (SUBSTITUTION_EXTENSION; its own
    notice says so: `notice=False`), or any amount the GM chooses, with a public notice of the new deadline drafted.
    On a paused game the remaining time grows instead."""
    if not timedelta(0) < by <= MAX_EXTENSION:
        raise PlayError("延长的时间必须大于零,且不超过 30 天")
    game = _lock(game)
    spend(game, once, "延长时段")
    phase = _open_phase(game)
    if game.status == Game.Status.PAUSED:
        phase.paused_remaining = (phase.paused_remaining or timedelta(0)) + by
        phase.save(update_fields=["paused_remaining"])
    else:
        _require(game, Game.Status.RUNNING, "延长时段")
        phase.ends_at += by
        phase.save(update_fields=["ends_at"])
    if phase.close_failures:  # a quarantined phase: extending it gives the sweeper a fresh start at the new end
        phase.close_failures, phase.close_error = 0, ""
        phase.save(update_fields=["close_failures", "close_error"])
    _audit(
        game,
        AuditLog.Action.PHASE_EXTEND,
        actor,
        phase=phase.label,
        by_s=by.total_seconds(),
        ends_at=phase.ends_at,
        reason=reason,
    )
    if notice:
        clock_notice(game=game, phase=phase, what="extend", by=by, reason=reason)
    return phase


@transaction.atomic
def phase_end_early(
    *, game: Game, actor=None, force: bool = False, once: Once | None = None, seen: str | None = None
) -> Phase:
    """T5: end the current phase now, once every living player has acted (`waiting_for` names who has not; `force`
    ends it anyway and the log says so). The phase then closes like any other, its end time set to now; ending night 1
    draws O1's orders for the seats that sent none (`play.default_orders_assign`; `force` again), stored at that end
    before the close. `seen`: the digest (`verdicts.result_digest`) of the close and the drawn orders the confirmation
    page showed ("" when none was shown: refused); the close is calculated once, under the game's lock, with those
    orders, and if it or they differ from the ones shown (an input entered or voided since) nothing ends — no order,
    end time, log row or draft is kept — and the 天神 is asked to look again; else that very close is stored. None (the
    services' own callers: tests, scenarios) checks nothing."""
    game = _lock(game)
    spend(game, once, "提前结束")
    _require(game, Game.Status.RUNNING, "提前结束时段")
    phase = _open_phase(game)
    if seen == "":
        raise PlayError(f"提前结束{phase.label}请从确认页操作:它先显示结束后会发出的公告(T5)。")
    now = db_now()
    planned = phase.ends_at
    # T5: the announced end stays the reference of every cutoff (T3, D3); the phase closes now.
    phase.announced_end, phase.ends_at = planned, now
    phase.save(update_fields=["announced_end", "ends_at"])
    drawn = play.default_orders_assign(game=game, phase=phase)  # O1: at night 1's end, before it resolves
    replay = game_replay(game)  # a refusal below raises inside the transaction: nothing above is kept
    state = replay.state
    waiting = views.not_acted(state)
    if waiting and not force:
        raise PlayError(f"还有人没有行动:{'、'.join(waiting)}(T5)")
    orders = [rec.seat.player_name for rec in drawn]
    if orders and not force:
        raise PlayError(f"还没有收到丢牌顺序:{'、'.join(orders)};现在结束,系统会为他们随机决定(O1)")
    closed = closing.calculate(game, phase, state, replay.judged())
    if seen is not None and result_digest(closed.result, drawn) != seen:
        raise PlayError(
            f"{phase.label}的结算结果和确认页上显示的不同(其间有输入被录入或作废):什么都没有结束,请看过新的预览后再确认。"
        )
    play.phase_close_locked(game=game, phase=phase, now=now, logged=True, calculated=(replay, closed))
    more = {"orders_missing": orders} if orders else {}
    _audit(
        game,
        AuditLog.Action.PHASE_END_EARLY,
        actor,
        phase=phase.label,
        planned_end=planned,
        ended_at=now,
        not_acted=waiting,
        **more,
    )
    return phase


@transaction.atomic
def game_pause(*, game: Game, actor=None, once: Once | None = None) -> Game:
    """Stop the clock: the open phase keeps its remaining time (paused_remaining) and the sweep skips the game."""
    game = _lock(game)
    spend(game, once, "暂停")
    _require(game, Game.Status.RUNNING, "暂停")
    phase = _open_phase(game)
    phase.paused_remaining = max(phase.ends_at - db_now(), timedelta(0))
    phase.save(update_fields=["paused_remaining"])
    game.status = Game.Status.PAUSED
    game.save(update_fields=["status"])
    _audit(
        game, AuditLog.Action.GAME_PAUSE, actor, phase=phase.label, remaining_s=phase.paused_remaining.total_seconds()
    )
    clock_notice(game=game, phase=phase, what="pause")
    return game


@transaction.atomic
def game_resume(*, game: Game, actor=None, once: Once | None = None) -> Game:
    """Restart the clock: the open phase ends its remaining time from now."""
    game = _lock(game)
    spend(game, once, "继续")
    _require(game, Game.Status.PAUSED, "继续")
    phase = _open_phase(game)
    remaining = phase.paused_remaining or timedelta(0)
    phase.ends_at, phase.paused_remaining = db_now() + remaining, None
    phase.save(update_fields=["ends_at", "paused_remaining"])
    game.status = Game.Status.RUNNING
    game.save(update_fields=["status"])
    _audit(
        game,
        AuditLog.Action.GAME_RESUME,
        actor,
        phase=phase.label,
        remaining_s=remaining.total_seconds(),
        ends_at=phase.ends_at,
    )
    clock_notice(game=game, phase=phase, what="resume")
    return game


# --- V4: the declared draw ----------------------------------------------------------------------------------------

DRAW_RESULT = "平局"


def draw_shown(game: Game, state: rules.GameState | None = None) -> bool:
    """V4: what the dashboard shows — no survivor holds an attack and the last two counts were deadlocked. `state`:
    the game now, when the caller has replayed it already."""
    if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED):
        return False
    results = list(
        game.phases.filter(status=Phase.Status.CLOSED).order_by("starts_at", "id").values_list("result", flat=True)
    )
    state = state if state is not None else game_replay(game).state
    return views.deadlock(state, [r for r in results if r])


@transaction.atomic
def game_declare_draw(*, game: Game, actor=None, once: Once | None = None) -> Announcement:
    """V4: the 天神 declares a draw because the survivors cannot eliminate each other. The game ends now, winner 平局;
    the open phase is not resolved (nothing of it takes effect) and no input is accepted any more. The log says
    whether the system showed the deadlock (the 天神 may judge otherwise); the post is drafted to the outbox."""
    game = _lock(game)
    spend(game, once, "宣布平局")
    if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED):
        raise PlayError(f"只有进行中或暂停的游戏可以宣布平局,这局现在是“{game.get_status_display()}”")
    phase = _open_phase(game)
    shown = draw_shown(game)
    alive = [s.name for s in game_replay(game).state.alive]
    game.status, game.winner = Game.Status.FINISHED, DRAW_RESULT
    game.save(update_fields=["status", "winner"])
    _audit(game, AuditLog.Action.GAME_DECLARE_DRAW, actor, phase=phase.label, deadlock_shown=shown, alive=alive)
    ctx = {"game": game, "phase": phase, "alive": alive, "left": count(len(alive))}
    bbcode = render_to_string("announcements/draw.bbcode", ctx).strip()
    return Announcement.objects.create(
        game=game,
        phase=phase,
        kind=Announcement.Kind.DUSK if phase.kind == Phase.Kind.DAY else Announcement.Kind.DAWN,
        title=f"【{game.name}】{phase.label}:天神宣布平局",
        bbcode=bbcode,
        text=bbcode_plain(bbcode),
        events=[{"type": "declared_draw", "alive": alive}],
    )
