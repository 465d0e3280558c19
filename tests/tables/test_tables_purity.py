"""The table rules are pure (DEVELOPERS, STYLE; tests/engine/test_purity.py's way): tables/rules never imports Django."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "tables" / "rules"


def test_no_table_rules_module_imports_django():
    files = sorted(RULES.rglob("*.py"))
    assert len(files) > 10
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not {n for n in names if n.split(".")[0] in {"django", "celery", "django_q"}}, path.name


def test_importing_every_table_rules_module_loads_no_django():
    code = (
        "import sys, tables.rules, tables.rules.direnjie_cards_sheet;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'django'); print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


# --- the layout of the tables app: no import circle, the rules never import a view, each game on its own ----------

PROJECT = ("moderator", "nights", "votes", "cards")
GAMES = ("anhuoxian", "direnjie", "noir", "sanguosha")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, known: set[str]) -> set[str]:
    """Every module of ``known`` (or outside the app, by top name) that ``path`` imports, anywhere in the file: an
    import inside a function counts as much as one at the top."""
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            for alias in node.names:
                out.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return out


def _graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in (ROOT / "tables").rglob("*.py") if "migrations" not in p.parts}
    known = set(files)
    return {name: _imports(path, known) for name, path in files.items()}


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in graph.get(todo.pop(), set()) - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def test_no_module_of_the_tables_app_is_in_an_import_circle():
    graph = _graph()
    circles = sorted(m for m in graph if m in _reach(graph, m))
    assert not circles, circles


def test_no_rules_module_imports_a_view_and_no_game_imports_another():
    graph = _graph()
    rules = [m for m in graph if m.startswith("tables.rules.") and not m.endswith(("_view", "_table", "tracker"))]
    assert len(rules) >= 12
    for module in rules:
        views = {m for m in _reach(graph, module) if m.endswith("_view")}
        assert not views, (module, views)
    for module in (m for m in graph if m.startswith("tables.rules.")):
        game = next((g for g in GAMES if module.split(".")[-1].startswith(g)), None)
        others = {
            m for m in _reach(graph, module) if m.startswith("tables.rules.") and m.split(".")[-1].startswith(GAMES)
        }
        assert game is None or all(m.split(".")[-1].startswith(game) for m in others), (module, others)


def test_the_tables_app_never_imports_the_direnjie_engine():
    graph = _graph()
    for module, imported in graph.items():
        assert not {m for m in imported if m.split(".")[0] in PROJECT}, module
