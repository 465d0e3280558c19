"""The largest files an attacker sends the import: 8 MB holding 60,000 seated names is refused by its size before it
is read; the same 60,000 names packed under the size limit are refused by their count before one is checked; a backup
game with 60,000 seats is refused by `restore` with nothing written. Each in a sentence, quickly, never a 500."""

from __future__ import annotations

import json
import time
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from moderator.models import Game
from moderator.services import transfer
from moderator.services.setup import SEATS_MAX
from moderator.services.transfer_schema import MAX_BYTES
from tests.tokens import signed

pytestmark = pytest.mark.django_db
NAMES = 60_000


@pytest.fixture
def gm_client(db):
    client = Client()
    client.force_login(get_user_model().objects.create_user("gm", password="pw-123456"))
    return client


def _seats(exported: dict, n: int, size: int = 0) -> dict:
    """The export with `n` seated names (only their names: the count is refused before any seat is read), padded to
    `size` bytes."""
    data = dict(exported, seats=[{"player_name": f"p{k}"} for k in range(n)])
    if size:
        data["padding"] = "x" * (size - len(json.dumps(data, ensure_ascii=False).encode()))
    return data


def _upload(client, body: bytes):
    return client.post(
        "/games/import/",
        {**signed(client, "console_import"), "file": SimpleUploadedFile("g.json", body), "name": "导入"},
    )


def test_an_eight_megabyte_import_of_sixty_thousand_names_is_refused_by_its_size(gm_client, sample):
    body = json.dumps(
        _seats(transfer.export_game(sample.game), NAMES, size=8 * 1024 * 1024 + 1000), ensure_ascii=False
    ).encode()
    assert 8 * 1024 * 1024 <= len(body) < 9 * 1024 * 1024
    before = Game.objects.count()
    started = time.monotonic()
    response = _upload(gm_client, body)
    took = time.monotonic() - started
    page = response.content.decode()
    assert response.status_code == 200 and "文件太大" in page and f"最多 {MAX_BYTES // 1024 // 1024} MB" in page
    assert Game.objects.count() == before and took < 5


def test_sixty_thousand_names_under_the_size_limit_are_refused_by_their_count(gm_client, sample):
    body = json.dumps(_seats(transfer.export_game(sample.game), NAMES), ensure_ascii=False).encode()
    assert len(body) < MAX_BYTES
    before = Game.objects.count()
    started = time.monotonic()
    response = _upload(gm_client, body)
    took = time.monotonic() - started
    page = response.content.decode()
    assert response.status_code == 200 and f"一局游戏最多 {SEATS_MAX} 名玩家,这个文件有 {NAMES} 名玩家" in page
    assert Game.objects.count() == before and took < 5


def test_a_backup_game_of_sixty_thousand_seats_is_refused_by_restore_with_nothing_written(sample, tmp_path):
    entry = transfer.backup_entry(sample.game)
    entry["export"] = _seats(entry["export"], NAMES)
    file = tmp_path / "backup.json"
    file.write_text(json.dumps({"format": "direnjie-backup/2", "games": [entry]}, ensure_ascii=False), encoding="utf-8")
    Game.objects.all().delete()
    with pytest.raises(CommandError, match=f"第 1 局.*一局游戏最多 {SEATS_MAX} 名玩家"):
        call_command("restore", str(file), stdout=StringIO(), stderr=StringIO())
    assert not Game.objects.exists()
