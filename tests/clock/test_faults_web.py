"""A fault as a test (marker `faults`): the web process killed between a PM's preview and its confirm.

The 天神 previews a PM in the console of a real web server (gunicorn, the Procfile's command, started here on a free
port over the test database); the server is SIGKILLed — master and workers — and started again; the confirm is sent
from the page the dead server rendered, over real HTTP. It stores exactly what the preview showed, once, or — when the
game moved on meanwhile (the clock closed the phase) — is refused with a message saying why and stores nothing; the
same confirm sent again changes nothing. The form's token is signed with the site's key, not kept in the process: a
restart with the same key still honours the page it issued, and spends its token once."""

from __future__ import annotations

import os
import re
import threading
import uuid
from datetime import timedelta

import pytest
import requests
from clockkit import activity, database_url, raw_connection, sessions_ended, wait_for
from django.utils import timezone

from bench.forms import form_data
from moderator.models import AuditLog, Input, Message, Phase, UsedToken
from moderator.services import clock, setup, storage
from tests.servers import WebServer

pytestmark = [pytest.mark.faults, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TABLE = [
    {"name": "甲", "camp": "杀手", "hand": ["庶民", "庶民", "狙击手", "保镖", "杀手"]},
    {"name": "乙", "camp": "平民", "hand": ["庶民", "束魂", "诅咒/庇佑", "防弹衣/狼毒", "禁锢/反狙击"]},
    {"name": "丙", "camp": "平民", "hand": ["庶民", "巫医", "绝杀/特赦", "纵火/圣人", "阿米巴"]},
    {"name": "丁", "camp": "狼人", "hand": ["庶民", "狼人", "束魂", "巫医", "狙击手"]},
]
PASSWORD = "pw-web-fault-123"
PM = "束魂 丙;诅咒 甲;狙击 丁"  # 乙: 束魂 (2 AP) and 诅咒 (1 AP) accepted; no 狙击手 in hand: not understood


@pytest.fixture
def game(django_user_model):
    gm = django_user_model.objects.create_user("天神web", password=PASSWORD)
    g = setup.table_create(name="网页故障局", players=TABLE)
    g.gms.add(gm)
    setup.game_start(game=g, at=timezone.now() - timedelta(hours=1))  # night 1 open, ending in 23 hours
    return g


@pytest.fixture
def web(tmp_path):
    """gunicorn on the test database (its sessions named, and ended after the test), this run's key."""
    name = f"webfault-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "DATABASE_URL": database_url(), "PGAPPNAME": name}
    server = WebServer(tmp_path / "gunicorn.log", env)
    server.app_name = name  # its sessions in pg_stat_activity
    server.start()
    yield server
    server.stop()
    sessions_ended(name)


def signed_in(web: WebServer) -> requests.Session:
    """The 天神's browser: signed in through the sign-in form."""
    browser = requests.Session()
    page = browser.get(f"{web.url}/accounts/login/", timeout=30).text
    data = form_data(page, None)
    data.update(username=["天神web"], password=[PASSWORD])
    answer = browser.post(f"{web.url}/accounts/login/", data=data, timeout=30, allow_redirects=False)
    assert answer.status_code == 302, answer.text[-2000:]
    return browser


def previewed(web: WebServer, browser: requests.Session, game) -> tuple[str, dict]:
    """The PM pasted and previewed: the preview page, and what its 确认保存 button sends."""
    url = f"{web.url}/gm/{game.pk}/pm/"
    form = form_data(browser.get(url, timeout=30).text, "intake")
    phase = game.phases.get(status=Phase.Status.OPEN)
    at = timezone.localtime(phase.starts_at + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M")
    form.update(seat=[str(game.seats.get(player_name="乙").pk)], forum_at=[at], text=[PM], preview=["1"])
    preview = browser.post(url, data=form, timeout=30)
    assert preview.status_code == 200 and 'id="confirm"' in preview.text, preview.text[-3000:]
    return preview.text, form_data(preview.text, "intake", submit=("confirm", "1"))


def confirm(web: WebServer, browser: requests.Session, game, data: dict) -> requests.Response:
    return browser.post(f"{web.url}/gm/{game.pk}/pm/", data=data, timeout=30)


def rows(page: str) -> list[tuple[str, str]]:
    """The preview's table: each item's verdict (将被接受 / 将被拒绝) and its cost."""
    table = page.split("<tr><th>内容</th><th>结果</th><th>扣点</th></tr>", 1)[1].split("</table>", 1)[0]
    return re.findall(r'<span class="(ok|error)">.*?</td>\s*<td>(\d+)</td>', table, re.S)


def killed_and_restarted(web: WebServer) -> None:
    web.kill()
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{web.url}/healthz", timeout=5)
    web.start()


def test_a_confirm_from_a_page_the_killed_server_rendered_stores_what_was_previewed_once(web, game):
    browser = signed_in(web)
    page, data = previewed(web, browser, game)
    shown = rows(page)
    assert sorted(shown) == [("ok", "1"), ("ok", "2")] and "合计扣除 3 点" in page
    assert page.count('<li id="refusal-') == 1  # the 狙击, shown as not understood
    assert not Message.objects.exists()

    killed_and_restarted(web)

    answer = confirm(web, browser, game, data)
    assert answer.status_code == 200 and "已保存 乙 的消息:2 项被接受,0 项被拒绝,1 处没有读懂" in answer.text, (
        answer.text[-3000:]
    )
    message = Message.objects.get()
    assert message.text == PM and message.seat.player_name == "乙"
    stored = sorted(("ok" if i.status == "accepted" else "error", str(i.cost)) for i in Input.objects.all())
    assert stored == sorted(shown)
    uses = sorted((i.payload["use"], i.payload["target"]) for i in Input.objects.all())
    assert uses == [("束魂", 3), ("诅咒", 1)]  # targets by seat: 丙 is seat 3, 甲 seat 1
    assert storage.game_replay(game).state.seat("乙").ap == 0  # 3 − 2 − 1, charged once

    again = confirm(web, browser, game, data)  # the button pressed again, or the page reloaded
    assert again.status_code == 200 and "这个表单已经提交过了" in again.text, again.text[-3000:]
    assert Message.objects.count() == 1 and Input.objects.count() == 2
    assert AuditLog.objects.filter(action="录入消息").count() == 1
    assert UsedToken.objects.filter(game=game, action="录入消息").count() == 1  # the page's token, spent once


def test_a_confirm_whose_phase_closed_while_the_server_was_down_is_refused_and_stores_nothing(web, game):
    browser = signed_in(web)
    _, data = previewed(web, browser, game)

    web.kill()
    night = game.phases.get(status=Phase.Status.OPEN)
    Phase.objects.filter(pk=night.pk).update(ends_at=clock.db_now())
    assert clock.phase_close_due(phase_id=night.pk)  # the clock closes night 1 while the web process is down
    web.start()

    answer = confirm(web, browser, game, data)
    assert answer.status_code == 200, answer.text[-3000:]
    assert "页面已过期:提交的页面显示的是第1夜,现在是第1天。什么都没有改动" in answer.text, answer.text[-3000:]
    assert not Message.objects.exists() and not Input.objects.exists()
    again = confirm(web, browser, game, data)
    assert "页面已过期" in again.text and not Message.objects.exists()
    assert not AuditLog.objects.filter(action="录入消息").exists()


def test_a_confirm_in_flight_when_the_server_is_killed_stores_nothing_and_the_next_one_stores_it_once(web, game):
    """The confirm waits on the game's lock (held here) inside its transaction when the server is SIGKILLed: its
    transaction never commits. The 天神 presses 确认保存 again on the restarted server: stored once; a third press
    changes nothing."""
    browser = signed_in(web)
    _, data = previewed(web, browser, game)
    answers: list = []
    with raw_connection() as holder:
        holder.execute("SELECT id FROM moderator_game WHERE id = %s FOR UPDATE", [game.pk])
        sending = threading.Thread(target=lambda: answers.append(_try(lambda: confirm(web, browser, game, data))))
        sending.start()
        waiting = "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s AND wait_event_type = 'Lock'"
        assert wait_for(lambda: activity(waiting, [web.app_name])[0], 30), web.output()
        web.kill()
        sending.join(30)
        holder.rollback()  # the dead server's transaction gets the lock, then finds its client gone
    assert isinstance(answers[0], requests.ConnectionError)  # the 天神 saw no answer
    idle = "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s AND state <> 'idle'"
    assert wait_for(lambda: not activity(idle, [web.app_name])[0], 30)
    assert not Message.objects.exists() and not UsedToken.objects.filter(action="录入消息").exists()

    web.start()
    answer = confirm(web, browser, game, data)
    assert "已保存 乙 的消息:2 项被接受,0 项被拒绝,1 处没有读懂" in answer.text, answer.text[-3000:]
    again = confirm(web, browser, game, data)
    assert "这个表单已经提交过了" in again.text, again.text[-3000:]
    assert Message.objects.count() == 1 and Input.objects.count() == 2
    assert storage.game_replay(game).state.seat("乙").ap == 0


def _try(call):
    try:
        return call()
    except Exception as exc:  # what the browser got: an answer, or none
        return exc
