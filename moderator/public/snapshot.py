"""What every page request reads first: the game, its phases and a fingerprint of everything a page shows — and the
live countdown (never cached).

The fingerprint changes whenever a page may change: an input (Game.input_seq), a GM act (every one is audited: voids,
corrections, pauses, extensions, token rotations), a substitute (a new seat holder, S5), a close (phase status and a
new phase, new announcements), an extension or a pause (phase end and remaining time), the end of the game. The pages
cache their rendered bodies under it, so a request costs these two queries until something happens in the game.

The two queries are written as SQL (through the models' raw querysets, which still convert every column): they run on
every request, and building them through the query compiler took longer than running them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from moderator.models import Announcement, AuditLog, Game, Phase, Seat, SeatHolder

MIN_TOKEN_CHARS = 22  # secrets.token_urlsafe: 22 characters carry 128 bits; shorter cannot be a seat's link
MAX_TOKEN_CHARS = Seat._meta.get_field("token").max_length


def _stamps(game_id: str) -> str:
    """SQL columns: the newest row of each append-only table whose rows change a page, for the game `game_id`."""
    audit, holder, seat = AuditLog._meta.db_table, SeatHolder._meta.db_table, Seat._meta.db_table
    announcement = Announcement._meta.db_table
    return (
        f"(SELECT MAX(a.id) FROM {audit} a WHERE a.game_id = {game_id}) AS audit_max, "
        f"(SELECT MAX(h.id) FROM {holder} h JOIN {seat} hs ON hs.id = h.seat_id WHERE hs.game_id = {game_id})"
        " AS holder_max, "
        f"(SELECT MAX(n.id) FROM {announcement} n WHERE n.game_id = {game_id}) AS announcement_max"
    )


GAME_SQL = f"SELECT g.*, {_stamps('g.id')} FROM {Game._meta.db_table} g WHERE g.id = %s"
SEAT_SQL = (
    f"SELECT g.*, s.id AS seat_pk, s.number AS seat_number, s.player_name AS seat_player, s.camp AS seat_camp, "
    f"{_stamps('g.id')} FROM {Game._meta.db_table} g JOIN {Seat._meta.db_table} s ON s.game_id = g.id "
    "WHERE s.token = %s"
)
PHASES_SQL = (
    f"SELECT id, game_id, kind, number, starts_at, ends_at, status, paused_remaining FROM {Phase._meta.db_table} "
    "WHERE game_id = %s ORDER BY starts_at, id"
)


@dataclass(frozen=True)
class Snapshot:
    game: Game
    phases: list[Phase]
    key: str  # changes whenever anything a page shows may have changed

    @property
    def current(self) -> Phase | None:
        """The open phase, or the last one when none is open (a finished game)."""
        open_ = [p for p in self.phases if p.status == Phase.Status.OPEN]
        return open_[-1] if open_ else (self.phases[-1] if self.phases else None)


def _snapshot(game: Game) -> Snapshot:
    phases = list(Phase.objects.raw(PHASES_SQL, [game.pk]))
    parts = [
        game.pk,
        game.order_seed,  # random: a new game that reuses a deleted game's id never meets its cache
        game.status,
        game.winner,
        game.input_seq,
        game.audit_max,
        game.holder_max,
        game.announcement_max,
        *((p.pk, p.status, p.ends_at.timestamp(), p.paused_remaining) for p in phases),
    ]
    return Snapshot(game, phases, hashlib.sha256(repr(parts).encode()).hexdigest()[:32])


def game_snapshot(game_id: int) -> Snapshot | None:
    """Two queries: the game with its stamps, and its phases."""
    game = next(iter(Game.objects.raw(GAME_SQL, [game_id])), None)
    return None if game is None else _snapshot(game)


def seat_by_token(token: str) -> tuple[Seat, Snapshot] | None:
    """Two queries: the game and seat whose private link this is, and the phases. A string that cannot be a token
    is refused without asking the database."""
    if not MIN_TOKEN_CHARS <= len(token) <= MAX_TOKEN_CHARS:
        return None
    game = next(iter(Game.objects.raw(SEAT_SQL, [token])), None)
    if game is None:
        return None
    seat = Seat(id=game.seat_pk, game=game, number=game.seat_number, player_name=game.seat_player, camp=game.seat_camp)
    return seat, _snapshot(game)


# --- the clock (live on every request) ----------------------------------------------------------------------------


def clock(snap: Snapshot, now: datetime | None = None) -> dict:
    """The countdown of the current phase: remaining seconds while running, frozen while paused (T1, T4)."""
    phase, game = snap.current, snap.game
    if phase is None:
        return {"state": "setup"}
    if game.status == Game.Status.FINISHED or phase.status == Phase.Status.CLOSED:
        return {"state": "over", "phase": phase}
    if game.status == Game.Status.PAUSED:
        left = phase.paused_remaining.total_seconds() if phase.paused_remaining else 0
        return {"state": "paused", "phase": phase, "left": int(left)}
    left = (phase.ends_at - (now or timezone.now())).total_seconds()
    if left <= 0:
        return {"state": "due", "phase": phase}
    return {"state": "running", "phase": phase, "left": int(left), "ends_at": phase.ends_at}


def duration(seconds: float) -> str:
    s = max(int(seconds), 0)
    h, m = divmod(s // 60, 60)
    return f"{h} 小时 {m} 分 {s % 60} 秒" if h else f"{m} 分 {s % 60} 秒"


def clock_html(c: dict) -> str:
    """The countdown paragraph; the inline ticker (templates/public/_ticker.html) counts `data-left` down."""
    if c["state"] == "setup":
        inner = mark_safe("游戏尚未开始。")
    elif c["state"] == "over":
        inner = format_html("{}已结束。", c["phase"].label)
    elif c["state"] == "paused":
        inner = format_html("<strong>{}</strong> · 游戏已暂停,本时段还剩 {}。", c["phase"].label, duration(c["left"]))
    elif c["state"] == "due":
        inner = format_html("<strong>{}</strong> · 已到截止时间,等待天神结算。", c["phase"].label)
    else:
        ends = timezone.localtime(c["ends_at"])
        inner = format_html(
            '<strong>{}</strong> · 还剩 <span class="countdown-left" data-left="{}">{}</span>(截止于北京时间 {}月{}日 {})',
            c["phase"].label,
            c["left"],
            duration(c["left"]),
            ends.month,
            ends.day,
            ends.strftime("%H:%M"),
        )
    return format_html('<p class="clock">{}</p>', inner)
