"""Fuzzed whole games at the table trackers: `python -m bench.tables_fuzz [--seeds 300] [--start 0] [--kinds ...]
[--modes ...] [--every-option]`
(300 seeds: 40 minutes or more on 2 vCPU, printed before it starts; `--quick`: one seed).

Every game × mode, seeds 0..N-1: a table of a random size (from the seed) is played to its end through the real
services (``tables.services.act`` under its row lock, on a throwaway SQLite database), choosing each record at random
among the forms the pages offer to each seat and (physical mode) the host, with a random undo now and then.  Every
record is sent **twice** with the version its form was made on.  Per game it checks:

- freeze: somebody can always act until the game is over, and it ends within ``MAX_STEPS`` records;
- exception: nothing but a RuleError (a refused record, with its message) ever comes out of the services;
- twice: the second send of every record changes nothing (the state, the log of records and the version);
- leak: a living seat's secret role shows on no other seat's or the spectator's view until the rules reveal it (a
  death another seat records waits for the victim or the host); a private record (the killer's claim) changes no other
  seat's or the spectator's view and not the version; the 狄仁杰 killer's decline is indistinguishable (no public
  line says 没有可组成的线索); no private line reaches anyone it was not addressed to;
- moves (every tracker that lists its moves, ``moves(state, seat)``, and has an oracle in ``bench.tables_oracles``):
  after every record, each seat's and the host's forms are their legal moves' forms and sampled actions of each move
  are legal; after every ``ORACLE_EVERY``-th, every action each move lists is legal and every action the oracle can
  conceive that the rules accept is listed;
- generals (三国杀): after every record each of the 25 generals is in exactly one place — in front of a player, in the
  unused pile, or among the candidates of a player who has not chosen yet.

Prints one line per game × mode and a total: ``games=… freezes=0 exceptions=0 leaks=0 twice_applied=0 …``.  The exit
status is 1 if any count but ``games`` and ``records`` is not 0.  ``tests/tables/test_tables_fuzz.py`` runs the same
check on a few seeds in ``make test``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import secrets
import sys
import time
import traceback
from collections import Counter
from typing import Any

import django

from bench import tables_oracles

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "moderator.settings")

KINDS = ("direnjie_cards", "noir", "sanguosha", "anhuoxian")
MODES = ("digital", "physical")
MAX_STEPS = 4000
# Every kind and mode of one seed, measured on 2 vCPU: 300 seeds took about 40 minutes on a quiet machine (8 s a seed);
# seeds 0 and 1 took 58 s of CPU on a busy one (29 s a seed).
SECONDS_PER_SEED = (8, 29)
NAMES = ["阿甲", "阿乙", "阿丙", "阿丁", "阿戊", "阿己", "阿庚", "阿辛", "阿壬", "阿癸"]


def _options(kind: str, n: int, rng: random.Random) -> dict[str, Any]:
    if kind == "direnjie_cards":
        return {"killer": n >= 5 and rng.random() < 0.7}
    if kind == "noir":
        return {"kill_target": rng.choice([14, 16])}
    if kind == "anhuoxian":
        return {"first": rng.randrange(n), "warrant": rng.random() < 0.3}
    return _sanguosha_options(n, rng)


EVERY_OPTION = False  # --every-option: 三国杀 with every house rule on (rule 2: 暗魂 and 最后一滴血 in turn)


def _sanguosha_options(n: int, rng: random.Random) -> dict[str, Any]:
    """三国杀's house rules (seed 002): each on with a fair chance, 暗魂 or 最后一滴血 as the seed's rule 2."""
    if EVERY_OPTION:
        rule2 = rng.choice(["ghosts", "last_blood"])
        return {"seat_lot": True, "countdown": True, "rebirth": True, "generals": True, rule2: True,
                "protected": NAMES[rng.randrange(n)]}  # fmt: skip
    options: dict[str, Any] = {}
    for key in ("seat_lot", "countdown", "rebirth", "generals"):
        if rng.random() < 0.6:
            options[key] = True
    rule2 = rng.choice(["ghosts", "ghosts", "last_blood", ""])
    if rule2:
        options[rule2] = True
        if rng.random() < 0.7:
            options["protected"] = NAMES[rng.randrange(n)]  # last game's first out, by name as the form sends it
    return options


def _size(rules: Any, rng: random.Random) -> int:
    return rng.randint(rules.MIN_PLAYERS, min(rules.MAX_PLAYERS, 8))


def _lord(state: Any) -> int | None:
    return getattr(state, "lord", None)


def _leaks(rules: Any, state: Any, actor: Any, action: dict[str, Any], before: Any) -> list[str]:
    """What the record made visible that the rules keep secret (empty: nothing)."""
    out = []
    n = len(state.players)
    over = rules.winner(state) is not None
    viewers = [None, *range(n)]
    views = {v: rules.view(state, v) for v in viewers}
    for v, view in views.items():
        for row in view.get("seats", []):
            p = row.get("seat")
            if rules.KIND == "noir" or row.get("role") is None or over or p == v or p == _lord(state):
                continue
            alive = state.alive[p] if hasattr(state, "alive") else True
            reborn = getattr(state, "reborn", None) or []
            if alive and not (len(reborn) == n and reborn[p]):  # 转世: a reborn player's identity stays turned up
                out.append(f"{state.players[p]} 活着,身份却显示给 {v}")
        for row in view.get("seats", []):  # a ghost names its identity: only once that player is out and revealed
            if row.get("ghost") and (row.get("alive") or row.get("role") is None):
                out.append(f"{state.players[row['seat']]} 的暗魂在身份亮出前显示给 {v}")
    kind = action.get("type")
    if kind == "death" and actor not in ("host", action.get("target")) and hasattr(state, "pending"):
        victim = action.get("target")
        if isinstance(victim, int) and not state.alive[victim]:
            out.append("别人记录的阵亡未经确认就生效了")
    if kind in getattr(rules, "PRIVATE_ACTIONS", ()):
        for v in viewers:
            if v != actor and rules.view(before, v) != views[v]:
                out.append(f"私密记录改变了 {v} 的页面")
    new = state.log[len(before.log) :]
    for event in new:
        if event["to"] is None and "没有可组成的线索" in event["text"] and state.options.get("killer"):
            out.append("公开记录区分了杀手不提交与没有线索")
    for v in viewers:
        shown = set(views[v]["log"])
        for event in new:
            if event["to"] is not None and v not in event["to"] and event["text"] in shown:
                if not any(e["text"] == event["text"] and (e["to"] is None or v in e["to"]) for e in state.log):
                    out.append(f"私密消息给了 {v}")
    return out


def _misplaced_generals(kind: str, state: Any) -> list[str]:
    """三国杀: every general in exactly one place (held, unused pile, or a candidate not chosen yet)."""
    if kind != "sanguosha":
        return []
    from tables.rules.sanguosha_house import misplaced_generals

    return misplaced_generals(state)


# "Every legal action is listed" tries every conceivable action of every seat (some 500 a step in the electronic
# games, some 10,000 at a physical table with its host), and "every listed action is legal" tries each: both after
# every ORACLE_EVERY-th record; after the others, the forms are checked against the moves and SAMPLE actions of each
# move are tried — so that 300 seeds stay within the hour.
ORACLE_EVERY = 16
SAMPLE = 3


def _moves_disagree(kind: str, mode: str, rules: Any, state: Any, oracle: bool) -> list[str]:
    """A game that declares its moves (``moves``) and has an oracle (``bench.tables_oracles``): its forms are its
    moves' forms, every listed action is legal, and (``oracle``) every legal action conceivable is listed — for every
    seat and, where the tracker has one, the host."""
    from tables.rules import RuleError
    from tables.rules.moves import offered
    from tables.rules.tracker import HOST

    listed_moves = getattr(rules, "moves", None)
    module = tables_oracles.oracle(kind, mode)
    if listed_moves is None or module is None:
        return []
    wrong = []
    rng = random.Random(len(state.log))
    state = dataclasses.replace(state, log=[])  # no move reads the log: every legality test copies less
    actors: list[Any] = [*range(len(state.players)), *([HOST] if _has_host(kind, mode) else [])]
    for seat in actors:
        moves = listed_moves(state, seat)
        if rules.forms(state, seat) != [m.form() for m in moves]:
            wrong.append(f"座位 {seat} 的表单不是它的合法动作")
        for action in (a for m in moves for a in _some(list(m.actions(seat)), rng, every=oracle)):
            try:
                rules.legal(state, action)
            except RuleError as refused:
                wrong.append(f"表单给出的动作不合法:{action}({refused})")
        for action in tables_oracles.conceivable(module, state, seat, host=seat == HOST) if oracle else ():
            if offered(moves, action, seat):
                continue
            try:
                rules.legal(state, action)
            except RuleError:
                continue
            wrong.append(f"合法的动作没有表单:{action}")
    return wrong


def _some(actions: list[dict[str, Any]], rng: random.Random, every: bool) -> list[dict[str, Any]]:
    """All of a move's actions, or (between the oracle's records) ``SAMPLE`` of them drawn at random."""
    return actions if every or len(actions) <= SAMPLE else rng.sample(actions, SAMPLE)


def _has_host(kind: str, mode: str) -> bool:
    return mode == "physical" and kind != "noir"


def fuzz_game(kind: str, mode: str, seed: int) -> Counter[str]:
    """One fuzzed game through the services (needs a database with the tables app migrated)."""
    from tables import services
    from tables.models import Table
    from tables.rules import RuleError, game
    from tables.rules.base import action_from_form, random_form_values
    from tables.rules.tracker import HOST

    rules = game(kind, mode)
    rng = random.Random(f"{kind}:{mode}:{seed}")
    n = _size(rules, rng)
    counts: Counter[str] = Counter(games=1)
    try:
        table = services.create_table(kind, NAMES[:n], seed=seed, options=_options(kind, n, rng), mode=mode)
    except RuleError:
        counts["unplayable_setups"] += 1
        return counts
    host = _has_host(kind, mode)
    for _ in range(MAX_STEPS):
        table = Table.objects.get(pk=table.pk)
        state = table.load()
        if rules.winner(state) is not None:
            counts["finished"] += 1
            return counts
        actors: list[Any] = [p for p in range(n) if rules.forms(state, p)]
        if host and rules.forms(state, HOST):
            actors.append(HOST)
        if not actors:
            counts["freezes"] += 1
            return counts
        if host and rng.random() < 0.03:
            try:
                if services.undo_last(table.pk, "fuzz", table.version) is None:
                    continue  # nothing public to undo
                counts["undos"] += 1
                if Table.objects.get(pk=table.pk).version != table.version + 1:
                    counts["exceptions"] += 1
                try:  # the same undo form sent again
                    services.undo_last(table.pk, "fuzz", table.version)
                    counts["twice_applied"] += 1
                except services.StaleForm:
                    pass
            except RuleError:
                pass
            continue
        actor = rng.choice(actors)
        spec = rng.choice(rules.forms(state, actor))
        values = random_form_values(spec, rng, free_fields=True)
        if values is None:
            continue
        seat = None if actor == HOST else actor
        try:
            action = action_from_form(spec, values)
            new_state, _ = services.act(table.pk, seat, action, table.version)
        except services.StaleForm:
            counts["exceptions"] += 1  # nobody else wrote: the version cannot be stale
            continue
        except RuleError:
            counts["refused"] += 1
            continue
        except Exception:
            counts["exceptions"] += 1
            traceback.print_exc()
            return counts
        counts["records"] += 1
        after = Table.objects.get(pk=table.pk)
        rows = after.actions.count()
        try:  # the same form sent again
            services.act(table.pk, seat, action, table.version)
        except RuleError:
            pass
        again = Table.objects.get(pk=table.pk)
        if again.state != after.state or again.actions.count() != rows or again.version != after.version:
            counts["twice_applied"] += 1
        private = action["type"] in getattr(rules, "PRIVATE_ACTIONS", ())
        if private and after.version != table.version:
            counts["leaks"] += 1
        problems = _leaks(rules, new_state, HOST if seat is None else seat, {**action}, state)
        if problems:
            counts["leaks"] += 1
            print(f"  leak {kind}/{mode} seed {seed}: {problems[0]}", file=sys.stderr)
        disagree = _moves_disagree(kind, mode, rules, new_state, counts["records"] % ORACLE_EVERY == 1)
        if disagree:
            counts["moves"] += 1
            print(f"  moves {kind}/{mode} seed {seed}: {disagree[0]}", file=sys.stderr)
        wrong = _misplaced_generals(kind, new_state)
        if wrong:
            counts["generals"] += 1
            print(f"  generals {kind}/{mode} seed {seed}: {'、'.join(wrong[:3])}", file=sys.stderr)
    counts["freezes"] += 1  # no end within MAX_STEPS records
    return counts


def run(seeds: range, kinds: tuple[str, ...] = KINDS, modes: tuple[str, ...] = MODES) -> Counter[str]:
    total: Counter[str] = Counter()
    for kind in kinds:
        for mode in modes:
            started = time.perf_counter()
            counts: Counter[str] = Counter()
            for number, seed in enumerate(seeds, 1):
                counts += fuzz_game(kind, mode, seed)
                if number % 10 == 0:
                    progress = " ".join(f"{k}={v}" for k, v in sorted(counts.items()))
                    print(f"  … {kind} {mode} {number} seeds: {progress}", file=sys.stderr, flush=True)
            seconds = time.perf_counter() - started
            line = " ".join(f"{k}={v}" for k, v in sorted(counts.items()))
            print(f"{kind:15} {mode:8} {line} {seconds:.0f}s", flush=True)
            total += counts
    return total


BAD = ("freezes", "exceptions", "leaks", "twice_applied", "generals", "moves")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--start", type=int, default=0, help="the first seed (seeds start … start+seeds−1)")
    parser.add_argument("--kinds", nargs="*", default=list(KINDS), choices=KINDS)
    parser.add_argument("--modes", nargs="*", default=list(MODES), choices=MODES)
    parser.add_argument("--quick", action="store_true", help="one seed: checks that it works (under a minute)")
    parser.add_argument("--every-option", action="store_true", help="三国杀 with every house rule on")
    args = parser.parse_args(argv)
    global EVERY_OPTION
    EVERY_OPTION = args.every_option
    if args.quick:
        args.seeds = 1
    share = len(args.kinds) * len(args.modes) / (len(KINDS) * len(MODES))
    low, high = (args.seeds * s * share / 60 for s in SECONDS_PER_SEED)
    print(f"{args.seeds} seeds: about {low:.0f}–{high:.0f} min on 2 vCPU (--quick: one seed)", flush=True)
    os.environ.pop("DATABASE_URL", None)  # a throwaway in-memory SQLite database, never a real one
    os.environ.setdefault("SECRET_KEY", "bench-only-" + secrets.token_urlsafe(40))
    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    connection.creation.create_test_db(verbosity=0)
    total = run(range(args.start, args.start + args.seeds), tuple(args.kinds), tuple(args.modes))
    line = " ".join(f"{k}={total.get(k, 0)}" for k in ("games", "finished", "records", "refused", *BAD))
    print(f"total {line}")
    return 1 if any(total.get(k, 0) for k in BAD) else 0


if __name__ == "__main__":
    sys.exit(main())
