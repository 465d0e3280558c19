"""Every close of a phase outside the pure engine goes through the one close calculation: the clock's close, a
preview, a replay's close of a phase already closed (a correction, an import, the 为什么), a digest. Only
`closing.resolve` asks the engine for one (`rules.end_phase`); a page, a task or another service that called the
engine itself would work out what a close gives a second way."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ("moderator/rules", "moderator/game")  # the pure core: the engine itself and its views of a state


def _callers(path: Path) -> list[tuple[str, str]]:
    """(module, function) of each place the module names the engine's close (an import of it: "import")."""
    module, found = str(path.relative_to(ROOT)), []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for func in ast.walk(tree):
        if isinstance(func, ast.ImportFrom) and any(a.name == "end_phase" for a in func.names):
            found.append((module, "import"))
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(func):
                if (node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")) == "end_phase":
                    found.append((module, func.name))
    return found


def test_only_the_one_close_calculation_asks_the_engine_for_a_close():
    files = [p for p in sorted((ROOT / "moderator").rglob("*.py")) if not str(p.relative_to(ROOT)).startswith(ENGINE)]
    assert [hit for p in files for hit in _callers(p)] == [("moderator/services/closing.py", "resolve")]
