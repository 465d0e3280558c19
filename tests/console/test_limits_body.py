"""A form over the body limit (Django's 2.5 MB, files aside) is answered with a 413 page in Chinese that says the
limit — read to its end first, so that gunicorn closes a connection with nothing unread and the browser shows the
page, not a network error — and nothing is stored."""

from __future__ import annotations

import http.client
import os
from urllib.parse import urlencode

import pytest
from django.conf import settings

from moderator.models import Message, Phase
from tests.console.test_console import _at, _seat
from tests.servers import WebServer

pytestmark = pytest.mark.django_db
TOO_BIG = "杀" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 9 + 1000)  # 3 bytes a character, then percent-encoded


def test_a_manifesto_edit_over_the_limit_gets_a_413_page_that_says_the_limit(gm_client, game):
    phase = game.phases.get(status=Phase.Status.OPEN)
    data = {"seat": _seat(game, "甲").pk, "forum_at": _at(phase), "text": "今晚我休息", "preview": "1"}
    form = urlencode({**data, "manifesto_0": TOO_BIG})  # as a browser sends a form without a file
    response = gm_client.post(f"/gm/{game.pk}/pm/", form, content_type="application/x-www-form-urlencoded")
    page = response.content.decode()
    assert response.status_code == 413
    assert "提交的内容太大" in page and "每次最多接收 2.5 MB" in page and "没有保存任何内容" in page
    assert not Message.objects.exists()
    assert gm_client.post(f"/gm/{game.pk}/pm/", data).status_code == 200  # a form under the limit: as ever


def test_behind_gunicorn_the_413_page_arrives_whole_over_an_open_connection(tmp_path):
    server = WebServer(tmp_path / "gunicorn.log", dict(os.environ), workers=1)
    server.start()
    try:
        body = urlencode({"kind": "noir", "players": "甲,乙", "name": TOO_BIG}).encode()
        assert len(body) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        try:
            secret = "a" * 32  # a CSRF cookie and its token, as the page's form sends them
            headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={secret}"}
            conn.request("POST", "/tables/", body, headers | {"X-CSRFToken": secret})
            response = conn.getresponse()
            page = response.read().decode()
        except (TimeoutError, ConnectionError) as exc:  # what the browser sees as a network error
            pytest.fail(f"the connection broke: {exc!r}\n{server.output()}")
        finally:
            conn.close()
    finally:
        server.stop()
    assert response.status == 413 and "每次最多接收 2.5 MB" in page
