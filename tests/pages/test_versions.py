"""Pages without a database query while nothing changed: the public and private pages come from the cache
under the game's page version, changed after every write commits; whatever the cache does, never a stale page.

The test transaction never commits, so each write here is committed as far as the pages can tell by running its
on-commit callbacks (pytest-django's `django_capture_on_commit_callbacks(execute=True)`); a write left uncommitted
keeps its game's pages on the database (test_an_uncommitted_write_of_the_game_is_never_cached)."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse
from django.utils import timezone
from pages_scan import text_of

from bench.sample import sample_game
from moderator.models import Game, Phase, Seat, new_token
from moderator.services import base, intake, play, setup, versions
from moderator.services.seats import seat_token_rotate
from tests.pages import conftest

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run `fn` as a committed write: its on-commit callbacks (the page versions) run."""

    def run(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return run


@pytest.fixture
def played(committed, request):
    """The sample game, its writes committed (conftest.played: played through the services once per module)."""
    return committed(conftest.played, request.module.__name__)


def public(s) -> str:
    return reverse("game_public", args=[s.game.pk])


def private(seat) -> str:
    return reverse("seat_private", args=[seat.token])


def get(client, url: str):
    """The page and how many queries it cost."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return response, len(queries)


def without_clock(response) -> str:
    """What a reader sees, the countdown left out (it moves every second, cached or not)."""
    return text_of(re.sub(r'<p class="clock">.*?</p>', "", response.content.decode(), flags=re.S))


def page_text(client, url: str, clock: bool = False) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return text_of(response.content.decode()) if clock else without_clock(response)


def ballot(client, s, voter: str, target: str) -> bool:
    return f"<tr><td>{voter}</td><td>{target}</td>" in client.get(public(s)).content.decode()


def test_a_second_request_of_an_unchanged_game_makes_no_query(client, played):
    for url in [public(played), *(private(seat) for seat in played.seats.values())]:
        first, cold = get(client, url)
        second, warm = get(client, url)
        assert first.status_code == second.status_code == 200
        assert cold > 0 and warm == 0, url


def test_a_pm_confirm_shows_on_the_next_request_of_both_pages(client, played, committed):
    voter = played.seats["庚"]
    before_public, before_private = page_text(client, public(played)), page_text(client, private(voter))
    assert "投甲" not in before_private
    at = played.game.phases.get(status=Phase.Status.OPEN).starts_at + timedelta(hours=2)
    committed(intake.pm_confirm, played.game, intake.Pasted(seat=voter, text="投甲", forum_at=at, vote_post=True))
    assert ballot(client, played, "庚", "甲")
    assert page_text(client, public(played)) != before_public
    assert page_text(client, private(voter)) != before_private


def test_a_close_shows_the_next_phase_at_once(client, committed, db):
    s = committed(sample_game, upto=1)
    assert "第1夜" in page_text(client, public(s), clock=True)
    assert "第1天" not in page_text(client, public(s), clock=True)
    night = s.game.phases.get(status=Phase.Status.OPEN)
    assert committed(play.phase_close, phase=night, now=night.ends_at + timedelta(seconds=1))
    assert "第1天" in page_text(client, public(s), clock=True)
    assert "第1天" in page_text(client, private(s.seats["甲"]), clock=True)


def test_a_void_shows_on_the_private_page(client, played, committed):
    seat = played.seats["甲"]
    at = played.game.phases.get(status=Phase.Status.OPEN).starts_at + timedelta(hours=3)
    committed(intake.pm_confirm, played.game, intake.Pasted(seat=seat, text="改投戊", forum_at=at, vote_post=True))
    before = page_text(client, private(seat))
    rec = played.game.inputs.filter(seat=seat).latest("seq")
    committed(intake.input_void, game=played.game, pk=rec.pk, reason="测试作废")
    after = page_text(client, private(seat))
    assert "测试作废" not in before and "测试作废" in after


def test_a_rotated_link_stops_at_once_and_the_new_one_shows_the_same_seat(client, played, committed):
    seat = played.seats["甲"]
    old = seat.token
    page_before = page_text(client, private(seat))
    assert get(client, private(seat))[1] == 0  # cached under the old link
    seat = committed(seat_token_rotate, seat=seat)
    response, _ = get(client, reverse("seat_private", args=[old]))
    assert response.status_code == 404
    assert client.get(reverse("seat_private", args=[old])).status_code == 404  # and again, warm
    assert page_text(client, private(seat)) == page_before  # the seat's page under its new link


def test_a_rotation_behind_the_application_s_back_is_caught_by_the_check(client, played, settings):
    """A change of link whose version change was lost (an UPDATE by hand, a process killed between its commit and
    the change): the old link's page is checked against the database when its mark expires (here: at once)."""
    seat = played.seats["甲"]
    client.get(private(seat))
    Seat.objects.filter(pk=seat.pk).update(token=new_token())
    assert client.get(private(seat)).status_code == 200  # within PAGES_REVALIDATE_SECONDS
    settings.PAGES_REVALIDATE_SECONDS = 0
    assert client.get(private(seat)).status_code == 404


def test_no_seat_is_ever_served_another_seats_page_nor_the_public_one(client, played):
    pages = {name: page_text(client, private(seat)) for name, seat in played.seats.items()}
    for name, seat in played.seats.items():  # warm now: each link still gets its own page
        assert page_text(client, private(seat)) == pages[name]
        for other, text in pages.items():
            if other != name:
                assert text != pages[name]
    public_text = page_text(client, public(played))
    assert all(public_text != text for text in pages.values())


def test_a_substituted_player_s_link_stops_and_the_new_holder_sees_the_seat(client, played, committed):
    seat = played.seats["戊"]
    old = seat.token
    assert "戊 的私人页面" in page_text(client, private(seat))
    committed(setup.seat_substitute, seat=seat, player_name="新来的", at=timezone.now())
    assert client.get(reverse("seat_private", args=[old])).status_code == 404
    seat.refresh_from_db()
    assert "新来的 的私人页面" in page_text(client, private(seat))
    assert "新来的" in page_text(client, public(played))


def test_an_uncommitted_write_of_the_game_is_never_cached(client, played):
    """Inside a transaction that wrote the game, its pages come from the database (its view is not everyone's)."""
    client.get(public(played))
    base.game_lock(played.game)  # a write begun, not committed
    assert versions.pending(played.game.pk)
    response, queries = get(client, public(played))
    assert response.status_code == 200 and queries > 0


def test_a_cleared_cache_falls_back_to_the_database(client, played):
    first = page_text(client, public(played))
    cache.clear()
    response, queries = get(client, public(played))
    assert queries > 0 and without_clock(response) == first
    assert get(client, public(played))[1] == 0


def test_a_change_behind_the_application_s_back_is_seen_once_the_check_expires(client, played, settings):
    """An edit that changes no version (an UPDATE by hand): served from the cache until the check, then seen."""
    first = page_text(client, public(played))
    Game.objects.filter(pk=played.game.pk).update(name="改过名的局", input_seq=F("input_seq") + 1)
    assert page_text(client, public(played)) == first  # within PAGES_REVALIDATE_SECONDS
    settings.PAGES_REVALIDATE_SECONDS = 0
    assert "改过名的局" in page_text(client, public(played))


def test_after_the_deadline_a_cached_page_says_the_time_is_up(client, played, committed):
    phase = played.game.phases.get(status=Phase.Status.OPEN)
    committed(lambda: Phase.objects.filter(pk=phase.pk).update(ends_at=timezone.now() + timedelta(seconds=2)))
    versions.bump(played.game.pk)
    assert "还剩" in page_text(client, public(played), clock=True)
    time.sleep(2.2)
    response, queries = get(client, public(played))
    assert queries == 0 and "已到截止时间,等待天神结算" in text_of(response.content.decode())


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_cache_falls_back_to_the_database(client, played):
    expected = page_text(client, public(played))
    unreachable = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": f"redis://127.0.0.1:{_closed_port()}/0",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
    with override_settings(CACHES={"default": unreachable}):
        for _ in range(2):
            response, queries = get(client, public(played))
            assert response.status_code == 200 and queries > 0
            assert without_clock(response) == expected
        assert client.get(private(played.seats["甲"])).status_code == 200


@pytest.fixture
def own_redis(tmp_path):
    """A redis-server of this test's own on a free port (never the Redis at REDIS_URL), stopped by its pid."""
    if not shutil.which("redis-server"):
        pytest.skip("需要 redis-server 程序")
    import redis

    port = _closed_port()
    cmd = ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"]
    proc = subprocess.Popen([*cmd, "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    for _ in range(100):
        try:
            if redis.Redis.from_url(url, socket_connect_timeout=0.2).ping():
                break
        except redis.RedisError:
            time.sleep(0.05)
    yield url
    proc.terminate()
    proc.wait(10)


@pytest.mark.redis
def test_on_redis_a_warm_page_makes_no_query_and_a_write_shows_next(client, played, committed, own_redis):
    shared = {"BACKEND": "moderator.cache.RedisCache", "LOCATION": own_redis, "KEY_PREFIX": "t"}
    with override_settings(CACHES={"default": shared}):
        seat = played.seats["庚"]
        for url in (public(played), private(seat)):
            client.get(url)
            assert get(client, url)[1] == 0
        at = played.game.phases.get(status=Phase.Status.OPEN).starts_at + timedelta(hours=2)
        committed(intake.pm_confirm, played.game, intake.Pasted(seat=seat, text="投甲", forum_at=at, vote_post=True))
        assert ballot(client, played, "庚", "甲")
        old = seat.token
        committed(seat_token_rotate, seat=seat)
        assert client.get(reverse("seat_private", args=[old])).status_code == 404


def test_the_new_phase_notice_costs_no_query_and_speaks_right_after_a_close(client, committed, db):
    s = committed(sample_game, upto=1)
    night = s.game.phases.get(status=Phase.Status.OPEN)
    url = reverse("game_phase_watch", args=[s.game.pk]) + f"?since={night.pk}"
    assert client.get(url).content == b""
    response, queries = get(client, url)
    assert response.content == b"" and queries == 0
    assert committed(play.phase_close, phase=night, now=night.ends_at + timedelta(seconds=1))
    assert "第1天已经开始" in client.get(url).content.decode()


def _evict_shared_pages() -> None:
    """The shared cache drops every stored page (Redis evicting under memory pressure), keeping the games' versions
    and the pages' check marks."""
    from moderator.public import pagecache

    for key in pagecache._local:
        cache.delete(key)


def test_a_page_this_process_served_is_served_again_without_a_query_when_the_shared_cache_evicts_it(client, played):
    """Each web process keeps the pages it served: a page the shared cache no longer holds is still served from the
    process under the game's current version, no query; a write (a new version) is shown at once all the same."""
    urls = [public(played), private(played.seats["甲"])]
    first = [page_text(client, url) for url in urls]
    _evict_shared_pages()
    for url, text in zip(urls, first, strict=True):
        response, queries = get(client, url)
        assert queries == 0 and without_clock(response) == text
    Game.objects.filter(pk=played.game.pk).update(name="改过名的局", input_seq=F("input_seq") + 1)
    versions.bump(played.game.pk)  # as a writer's commit does, in this process or another
    assert all("改过名的局" in page_text(client, url) for url in urls)


def test_a_change_behind_the_application_s_back_reaches_a_page_this_process_kept_once_the_check_expires(client, played):
    """An edit that changes no version: the process's own copy, like the shared one, is served only while the
    page's check mark (PAGES_REVALIDATE_SECONDS) says the database was checked; once the mark expires the database
    is asked and the change shows."""
    first = page_text(client, public(played))
    Game.objects.filter(pk=played.game.pk).update(name="改过名的局", input_seq=F("input_seq") + 1)
    assert page_text(client, public(played)) == first  # within PAGES_REVALIDATE_SECONDS
    cache.delete(f"pages:game:{played.game.pk}:zh-hans")  # the shared copy gone too: only this process's remains
    assert page_text(client, public(played)) == first
    cache.delete(f"pages:game:{played.game.pk}:zh-hans:ok")  # the check mark expires
    assert "改过名的局" in page_text(client, public(played))


def test_a_web_process_keeps_at_most_local_pages_entries_the_least_recently_served_dropped_first(
    client, played, monkeypatch
):
    """The pages a process keeps in its own memory are bounded: past LOCAL_PAGES the least recently served is dropped
    (it then comes from the shared cache or the database again, never stale)."""
    from moderator.public import pagecache

    monkeypatch.setattr(pagecache, "LOCAL_PAGES", 2)
    monkeypatch.setattr(pagecache, "_local", pagecache.OrderedDict())
    urls = [public(played), private(played.seats["甲"]), private(played.seats["庚"])]
    first = [page_text(client, url) for url in urls]
    assert len(pagecache._local) == 2
    for key in [f"pages:game:{played.game.pk}:zh-hans", *pagecache._local]:
        cache.delete(key)  # no shared copy of any of the three
    response, queries = get(client, urls[0])  # the least recently served: dropped here, so from the database
    assert queries > 0 and without_clock(response) == first[0]
    response, queries = get(client, urls[2])  # the most recently served: still kept
    assert queries == 0 and without_clock(response) == first[2]
    assert len(pagecache._local) == 2
