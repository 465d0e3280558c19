"""Anyone with admin rights could edit or delete `AuditLog` rows — the record of who did what. The admin
now shows the audit read-only, like the input log: no add, no change, no delete, no bulk delete."""

from __future__ import annotations

import pytest

from moderator.models import AuditLog, Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def row(db):
    game = Game.objects.create(name="审计局", seats_count=7, hand_size=5, deck=[], order_seed="1")
    return AuditLog.objects.create(
        game=game, action=AuditLog.Action.INPUT_VOID, detail={"input": 3, "reason": "天神手误"}
    )


def test_the_admin_shows_the_audit_but_nobody_can_edit_it(admin_client, row):
    url = f"/admin/moderator/auditlog/{row.pk}/change/"
    page = admin_client.get(url)
    assert (
        page.status_code == 200 and "作废输入" in page.content.decode() and 'name="_save"' not in page.content.decode()
    )
    response = admin_client.post(url, {"game": row.game_id, "action": "无事发生", "detail": "{}"})
    assert response.status_code == 403
    row.refresh_from_db()
    assert row.action == AuditLog.Action.INPUT_VOID and row.detail["reason"] == "天神手误"


def test_nobody_can_delete_an_audit_row_one_by_one_or_in_bulk(admin_client, row):
    assert admin_client.post(f"/admin/moderator/auditlog/{row.pk}/delete/", {"post": "yes"}).status_code == 403
    bulk = {"action": "delete_selected", "_selected_action": [row.pk], "post": "yes"}
    admin_client.post("/admin/moderator/auditlog/", bulk)
    assert AuditLog.objects.filter(pk=row.pk).exists()


def test_nobody_can_add_an_audit_row_by_hand(admin_client, row):
    response = admin_client.post(
        "/admin/moderator/auditlog/add/", {"game": row.game_id, "action": "伪造", "detail": "{}"}
    )
    assert response.status_code == 403 and not AuditLog.objects.filter(action="伪造").exists()
