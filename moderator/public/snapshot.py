"""What every page request reads first: the game and a fingerprint of everything a page shows (one query) — and the
live countdown.

The fingerprint changes whenever a page may change: an input (Game.input_seq), a GM act (every one is audited:
voids, corrections, pauses, extensions, early ends, token rotations), a substitute (a new seat holder, S5), a close
(a new phase, or the game's status and winner). The pages cache what they render under it, so a request costs this
one query until something happens in the game. A change made without an audit row (an edit in the Django admin) shows
when the cache entry expires (views.CACHE_SECONDS).

The query is written as SQL and read with a plain cursor (it returns only strings, integers and NULLs): it runs on
every request, and building it through the query compiler took longer than running it.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from django.db import connection
from django.utils import timezone
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe

from moderator.models import AuditLog, Game, Phase, Seat, SeatHolder

MIN_TOKEN_CHARS = 22  # secrets.token_urlsafe: 22 characters carry 128 bits; shorter cannot be a seat's link
MAX_TOKEN_CHARS = cast(int, Seat._meta.get_field("token").max_length)  # a CharField: its max_length is set


def _stamps(game_id: str) -> str:
    """SQL columns for the game `game_id`: the newest audit row (every GM act: voids, corrections, pauses,
    extensions, early ends, token rotations), the newest seat holder (a substitute, S5) and the newest phase (a
    close). Each extra subquery costs PostgreSQL more to plan than to run, so only these."""
    audit, holder, seat, phase = (m._meta.db_table for m in (AuditLog, SeatHolder, Seat, Phase))
    return ", ".join(
        (
            f"(SELECT MAX(a.id) FROM {audit} a WHERE a.game_id = {game_id}) AS audit_max",
            f"(SELECT MAX(h.id) FROM {holder} h JOIN {seat} hs ON hs.id = h.seat_id WHERE hs.game_id = {game_id})"
            " AS holder_max",
            f"(SELECT MAX(p.id) FROM {phase} p WHERE p.game_id = {game_id}) AS phase_max",
        )
    )


GAME_COLUMNS = "g.id, g.name, g.status, g.winner, g.input_seq, g.order_seed"
GAME_SQL = f"SELECT {GAME_COLUMNS}, {_stamps('g.id')} FROM {Game._meta.db_table} g WHERE g.id = %s"
SEAT_SQL = (
    f"SELECT {GAME_COLUMNS}, s.id, s.number, s.player_name, s.camp, {_stamps('g.id')} "
    f"FROM {Game._meta.db_table} g "
    f"JOIN {Seat._meta.db_table} s ON s.game_id = g.id WHERE s.token = %s"
)
PHASES_SQL = (
    f"SELECT id, game_id, kind, number, starts_at, ends_at, status, paused_remaining, announced_end, result, snapshot "
    f"FROM {Phase._meta.db_table} "
    "WHERE game_id = %s ORDER BY starts_at, id"
)
STAMPS = ("audit_max", "holder_max", "phase_max")


@dataclass
class Snapshot:
    """The game as one query found it (the few columns a page header needs) and the fingerprint of what the pages
    show; the phases and the whole game row are read only when a page has to be built (a cache miss) or the visitor
    is signed in."""

    game: Game
    key: str
    _phases: list[Phase] | None = None
    _full: Game | None = None

    @property
    def phases(self) -> list[Phase]:
        if self._phases is None:
            self._phases = list(Phase.objects.raw(PHASES_SQL, [self.game.pk]))
        return self._phases

    @property
    def full_game(self) -> Game:
        if self._full is None:
            self._full = Game.objects.get(pk=self.game.pk)
        return self._full

    @property
    def current(self) -> Phase | None:
        """The open phase, or the last one when none is open (a finished game)."""
        open_ = [p for p in self.phases if p.status == Phase.Status.OPEN]
        return open_[-1] if open_ else (self.phases[-1] if self.phases else None)


def _row(sql: str, param) -> tuple | None:
    """One row of plain values (strings, integers, NULLs: nothing a backend converts differently)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, [param])
        return cursor.fetchone()


def _snapshot(row: tuple) -> Snapshot:
    pk, name, status, winner, input_seq, order_seed = row[:6]
    game = Game(id=pk, name=name, status=status, winner=winner, input_seq=input_seq, order_seed=order_seed)
    # order_seed is random: a new game that reuses a deleted game's id never meets its cache.
    parts = (pk, order_seed, status, winner, input_seq, *row[-len(STAMPS) :])
    return Snapshot(game, hashlib.sha256(repr(parts).encode()).hexdigest()[:32])


def game_snapshot(game_id: int) -> Snapshot | None:
    """One query: the game with its stamps."""
    row = _row(GAME_SQL, game_id)
    return None if row is None else _snapshot(row)


def seat_by_token(token: str) -> tuple[Seat, Snapshot] | None:
    """One query: the game and the seat whose private link this is. A string that cannot be a token is refused
    without asking the database."""
    if not MIN_TOKEN_CHARS <= len(token) <= MAX_TOKEN_CHARS:
        return None
    row = _row(SEAT_SQL, token)
    if row is None:
        return None
    snap = _snapshot(row)
    seat_pk, number, player, camp = row[6:10]
    seat = Seat(id=seat_pk, game=snap.game, number=number, player_name=player, camp=camp, token=token)
    return seat, snap


# --- the clock (its text is live on every request) ----------------------------------------------------------------


@dataclass(frozen=True)
class Deadline:
    """What the countdown needs, fixed as long as the fingerprint is (so it is cached with the page)."""

    state: str  # setup | over | paused | open
    label: str = ""
    ends_at: datetime | None = None
    paused_left: float = 0


def deadline(snap: Snapshot) -> Deadline:
    """The current phase's end (T1), or its remaining time frozen while the game is paused (T4)."""
    phase, game = snap.current, snap.game
    if phase is None:
        return Deadline("setup")
    if game.status == Game.Status.FINISHED or phase.status == Phase.Status.CLOSED:
        return Deadline("over", phase.label)
    if game.status == Game.Status.PAUSED:
        left = phase.paused_remaining.total_seconds() if phase.paused_remaining else 0
        return Deadline("paused", phase.label, paused_left=left)
    return Deadline("open", phase.label, ends_at=phase.ends_at)


def duration(seconds: float) -> str:
    s = max(int(seconds), 0)
    h, m = divmod(s // 60, 60)
    return f"{h} 小时 {m} 分 {s % 60} 秒" if h else f"{m} 分 {s % 60} 秒"


def clock_html(d: Deadline, now: datetime | None = None) -> str:
    """The countdown paragraph, rendered now; the inline ticker (templates/public/_ticker.html) counts `data-left`
    down in the browser."""
    if d.state == "setup":
        inner = mark_safe("游戏尚未开始。")
    elif d.state == "over":
        inner = format_html("{}已结束。", d.label)
    elif d.state == "paused":
        inner = format_html("<strong>{}</strong> · 游戏已暂停,本时段还剩 {}。", d.label, duration(d.paused_left))
    else:
        assert d.ends_at is not None  # an open phase has a deadline
        left = int((d.ends_at - (now or timezone.now())).total_seconds())
        if left <= 0:
            inner = format_html("<strong>{}</strong> · 已到截止时间,等待天神结算。", d.label)
        else:  # every request of a cached page renders this: plain formatting of escaped text (format_html is slow)
            return mark_safe(
                f'<p class="clock"><strong>{escape(d.label)}</strong> · 还剩 <span class="countdown-left" '
                f'data-left="{left}">{duration(left)}</span>(截止于北京时间 {_ends_text(d.ends_at)})</p>'
            )
    return format_html('<p class="clock">{}</p>', inner)


@functools.lru_cache(maxsize=1024)
def _ends_text(ends_at: datetime) -> str:
    ends = timezone.localtime(ends_at)
    return f"{ends.month}月{ends.day}日 {ends.strftime('%H:%M')}"
