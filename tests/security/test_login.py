"""The 天神's sign-in under attack (django-axes, moderator/public/auth.py). Five failures from one
address cool that address off for 15 minutes, whatever the spelling of the name; a stranger's guesses never lock out
the 天神 signing in from elsewhere; the admin's sign-in counts the same; a concurrent burst gets no more tries than
a patient guesser; X-Forwarded-For is believed only from a trusted proxy."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from tests.world import gm_make

PASSWORD = "direnjie-测试-pw"
LOGIN = "/accounts/login/"
PRODUCTION_HASHER = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # tests/settings.py uses a fast one


@pytest.fixture
def gm(db):
    return gm_make(password=PASSWORD)


def _login(client, password, username="tianshen", address="10.0.0.1", url=LOGIN, **headers):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address, headers=headers)


def _signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_five_failures_cool_an_address_off_and_the_right_password_waits(client, gm):
    for _ in range(4):
        assert _login(client, "wrong").status_code == 200
    assert _login(client, "wrong").status_code == 429  # the fifth failure starts the cool-off
    locked = _login(client, PASSWORD)
    assert (
        locked.status_code == 429
        and "登录失败次数过多" in locked.content.decode()
        and "15 分钟" in locked.content.decode()
    )
    assert not _signed_in(client)


def test_after_the_cool_off_the_right_password_works_again(client, gm):
    for _ in range(6):
        _login(client, "wrong")
    assert _login(client, PASSWORD).status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert _login(client, PASSWORD).status_code == 302 and _signed_in(client)


def test_a_strangers_guesses_never_lock_the_gm_out_from_another_address(client, gm):
    for _ in range(10):
        _login(client, "wrong", address="203.0.113.66")
    assert _login(Client(), "wrong", address="203.0.113.66").status_code == 429
    assert _login(client, PASSWORD, address="10.0.0.2").status_code == 302 and _signed_in(client)


@pytest.mark.parametrize("variant", ["ｔｉａｎｓｈｅｎ", "𝐭𝐢𝐚𝐧𝐬𝐡𝐞𝐧", "TianShen ", "TIANSHEN"])
def test_styled_variants_of_a_name_are_counted_as_that_name(client, gm, variant):
    for _ in range(2):
        _login(client, "wrong", username=variant)
        _login(client, "wrong")
    assert set(AccessAttempt.objects.values_list("username", flat=True)) == {"tianshen"}
    assert sum(AccessAttempt.objects.values_list("failures_since_start", flat=True)) == 4
    _login(client, "wrong", username=variant)
    assert _login(client, PASSWORD).status_code == 429


def test_a_full_width_name_signs_in_as_the_same_account_which_is_why_it_shares_the_count(client, gm):
    assert _login(client, PASSWORD, username="ｔｉａｎｓｈｅｎ").status_code == 302 and _signed_in(client)


def test_the_admin_sign_in_is_throttled_too(client, gm):
    gm.is_staff = True
    gm.save()
    admin = reverse("admin:login")
    for _ in range(4):
        assert _login(client, "wrong", url=admin).status_code == 200
    assert _login(client, "wrong", url=admin).status_code == 429
    assert _login(client, PASSWORD, url=admin).status_code == 429
    assert _login(client, PASSWORD).status_code == 429  # one count for both doors


def test_a_forged_x_forwarded_for_does_not_dodge_the_count(client, gm):
    for i in range(5):
        _login(client, "wrong", **{"X-Forwarded-For": f"198.51.100.{i}"})
    assert _login(client, PASSWORD, **{"X-Forwarded-For": "198.51.100.99"}).status_code == 429


@override_settings(TRUSTED_PROXY=True, PROXY_COUNT=1)
def test_behind_a_trusted_proxy_only_the_address_it_appended_counts(client, gm):
    for i in range(5):  # the client wrote the first entry, our proxy appended the real address
        _login(client, "wrong", address="10.9.9.9", **{"X-Forwarded-For": f"198.51.100.{i}, 203.0.113.7"})
    assert _login(client, PASSWORD, address="10.9.9.9", **{"X-Forwarded-For": "203.0.113.7"}).status_code == 429
    other = _login(client, PASSWORD, address="10.9.9.9", **{"X-Forwarded-For": "203.0.113.8"})
    assert other.status_code == 302  # the same proxy, another client: not locked


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@override_settings(PASSWORD_HASHERS=PRODUCTION_HASHER)  # every check takes time, as in production
def test_a_concurrent_burst_gets_no_more_tries_than_the_limit():
    """The attack: fire 14 wrong guesses at once, then the right one while they are still being checked. Without
    the serial sign-in every one of them passed the count check before any failure was stored, so the right
    password, 15th, signed in; now it waits its turn, finds five failures, and is cooled off like any other."""
    get_user_model().objects.create_user("tianshen", password=PASSWORD)

    def attempt(password):
        client = Client()
        try:
            return _login(client, password).status_code, _signed_in(client)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=15) as pool:
        wrong = [pool.submit(attempt, "wrong") for _ in range(14)]
        time.sleep(0.3)  # every wrong guess is in flight (a password check takes longer than this)
        right = pool.submit(attempt, PASSWORD)
        codes = [f.result()[0] for f in wrong]
        assert right.result() == (429, False)
    assert codes.count(200) == 4 and codes.count(429) == 10, codes


def test_a_success_on_another_account_never_clears_the_attacked_accounts_count(client, gm):
    """4 wrong passwords for the 天神 + 1 right sign-in to the attacker's own account, repeated. Locked by
    address alone with reset on success, this gave ≈ 155,000 guesses a day; per account and address the 天神's
    count keeps growing and the fifth wrong password locks the name."""
    get_user_model().objects.create_user("attacker", password="attacker-pw")
    for round_ in range(2):
        for _ in range(4 if round_ == 0 else 1):
            assert _login(client, "wrong").status_code in (200, 429)
        assert _login(client, "attacker-pw", username="attacker").status_code == 302
        client.logout()
    assert _login(client, "wrong").status_code == 429
    assert _login(client, PASSWORD).status_code == 429 and not _signed_in(client)
    assert _login(client, "attacker-pw", username="attacker").status_code == 302  # the other account is not locked


def test_the_attack_loop_gets_five_guesses_per_cool_off_not_more(client, gm):
    get_user_model().objects.create_user("attacker", password="attacker-pw")
    refused = 0
    for _ in range(5):  # 25 guesses, a success on the other account after every fourth
        for _ in range(4):
            refused += _login(client, "wrong").status_code == 429
        assert _login(client, "attacker-pw", username="attacker").status_code == 302
        client.logout()
    assert refused == 20 - 4  # only the first four were checked; everything after is refused
    assert AccessAttempt.objects.get(username="tianshen").failures_since_start >= 5
