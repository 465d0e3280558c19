"""Benchmark of the PM parser over its message tables (tests/parser/golden.yaml + corpus.yaml): `python -m bench.parser`.

Prints one line: messages, inputs produced, wrong inputs (produced but not what the player meant: a silent
misreading, goal 0), refusals, and the median parse time per message. `-v` lists every wrong input.

Then the hostile texts of bench/hostile.py: each reader of player text (PM, vote post, pasted thread) on 20,000
characters of digit runs after 第/倒数, repeated names, nested brackets, long lines with no punctuation, token soup
and more, in CPU seconds (goal ≤ 1 s each), with the growth of its operation count for 8× the text (linear ≈ 8).
`--quick` skips them, `--hostile` runs only them. `--generated N [--seed S]` scores N messages composed from player
mentions, privilege, position and vote words and cue words with their truth known (tests/parser/compose.py): right
messages, wrong inputs (goal 0), missed (goal ≤ 5%); `-v` lists each wrong or missed message cut to its smallest
failing form. `--filler N` scores N messages of known inputs wrapped in whole filler sentences
(tests/parser/generator.py).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from bench.hostile import CASES, build, operations, seconds
from moderator.parser import MAX_CHARS
from tests.parser import compose, generator
from tests.parser.cases import all_cases, wrong_inputs


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.parser", description=__doc__.splitlines()[0])
    parser.add_argument("-v", action="store_true", help="list every wrong input")
    parser.add_argument("--quick", action="store_true", help="skip the hostile texts")
    parser.add_argument("--hostile", action="store_true", help="only the hostile texts")
    parser.add_argument(
        "--generated", type=int, metavar="N", help="only N messages composed from parts (tests/parser/compose.py)"
    )
    parser.add_argument(
        "--filler", type=int, metavar="N", help="only N messages wrapped in filler (tests/parser/generator.py)"
    )
    parser.add_argument("--seed", type=int, default=36, help="the generator's seed (default 36)")
    args = parser.parse_args(argv)
    if args.generated:
        composed(args.generated, args.seed, args.v)
        return 0
    if args.filler:
        generated(args.filler, args.seed, args.v)
        return 0
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


def composed(n: int, seed: int, verbose: bool) -> None:
    """N messages composed from mentions and cues (tests/parser/compose.py): right (read as exactly their inputs),
    wrong inputs (read but not in the message: goal 0; "silent" when nothing was refused beside them) and missed (in
    the message but not read: goal ≤ 5% of the inputs); unrefused: a refusal the message calls for (a name one
    character off a player) that no refusal gives, naming that player (goal 0; such a message is not right)."""
    rnd = random.Random(seed)
    right = inputs = wrong = silent = missed = unrefused = 0
    by_family: dict[str, int] = {}
    for _ in range(n):
        message = compose.compose(rnd)
        result, got = compose.score(message)
        inputs += len(message.inputs)
        right += not (result.wrong or result.missed or result.unrefused)
        unrefused += result.unrefused
        wrong += result.wrong
        silent += result.wrong if not result.refused else 0
        missed += result.missed
        if result.wrong:
            for family in set(message.families):
                by_family[family] = by_family.get(family, 0) + 1
        if verbose and (result.wrong or result.missed):
            small = compose.minimal(message, lambda m, first=result: _still_bad(m, first))
            _, got = compose.score(small)
            print(f"{'WRONG' if result.wrong else 'MISSED'} {small.text!r} {small.families}", file=sys.stderr)
            hand = "" if small.phase != "night" else f" hand={list(small.hand)}"
            print(f"    {small.phase}{hand} want {small.inputs}", file=sys.stderr)
            shown = [{k: v for k, v in i.items() if k not in compose.IGNORED} for i in got["inputs"]]
            print(f"    got {shown} refused={[r['text'] for r in got['refusals']]}", file=sys.stderr)
    print(
        f"composed messages={n} seed={seed} right={right} inputs={inputs} wrong_inputs={wrong}"
        f" (silent={silent}) missed={missed} ({missed / max(inputs, 1):.1%}) unrefused={unrefused}"
    )
    if by_family:
        worst = sorted(by_family.items(), key=lambda kv: -kv[1])
        print("messages with a wrong input, by the parts they hold: " + ", ".join(f"{f}={c}" for f, c in worst))


def _still_bad(message: compose.Message, first: compose.Score) -> bool:
    result, _ = compose.score(message)
    return bool(result.wrong) if first.wrong else bool(result.missed)


def generated(n: int, seed: int, verbose: bool) -> None:
    """N messages composed from known inputs and fillers (tests/parser/generator.py): wrong inputs (read but not in
    the message: goal 0) and missed (in the message but not read: goal ≤ 5%, each shown as a refusal)."""
    rnd = random.Random(seed)
    inputs = wrong = missed = refused = manifestos = 0
    for _ in range(n):
        message = generator.generate(rnd)
        result, got = generator.score(message)
        inputs += len(message.inputs)
        wrong += result.wrong
        missed += result.missed
        refused += result.refused_missed
        manifestos += result.manifesto_wrong
        if verbose and (result.wrong or result.missed or result.manifesto_wrong):
            print(f"{'WRONG' if result.wrong else 'MISSED'} {message.text!r} {message.kinds}", file=sys.stderr)
            print(f"    want {message.inputs}\n    got  {got['inputs']} {got['refusals']}", file=sys.stderr)
    print(
        f"generated messages={n} seed={seed} inputs={inputs} wrong_inputs={wrong} missed={missed}"
        f" ({missed / max(inputs, 1):.1%}; {refused} of them with a refusal shown)"
        f" manifestos_with_more_than_the_declaration={manifestos}"
    )


def hostile() -> None:
    """Each hostile text at 20,000 characters (the console's bound, MAX_CHARS) read as the site reads it: CPU seconds
    (the fastest of three, goal ≤ 1 s each) and the function calls it makes (bench.hostile.operations) at 2,500 and
    20,000 characters, whose ratio is about 8 for a linear reader and 64 for a quadratic one."""
    worst = 0.0
    for name, piece, reader in CASES:
        text = build(piece, MAX_CHARS)
        reader(build(piece, 1_000))  # warm caches
        cpu = seconds(reader, text, 3)
        ratio = operations(reader, text) / max(1, operations(reader, build(piece, MAX_CHARS // 8)))
        worst = max(worst, cpu)
        print(
            f"hostile {name}: {len(text):,} chars {cpu:.3f}s CPU, operations ×{ratio:.1f} for 8× the text", flush=True
        )
    print(f"hostile worst at {MAX_CHARS:,} characters: {worst:.3f}s CPU (goal ≤ 1 s)")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
