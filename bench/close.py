"""What a write costs as a game grows: `python -m bench.close [--games N]`, on the database of DATABASE_URL (migrated
first; without it a throwaway SQLite file).

Plays N 7-player games through the real services (each PM confirmed through the intake, as the console does) up to
their 9th phase (night 5, with ≥ 100 inputs entered by then), and measures, in-process:

- close_ms_first: closing night 1 (the clock's whole close, `clock.phase_close_due` as a worker runs it: lock, default orders, replay, snapshot, verdicts,
  the next phase, the drafts);
- close_ms_late: closing the 9th phase;
- late_over_first: their ratio (1.0: a close costs the same whatever the length of the game);
- submit_ms_late: confirming one PM of the 9th phase;
- replays_per_pm: how many replays of the game one confirmed PM costs.

Prints one line of medians: `close_ms_first=… close_ms_late=… late_over_first=… submit_ms_late=… replays_per_pm=…`,
then what the 9th phase's close and one of its PM confirms cost: CPU of this process and of its PostgreSQL backend
(/proc/<pg_backend_pid()>/stat: the server runs on this machine), and round trips (statements sent, BEGIN and COMMIT
included): `close_cpu_ms=… (python=… postgres=…) close_round_trips=… pm_cpu_ms=… (…) pm_round_trips=…`. CPU figures
hold on a loaded machine better than wall times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import timedelta

import django

from bench import local_settings
from moderator.cpu import cpu_seconds

local_settings()

PLAYERS = ["狄仁杰", "李元芳", "曾泰", "狄如燕", "张环", "李朗", "虎敬晖"]
HANDS = [
    ("杀手", ["庶民", "庶民", "保镖", "狙击手", "杀手"]),
    ("狼人", ["庶民", "诅咒/庇佑", "巫医", "束魂", "狼人"]),
    ("平民", ["庶民", "庶民", "防弹衣/狼毒", "禁锢/反狙击", "绝杀/特赦"]),
    ("平民", ["庶民", "诅咒/庇佑", "纵火/圣人", "阿米巴", "束魂"]),
    ("平民", ["庶民", "庶民", "巫医", "诅咒/庇佑", "禁锢/反狙击"]),
    ("平民", ["庶民", "庶民", "狙击手", "防弹衣/狼毒", "诅咒/庇佑"]),
    ("自选", ["庶民", "庶民", "诅咒/庇佑", "阿米巴", "巫医"]),
]
PHASES = 9


class Meter:
    """CPU (this process; its PostgreSQL backend, if on this machine) and round trips of what runs inside `with`."""

    def __init__(self):
        from django.db import connection

        self.connection = connection
        self.trips = 0
        self.python = self.postgres = 0.0

    def _backend_cpu(self) -> float:
        if self.connection.vendor != "postgresql":
            return 0.0
        return cpu_seconds(self.connection.connection.info.backend_pid)

    def _count(self, execute, sql, params, many, context):
        self.trips += 1
        return execute(sql, params, many, context)

    def __enter__(self):
        self.connection.ensure_connection()
        self._wrap = self.connection.execute_wrapper(self._count)
        self._wrap.__enter__()
        # A transaction's BEGIN (psycopg sends it before the first statement) and its COMMIT are round trips too.
        begin, commit = self.connection._set_autocommit, self.connection._commit

        def counted_begin(autocommit):
            self.trips += not autocommit
            return begin(autocommit)

        def counted_commit():
            self.trips += 1
            return commit()

        self.connection._set_autocommit, self.connection._commit = counted_begin, counted_commit
        self._pg, self._py = self._backend_cpu(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.python = time.process_time() - self._py
        self.postgres = self._backend_cpu() - self._pg
        self._wrap.__exit__(*exc)
        del self.connection._set_autocommit, self.connection._commit
        return False

    @property
    def round_trips(self) -> int:
        """Statements sent, each transaction's BEGIN and COMMIT included."""
        return self.trips


def _night_pm(me: str, other: str) -> str:
    """A PM that costs something and harms nobody, with chatter and an order the rules refuse after night 1."""
    return f"今晚庇佑{other}。另外丢牌顺序不变。大家晚安,{other}加油"


def _play_phase(game, phase, timings: list[float] | None, meters: list | None = None) -> int:
    """Every living player sends one PM (night) or a vote and a change (day); returns how many inputs were stored."""
    from moderator.models import Input
    from moderator.services import intake, storage

    alive = [s.name for s in storage.game_replay(game).state.alive]
    seats = {s.player_name: s for s in game.seats.all()}
    before = Input.objects.filter(game=game).count()
    for i, name in enumerate(alive):
        other = alive[(i + 1) % len(alive)]
        at = phase.starts_at + timedelta(hours=1, minutes=i)
        if phase.kind == "night":
            texts = [(_night_pm(name, other), False), (f"再诅咒{alive[(i + 3) % len(alive)]}一下", False)]
        else:
            texts = [(f"投{other}", True), (f"改投{alive[(i + 2) % len(alive)]}", True)]
        for n, (text, vote) in enumerate(texts):
            start = time.perf_counter()
            with Meter() as meter:
                intake.pm_confirm(
                    game, intake.Pasted(seat=seats[name], text=text, forum_at=at + timedelta(minutes=n), vote_post=vote)
                )
            if timings is not None:
                timings.append(time.perf_counter() - start)
                meters.append(meter)
    return Input.objects.filter(game=game).count() - before


def one_game(number: int) -> dict[str, float]:
    from django.utils import timezone

    from moderator.models import Phase
    from moderator.services import clock, setup

    players = [{"name": n, "camp": c, "hand": h} for n, (c, h) in zip(PLAYERS, HANDS, strict=True)]
    game = setup.table_create(name=f"bench.close {number}", players=players)
    setup.game_start(game=game, at=timezone.now() - timedelta(days=PHASES))
    out: dict = {"inputs": 0}
    for k in range(1, PHASES + 1):
        phase = game.phases.get(status=Phase.Status.OPEN)
        submits: list[float] = []
        pms: list[Meter] = []
        out["inputs"] += _play_phase(game, phase, submits if k == PHASES else None, pms)
        start = time.perf_counter()
        with Meter() as meter:
            assert clock.phase_close_due(phase_id=phase.pk), f"{phase.label} did not close"
        took = time.perf_counter() - start
        if k == 1:
            out["close_first"] = took
        if k == PHASES:
            out["close_late"] = took
            out["submit_late"] = statistics.median(submits)
            out["close_meter"], out["pm_meters"] = meter, pms
        game.refresh_from_db()
        if game.status != "running":
            raise SystemExit(f"game {number} ended at {phase.label}: the bench needs nine phases")
    return out


def replays_per_pm() -> float:
    """Confirm one PM of a fresh game and count the replays it costs."""
    from django.utils import timezone

    from moderator.services import intake, setup, storage

    players = [{"name": n, "camp": c, "hand": h} for n, (c, h) in zip(PLAYERS, HANDS, strict=True)]
    game = setup.table_create(name="bench.close replays", players=players)
    setup.game_start(game=game, at=timezone.now() - timedelta(hours=2))
    seat = game.seats.get(player_name=PLAYERS[1])
    real, calls = storage.game_replay, []

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    storage.game_replay = counted
    try:
        text = f"今晚束魂{PLAYERS[2]},诅咒{PLAYERS[3]}。顺序:庶民、狼人、巫医、束魂、诅咒/庇佑"
        intake.pm_confirm(game, intake.Pasted(seat=seat, text=text, forum_at=timezone.now() - timedelta(hours=1)))
    finally:
        storage.game_replay = real
    return float(len(calls))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args(argv)
    if not os.environ.get("DATABASE_URL"):  # never the developer's var/db.sqlite3: a throwaway file
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='bench-close-')}/db.sqlite3"
    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)

    runs = [one_game(i) for i in range(args.games)]
    first = statistics.median(r["close_first"] for r in runs) * 1000
    late = statistics.median(r["close_late"] for r in runs) * 1000
    submit = statistics.median(r["submit_late"] for r in runs) * 1000
    inputs = int(statistics.median(r["inputs"] for r in runs))
    print(f"# {connection.vendor}, {args.games} games of {PHASES} phases, {inputs} inputs each", file=sys.stderr)
    print(
        f"close_ms_first={first:.1f} close_ms_late={late:.1f} late_over_first={late / first:.2f} "
        f"submit_ms_late={submit:.1f} replays_per_pm={replays_per_pm():g}"
    )
    closes = [r["close_meter"] for r in runs]
    pms = [m for r in runs for m in r["pm_meters"]]

    def cpu(meters: list[Meter]) -> str:
        py = statistics.median(m.python for m in meters) * 1000
        pg = statistics.mean(m.postgres for m in meters) * 1000  # clock ticks (10 ms): a mean, not a median
        return f"{py + pg:.2f} (python={py:.2f} postgres={pg:.2f})"

    print(
        f"close_cpu_ms={cpu(closes)} close_round_trips={statistics.median(m.round_trips for m in closes):g} "
        f"pm_cpu_ms={cpu(pms)} pm_round_trips={statistics.median(m.round_trips for m in pms):g}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
