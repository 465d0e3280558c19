"""Each public name defined once: `python -m bench.names [PACKAGE ...]` (default: moderator nights votes cards tables).

Reads every module of the packages (migrations excepted) with `ast` and prints each public top-level name — a `def`,
a `class`, an assignment, also under a top-level `if` or `try` — that two or more modules define, so that a name found
by grep means one thing; the exit status is 1 if there is any. `make lint` runs it. Allowed, and only where said:

* the members of the table games' interface, the `TableGame` protocol of `tables/rules/moves.py` (read from the class
  itself), in the modules of `tables/rules/`: every game module implements it (docs/tables.md);
* `ACTION_NAMES` in `tables/rules/`: each electronic game's names of its action types, which the fuzz reads through
  the game to check its oracle (`tests/tables/test_tables_fuzz.py`);
* what Django reads from a module by its name: `Command` (a management command), `register` (a template tag
  library), `urlpatterns` (a URLconf).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path

PACKAGES = ["moderator", "nights", "votes", "cards", "tables"]
PROTOCOL = ("tables/rules/moves.py", "TableGame")
GAME_MODULES = "tables/rules/*.py"
# Names that several modules define by design: the modules (a glob) where they may.
EXCEPTIONS = {
    "ACTION_NAMES": GAME_MODULES,
    "Command": "*/management/commands/*.py",
    "register": "*/templatetags/*.py",
    "urlpatterns": "*urls.py",
}


def _targets(node: ast.expr) -> Iterator[str]:
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, ast.Tuple | ast.List):
        for element in node.elts:
            yield from _targets(element)


def _defined(body: list[ast.stmt]) -> Iterator[str]:
    """The names a module body defines, with those of its top-level `if` and `try` blocks."""
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                yield from _targets(target)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
            yield node.target.id
        elif isinstance(node, ast.If):
            yield from _defined(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            yield from _defined(node.body + node.orelse + node.finalbody + [s for h in node.handlers for s in h.body])


def protocol_members(root: Path) -> set[str]:
    """The attributes and methods the `TableGame` protocol declares."""
    path, name = PROTOCOL
    tree = ast.parse((root / path).read_text(encoding="utf-8"))
    protocol = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    return {n for n in _defined(protocol.body) if not n.startswith("_")}


def allowed(root: Path) -> dict[str, str]:
    """Each name several modules may define, with the modules (a glob) where they may."""
    return {**dict.fromkeys(protocol_members(root), GAME_MODULES), **EXCEPTIONS}


def definitions(root: Path, packages: list[str]) -> dict[str, list[str]]:
    """Every public top-level name of the packages' modules, with the modules that define it (paths from `root`)."""
    found: dict[str, list[str]] = defaultdict(list)
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            where = path.relative_to(root).as_posix()
            for name in sorted(set(_defined(ast.parse(path.read_text(encoding="utf-8")).body))):
                if not name.startswith("_"):
                    found[name].append(where)
    return found


def duplicates(root: Path, packages: list[str]) -> dict[str, list[str]]:
    """The names two or more modules define, but for the allowed ones in the modules where they are allowed (those
    count as one: a protocol member defined by the game modules and once elsewhere is a duplicate)."""
    exceptions = allowed(root)
    out = {}
    for name, modules in definitions(root, packages).items():
        glob = exceptions.get(name)
        sites = [m for m in modules if glob is None or not fnmatch(m, glob)]
        if len(sites) < len(modules):
            sites.append(glob or "")
        if len(sites) > 1:
            out[name] = modules
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.names", description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*", default=PACKAGES, help="the packages to read (default: %(default)s)")
    parser.add_argument("--root", type=Path, default=Path("."), help="the checkout (default: the current directory)")
    args = parser.parse_args(argv)
    found = duplicates(args.root, args.packages)
    for name in sorted(found):
        print(f"{name}: defined in {len(found[name])} modules: {', '.join(found[name])}")
    names = len(definitions(args.root, args.packages))
    print(f"{names} public names, {len(found)} defined in two or more modules (allowed: {len(allowed(args.root))})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
