"""The outside corpus (../shared/parser-corpus/*.yaml, written by people who did not write the parser), read in this
process: `python -m bench.outside`.

Each case is scored as a 天神 would judge the parse: **right** (the inputs the contract gives, and a refusal where
the case asks for one), **silent wrong** (an input the sender did not mean: the worst outcome, goal 0) or **missed**
(a meant input refused or noted, never a wrong one). The corpus is split once, by a recorded seed, into a held-out
third (never tuned on; its figures are read only to report them) and the two thirds one builds against:
`bench/outside_split.txt` lists the held-out cases, so that a case added to the corpus later never moves another.

    python -m bench.outside              # the counts of each part
    python -m bench.outside -v           # also every case that is not right (the held-out third: counts only)
    python -m bench.outside --show-held  # also list the held-out third's cases that are not right
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

import yaml

from moderator.parser import parse_pm

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "parser-corpus"
SPLIT = Path(__file__).with_name("outside_split.txt")
SEED = 20261201  # the held-out third's draw; recorded in SPLIT's first line
# As the corpus's check.py (the manifesto's exact span is not compared), and the keys parse_pm's JSON leaves out.
IGNORED = {"manifesto", "pronoun", "span", "manifesto_spans", "correction"}


def key(d: dict) -> str:
    return json.dumps({k: v for k, v in sorted(d.items()) if k not in IGNORED}, ensure_ascii=False, sort_keys=True)


def acts(inputs: list[dict]) -> list[dict]:
    """The inputs that change the game: an explicit pass changes nothing and is dropped on both sides (check.py)."""
    return [x for x in inputs if {k: v for k, v in x.items() if k not in IGNORED} != {"pass": True}]


def cases() -> list[tuple[str, dict, dict]]:
    """(case id `set:n`, the case, its file's spec), in file order."""
    out = []
    for path in sorted(CORPUS.glob("set*.yaml")):
        spec = yaml.safe_load(path.read_text(encoding="utf-8"))
        for n, case in enumerate(spec["cases"], 1):
            out.append((f"{path.stem}:{n}", case, spec))
    return out


def held_out(ids: list[str]) -> set[str]:
    """The held-out third: read from SPLIT, drawn (and written) the first time."""
    if SPLIT.exists():
        lines = SPLIT.read_text(encoding="utf-8").splitlines()
        return {line.split()[0] for line in lines[1:] if line.strip()}
    chosen = sorted(random.Random(SEED).sample(ids, len(ids) // 3))
    SPLIT.write_text(f"# held-out third of the outside corpus, seed {SEED}\n" + "\n".join(chosen) + "\n")
    return set(chosen)


def score(case: dict, spec: dict) -> tuple[str, str]:
    """("right" | "wrong" | "missed", what differs)."""
    out = parse_pm(
        case["text"],
        sender=case["sender"],
        players=spec["players"],
        hand=spec["hands"][case["hand"]],
        phase=case.get("phase", "night"),
    ).to_json()
    got = Counter(key(x) for x in acts(out["inputs"]))
    want = Counter(key(x) for x in acts(case["inputs"]))
    alt = case.get("or_refused_naming")
    if alt and not got and any(alt in r.get("reason", "") for r in out["refusals"]):
        got = want
    if got - want:
        return "wrong", f"read {sorted((got - want).elements())}, meant {sorted(want.elements())}"
    if got != want:
        return "missed", f"missing {sorted((want - got).elements())}; refusals {[r['reason'] for r in out['refusals']]}"
    if case.get("refused") and not out["refusals"]:
        return "missed", "a refusal was expected"
    return "right", ""


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.outside", description=__doc__.splitlines()[0])
    parser.add_argument("-v", action="store_true", help="list the cases that are not right (not the held-out ones)")
    parser.add_argument("--show-held", action="store_true", help="list the held-out cases that are not right too")
    args = parser.parse_args(argv)
    everything = cases()
    held = held_out([cid for cid, _, _ in everything])
    counts: dict[str, Counter] = {"build (two thirds)": Counter(), "held-out third": Counter()}
    for cid, case, spec in everything:
        part = "held-out third" if cid in held else "build (two thirds)"
        verdict, why = score(case, spec)
        counts[part][verdict] += 1
        if verdict != "right" and (args.show_held or (args.v and cid not in held)):
            print(f"{verdict.upper():6} {cid} {case['text'][:50]!r}: {why}")
    total: Counter = sum(counts.values(), Counter())
    for name, c in [*counts.items(), ("all", total)]:
        n = sum(c.values())
        print(
            f"{name}: {n} messages, {c['right']} right ({100 * c['right'] / max(n, 1):.1f}%), "
            f"{c['wrong']} silent wrong, {c['missed']} missed"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
