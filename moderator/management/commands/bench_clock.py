"""python manage.py bench_clock --games N --phase-seconds S — the phase clock against the real worker, beat, Redis
and database: N games whose night ends at the same second, then one line:

    closed X/N exactly_once=yes|no lateness_p50=…s lateness_p99=…s late=K closes_per_s=…

lateness = closed_at − ends_at per phase; late = how many closed more than --late-after seconds (default 1.5: the
short ETA fires at the end time) after their end — the wall-clock thresholds live here, never in the tests; closes_per_s = X / (last closed_at − the common end time). exactly_once:
every game has one closed phase, one `phase_close` log row, one next phase, the same announcements as the others,
and no phase closed before its end. Needs `celery -A moderator worker -Q celery,clock` and `celery -A moderator
beat` running on the same REDIS_URL and DATABASE_URL. The bench games are deleted afterwards (unless --keep).
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections import Counter
from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import Count, Max

from cards.catalogue import DEFAULT_CAMPS, DEFAULT_HAND_SIZE, standard_deck
from cards.dealing import deal
from moderator.celery import app
from moderator.models import Announcement, AuditLog, Game, Phase, Seat
from moderator.services.clock import db_now

PREFIX = "bench-clock"
PLAYERS = ("狄仁杰", "李元芳", "曾泰", "狄如燕", "张环", "李朗", "虎敬晖")
FAR = timedelta(days=3650)  # a bench game's night ends here until every game exists


class Command(BaseCommand):
    help = "阶段时钟压测:N 局游戏的时段在同一秒结束,统计是否每个都只关闭一次、迟到多久"

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--phase-seconds", type=float, default=30)
        parser.add_argument("--timeout", type=float, default=180, help="seconds to wait after the end time")
        parser.add_argument("--keep", action="store_true", help="keep the bench games")
        parser.add_argument("--late-after", type=float, default=1.5, help="a close later than this (s) counts as late")

    def handle(self, *args, games: int, phase_seconds: float, timeout: float, keep: bool, late_after: float, **options):
        if not app.control.ping(timeout=2):
            raise CommandError("没有 Celery worker 应答:先启动 `celery -A moderator worker -Q celery,clock` 和 beat")
        self._delete()
        started = time.monotonic()
        game_ids = games_create(games)
        self.stderr.write(f"created {games} games in {time.monotonic() - started:.1f}s")
        now = db_now()
        ends_at = now.replace(microsecond=0) + timedelta(seconds=math.ceil(phase_seconds) + 1)
        with transaction.atomic():
            Game.objects.filter(pk__in=game_ids).update(status=Game.Status.RUNNING, started_at=now)
            Phase.objects.filter(game_id__in=game_ids).update(starts_at=now, ends_at=ends_at)
        self.stderr.write(f"all {games} nights end at {ends_at.isoformat()}")
        phases = Phase.objects.filter(game_id__in=game_ids, number=1, kind=Phase.Kind.NIGHT)
        while phases.filter(status=Phase.Status.OPEN).exists() and db_now() < ends_at + timedelta(seconds=timeout):
            time.sleep(0.5)
        time.sleep(1)  # let a straggling duplicate finish, so that exactly_once sees it
        self.stdout.write(report(game_ids, ends_at, late_after))
        if not keep:
            self._delete()

    def _delete(self) -> None:
        Game.objects.filter(name__startswith=PREFIX).delete()


def games_create(n: int) -> list[int]:
    """N seven-seat tables (dealt with a seed, hands in discard order), each with night 1 open, not running yet."""
    deck, camps = standard_deck(), list(DEFAULT_CAMPS)
    created = Game.objects.bulk_create(
        Game(
            name=f"{PREFIX}-{i}",
            seats_count=len(PLAYERS),
            hand_size=DEFAULT_HAND_SIZE,
            deck=deck,
            order_seed=i,
            deal_seed=i,
            hands_are_orders=True,
        )
        for i in range(n)
    )
    seats, phases = [], []
    for game in created:
        hands = deal(camps, deck, DEFAULT_HAND_SIZE, game.deal_seed).hands
        for number, (name, camp, hand) in enumerate(zip(PLAYERS, camps, hands, strict=True), start=1):
            seats.append(Seat(game=game, number=number, player_name=name, camp=camp, dealt_hand=list(hand)))
        far = db_now() + FAR
        phases.append(Phase(game=game, kind=Phase.Kind.NIGHT, number=1, starts_at=far, ends_at=far))
    Seat.objects.bulk_create(seats, batch_size=2000)
    Phase.objects.bulk_create(phases, batch_size=2000)
    return [g.pk for g in created]


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def report(game_ids: list[int], ends_at, late_after: float = 1.5) -> str:
    first = Phase.objects.filter(game_id__in=game_ids, kind=Phase.Kind.NIGHT, number=1)
    closed = list(first.filter(status=Phase.Status.CLOSED).values_list("pk", "closed_at"))
    lateness = sorted((at - ends_at).total_seconds() for _, at in closed)
    logs = Counter(
        AuditLog.objects.filter(game_id__in=game_ids, action="phase_close").values_list("game_id", flat=True)
    )
    phase_counts = Game.objects.filter(pk__in=game_ids).annotate(n=Count("phases")).values_list("n", flat=True)
    drafts = Counter(
        Announcement.objects.filter(phase_id__in=[pk for pk, _ in closed])
        .values("phase_id")
        .annotate(n=Count("id"))
        .values_list("n", flat=True)
    )
    once = (
        len(closed) == len(game_ids)
        and all(logs[g] == 1 for g in game_ids)
        and set(phase_counts) == {2}
        and len(drafts) == 1
        and (not lateness or lateness[0] >= 0)
    )
    last = first.aggregate(last=Max("closed_at"))["last"]
    span = (last - ends_at).total_seconds() if last else math.nan
    rate = len(closed) / span if span and span > 0 else math.nan
    if not once:
        print(f"logs={Counter(logs.values())} phases={Counter(phase_counts)} drafts={drafts}", file=sys.stderr)
    return (
        f"closed {len(closed)}/{len(game_ids)} exactly_once={'yes' if once else 'no'} "
        f"lateness_p50={_percentile(lateness, 50):.2f}s lateness_p99={_percentile(lateness, 99):.2f}s "
        f"late={sum(x > late_after for x in lateness)} closes_per_s={rate:.1f}"
    )
