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
