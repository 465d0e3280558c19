"""Benchmark of the PM parser over its message tables (tests/parser/golden.yaml + corpus.yaml): `python -m bench.parser`.

Prints one line: messages, inputs produced, wrong inputs (produced but not what the player meant: a silent
misreading, goal 0), refusals, and the median parse time per message. `-v` lists every wrong input.

Then the hostile texts of bench/hostile.py (issue 22 item 5): each reader of player text on a text built from a
repeated piece, in CPU seconds: at 10 KB and 100 KB with the parser's bound lifted (`max_chars=None`: the reader
itself; their ratio is about 10 for a linear reader, 100 for a quadratic one), then at 100 KB as the site reads it
(the first MAX_CHARS = 20,000 characters read, the rest refused). `--quick` skips them, `--hostile` runs only them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench.hostile import CASES, build, seconds
from moderator.parser import MAX_CHARS
from tests.parser.cases import all_cases, wrong_inputs


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.parser", description=__doc__.splitlines()[0])
    parser.add_argument("-v", action="store_true", help="list every wrong input")
    parser.add_argument("--quick", action="store_true", help="skip the hostile texts")
    parser.add_argument("--hostile", action="store_true", help="only the hostile texts")
    args = parser.parse_args(argv)
    if not args.hostile:
        corpus(args.v)
    if not args.quick:
        hostile()
    return 0


def corpus(verbose: bool) -> None:
    cases = all_cases()
    inputs = wrong = refusals = 0
    times: list[float] = []
    for case in cases:
        case.parse()  # warm caches outside the timing
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


def hostile() -> None:
    small = build("投 ", 3_000)
    print(f"hostile 投×1500 (3 KB vote post): {seconds(CASES[0][2], small, 1):.3f}s CPU", flush=True)
    worst = 0.0
    for name, piece, reader in CASES:
        reader(build(piece, 1_000))  # warm caches
        a = seconds(reader, build(piece, 10_000), 1, max_chars=None)
        b = seconds(reader, build(piece, 100_000), 1, max_chars=None)
        c = seconds(reader, build(piece, 100_000), 1)
        worst = max(worst, c)
        print(
            f"hostile {name}: unbounded 10KB={a:.3f}s 100KB={b:.3f}s ratio={b / max(a, 1e-3):.1f};"
            f" as read (max_chars={MAX_CHARS}) 100KB={c:.3f}s",
            flush=True,
        )
    print(f"hostile worst 100KB as read: {worst:.3f}s CPU")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
