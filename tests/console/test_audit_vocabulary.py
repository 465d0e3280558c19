"""The audit log speaks one vocabulary (`AuditLog.Action`): no code writes or looks up a row by a bare string, every
act has its sentence on the audit page, and a game made from the console is on it from its first row."""

import ast
from pathlib import Path

import pytest
from django.urls import reverse

from moderator.console.sentences import SENTENCES, audit_sentence
from moderator.models import AuditLog
from moderator.services import setup

ROOT = Path(__file__).resolve().parents[2]
# The writers of the log: audit.record and the clock's own shorthand for it.
WRITERS = {"record", "_audit"}


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _bare(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _literals(path: Path) -> list[str]:
    """Where a module names an act by a bare string: given to a writer of the log, as `action=` (or `action__in=`)
    to one of its queries, or compared with a row's `.action`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        said: list[ast.expr] = []
        if isinstance(node, ast.Call):
            if _name(node.func) in WRITERS:
                said += node.args
            for k in node.keywords:
                if k.arg in ("action", "action__in") and "audit" in ast.unparse(node.func).lower():
                    said += k.value.elts if isinstance(k.value, (ast.List, ast.Tuple, ast.Set)) else [k.value]
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr == "action" for s in sides):
                said += sides
        found += [f"{path.relative_to(ROOT)}:{node.lineno} {v.value!r}" for v in said if _bare(v)]
    return found


def test_no_code_writes_or_reads_an_act_by_a_bare_string():
    files = [
        p
        for p in sorted((ROOT / "moderator").rglob("*.py")) + sorted((ROOT / "tables").rglob("*.py"))
        if "migrations" not in p.parts and p != ROOT / "moderator" / "models.py"
    ]
    found = [hit for p in files for hit in _literals(p)]
    assert not found, "name the act by AuditLog.Action:\n" + "\n".join(found)


def test_every_act_has_its_sentence_on_the_audit_page():
    assert set(AuditLog.Action) - set(SENTENCES) == set()


@pytest.mark.parametrize("action", list(AuditLog.Action))
def test_an_act_whose_detail_cannot_be_read_shows_its_chinese_name(action):
    row = AuditLog(action=action, detail={"unexpected": 1})
    shown = audit_sentence(row)
    assert shown and not shown.isascii()


@pytest.mark.django_db
def test_a_game_made_by_a_gm_is_on_its_audit_page_from_the_first_row(client, django_user_model):
    gm = django_user_model.objects.create_user("天神甲", password="pw-pw-pw-1")
    game = setup.game_create(name="审计局", player_names=list("甲乙丙丁戊己庚"), gm=gm, camp_seed=1, deal_seed=1)
    [row] = AuditLog.objects.filter(game=game)
    assert (row.action, row.actor) == (AuditLog.Action.GAME_CREATE, gm)
    client.force_login(gm)
    page = client.get(reverse("console_audit", args=[game.pk])).content.decode()
    assert "新建游戏「审计局」,7 个座位" in page
