"""Benchmark of the PM parser over its message tables (tests/parser/golden.yaml + corpus.yaml): `python -m bench.parser`.

Prints one line: messages, inputs produced, wrong inputs (produced but not what the player meant: a silent
misreading, goal 0), refusals, and the median parse time per message. `-v` lists every wrong input.

Then the hostile texts of bench/hostile.py (issue 22 item 5): each reader of player text on a text built from a
repeated piece at 10 KB and 100 KB, the time of each and their ratio (about 10 for a linear reader, 100 for a
quadratic one). `--quick` skips them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench.hostile import CASES, build, seconds
from tests.parser.cases import all_cases, wrong_inputs


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.parser", description=__doc__.splitlines()[0])
    parser.add_argument("-v", action="store_true", help="list every wrong input")
    verbose = parser.parse_args(argv).v
    cases = all_cases()
    inputs = wrong = refusals = 0
    times: list[float] = []
    for case in cases:
        case.parse()  # warm caches (OpenCC) outside the timing
    for case in cases:
        start = time.perf_counter()
        got = case.parse()
        times.append((time.perf_counter() - start) * 1000)
        bad = wrong_inputs(case, got)
        inputs += len(got["inputs"])
        refusals += len(got["refusals"])
        wrong += len(bad)
        if bad and verbose:
            print(f"WRONG {case.id}: {case.text!r} -> {bad}", file=sys.stderr)
    p50 = statistics.median(times)
    print(f"messages={len(cases)} inputs={inputs} wrong_inputs={wrong} refusals={refusals} p50_ms={p50:.2f}")
    if "--quick" in argv:
        return 0
    small = build("投 ", 3_000)
    print(f"hostile 投×1500 (3 KB vote post): {seconds(CASES[0][2], small, 1):.3f}s", flush=True)
    for name, piece, reader in CASES:
        reader(build(piece, 1_000))  # warm caches
        a = seconds(reader, build(piece, 10_000), 1)
        b = seconds(reader, build(piece, 100_000), 1)
        print(f"hostile {name}: 10KB={a:.3f}s 100KB={b:.3f}s ratio={b / a:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
