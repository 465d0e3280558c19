"""Cyclomatic complexity of every function and method, as radon counts it: `python -m bench.complexity [--max N]
[PATH ...]` (default: the parser, at most 15).

Prints the functions above the bound (path:line name complexity), then the five most complex and the count of
functions read; the exit status is 1 if any function is above the bound. `make lint` runs it on `moderator/parser`
(docs/parser.md: no parser function above 15) and on the table games' `forms` (docs/tables.md: at most 10).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Function


def functions(paths: list[Path]) -> list[tuple[int, str, str]]:
    """(complexity, path:line, name) of every function and method under `paths`."""
    out = []
    for root in paths:
        for path in sorted(root.rglob("*.py")) if root.is_dir() else [root]:
            for block in cc_visit(path.read_text(encoding="utf-8")):
                if isinstance(block, Function):
                    out.append((block.complexity, f"{path}:{block.lineno}", block.fullname))
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.complexity", description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=15, help="the bound (default 15)")
    parser.add_argument("--name", help="only the functions of this name (e.g. forms)")
    parser.add_argument("paths", nargs="*", type=Path, default=[Path("moderator/parser")])
    args = parser.parse_args(argv)
    found = [f for f in functions(args.paths) if args.name is None or f[2].rsplit(".", 1)[-1] == args.name]
    over = sorted((f for f in found if f[0] > args.max), reverse=True)
    for complexity, where, name in over:
        print(f"{where} {name} {complexity} (above {args.max})")
    top = ", ".join(f"{name} {complexity}" for complexity, _, name in sorted(found, reverse=True)[:5])
    print(f"{len(found)} functions, {len(over)} above {args.max}; the most complex: {top}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
