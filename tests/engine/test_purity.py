"""The rules are pure (DEVELOPERS, STYLE): the engine, the card rules and the parser never import Django."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Every pure part of the house: the rules core, night resolution, the count and the vote-post reader, the card
# catalogue, dealing and orders, and the PM parser.
PURE = [
    ROOT / "moderator" / "rules",
    ROOT / "moderator" / "parser",
    ROOT / "nights" / "resolve.py",
    ROOT / "nights" / "bodyguard.py",
    ROOT / "nights" / "arson.py",
    ROOT / "votes" / "count.py",
    ROOT / "votes" / "reader.py",
    ROOT / "cards" / "catalogue.py",
    ROOT / "cards" / "dealing.py",
    ROOT / "cards" / "orders.py",
]


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_pure_module_imports_django_or_celery():
    files = [f for p in PURE for f in ([p] if p.is_file() else p.rglob("*.py"))]
    assert files
    for path in files:
        bad = {n for n in _imports(path) if n.split(".")[0] in {"django", "celery", "django_q"}}
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_importing_the_engine_loads_no_django():
    code = (
        "import sys, moderator.rules, moderator.parser, nights.resolve, votes.count, moderator.parser.votes, moderator.game.orders;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'celery'));"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
