"""Benchmark of the PM parser over its message tables (tests/parser/golden.yaml + corpus.yaml): `python -m bench.parser`.

Prints one line: messages, inputs produced, wrong inputs (produced but not what the player meant: a silent
misreading, goal 0), refusals, and the median parse time per message. `-v` lists every wrong input.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

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
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
