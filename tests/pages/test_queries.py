"""Query counts per page: bounded whatever the length of the game, one once the page is cached."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.pages.conftest import played

pytestmark = pytest.mark.django_db
PUBLIC_COLD = 10  # the snapshot, phases, the whole game row, the replay (5), seats, announcements
PRIVATE_COLD = 9  # the snapshot, phases, the whole game row, the replay (5), seats
WARM = 1  # the snapshot: the game (or seat and game) with its stamps
SIGNED_IN = 3  # the session and the user for base.html's header, and the phases for the countdown


@pytest.mark.parametrize("upto", [1, 4])
def test_the_public_page_costs_the_same_few_queries_at_night_1_and_on_day_2(
    client, django_assert_max_num_queries, upto
):
    url = reverse("game_public", args=[played(__name__, upto=upto).game.pk])
    with django_assert_max_num_queries(PUBLIC_COLD):
        assert client.get(url).status_code == 200
    with django_assert_max_num_queries(WARM):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize("upto", [1, 4])
def test_a_private_page_costs_the_same_few_queries_at_night_1_and_on_day_2(client, django_assert_max_num_queries, upto):
    s = played(__name__, upto=upto)
    for seat in s.seats.values():
        url = reverse("seat_private", args=[seat.token])
        with django_assert_max_num_queries(PRIVATE_COLD):
            assert client.get(url).status_code == 200
        with django_assert_max_num_queries(WARM):
            assert client.get(url).status_code == 200


def test_a_signed_in_gm_adds_only_the_session_the_user_and_the_phases(gm_client, sample, django_assert_max_num_queries):
    url = reverse("game_public", args=[sample.game.pk])
    gm_client.get(url)
    with django_assert_max_num_queries(WARM + SIGNED_IN):
        gm_client.get(url)


def test_a_wrong_token_costs_one_query_and_an_impossible_one_none(client, sample, django_assert_max_num_queries):
    with django_assert_max_num_queries(1):
        assert client.get(reverse("seat_private", args=["x" * 43])).status_code == 404
    with django_assert_max_num_queries(0):
        assert client.get(reverse("seat_private", args=["short"])).status_code == 404
