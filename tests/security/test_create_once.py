"""The 天神's part of a form sent again: the new-game form sent 4× made 4 games, and an import uploaded twice made two. Both
forms carry a one-time token (`{% once %}`, moderator.services.once.spend_create): a repeated or concurrent submit
makes nothing, and the 天神 is told which game the first submit made."""

from __future__ import annotations

import json
import re
import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client

from moderator.models import Game
from moderator.services import transfer
from tests.world import CAST, signed_in


def _client(gm) -> Client:
    return signed_in(gm)


def _token(client, url: str) -> str:
    """The one-time token the form's page carries, as a browser would send it back."""
    return re.search(r'name="once" value="([^"]+)"', client.get(url).content.decode()).group(1)


@pytest.mark.django_db
def test_the_new_game_form_sent_four_times_makes_one_game_and_says_so(gm):
    client = _client(gm)
    form = {"once": _token(client, "/games/new/"), "name": "论坛第40局", "players": "\n".join(CAST)}
    first = client.post("/games/new/", form)
    assert first.status_code == 302
    for _ in range(3):
        again = client.post("/games/new/", form, follow=True)
        page = again.content.decode()
        assert again.redirect_chain[-1][0] == first["Location"]  # back to the game the first submit made
        assert "这个表单已经提交过了" in page and "第一次提交已经建好了“论坛第40局”" in page and "没有再建一局" in page
    assert Game.objects.filter(name="论坛第40局").count() == 1


@pytest.mark.django_db
def test_a_new_game_form_without_its_token_makes_nothing_and_says_why(gm):
    page = _client(gm).post("/games/new/", {"name": "旧页面", "players": "\n".join(CAST)}).content.decode()
    assert "缺少一次性令牌" in page and not Game.objects.filter(name="旧页面").exists()


@pytest.mark.django_db
def test_a_fresh_form_makes_a_second_game(gm):
    client = _client(gm)
    for _ in range(2):
        form = {"once": _token(client, "/games/new/"), "name": "两局", "players": "\n".join(CAST)}
        assert client.post("/games/new/", form).status_code == 302
    assert Game.objects.filter(name="两局").count() == 2


@pytest.mark.django_db
def test_an_import_uploaded_twice_makes_one_game(gm, sample):
    client = _client(gm)
    body = json.dumps(transfer.export_game(sample.game), ensure_ascii=False).encode()
    once = _token(client, "/games/import/")
    responses = [
        client.post("/games/import/", {"once": once, "file": SimpleUploadedFile("g.json", body), "name": "导入一次"})
        for _ in range(2)
    ]
    assert responses[0].status_code == 302 and responses[1]["Location"] == responses[0]["Location"]
    assert Game.objects.filter(name="导入一次").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_four_concurrent_submits_of_one_new_game_form_make_one_game(gm):
    once = _token(_client(gm), "/games/new/")
    form = {"once": once, "name": "并发局", "players": "\n".join(CAST)}
    barrier, codes = threading.Barrier(4), []

    def submit():
        client = _client(gm)
        try:
            barrier.wait()
            codes.append(client.post("/games/new/", form).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(codes) == [302] * 4  # the first to its game, the others told and sent to the same game
    assert Game.objects.filter(name="并发局").count() == 1
