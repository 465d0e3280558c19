"""Follow a game without reloading — the Atom feed of its public posts, and the new-phase notice."""

import re

import pytest

from moderator.models import Announcement, Phase
from moderator.services import play

pytestmark = pytest.mark.django_db


def test_the_feed_lists_the_dawn_dusk_and_vote_posts_and_no_private_draft_A5(client, sample):
    game = sample.game
    assert game.announcements.filter(kind=Announcement.Kind.PRIVATE).exists()  # the co-win notice (S4) exists
    response = client.get(f"/games/{game.pk}/feed/")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/atom+xml")
    feed = response.content.decode()
    public = game.announcements.exclude(kind=Announcement.Kind.PRIVATE)
    assert (
        feed.count("<entry>") == public.count() == 5
    )  # night 1: dawn + vote post; day 1: dusk; night 2: dawn + vote post
    for draft in public:
        assert draft.title in feed
    for draft in game.announcements.filter(kind=Announcement.Kind.PRIVATE):
        assert draft.title not in feed and draft.text[:20] not in feed
    assert "共赢" not in feed


def test_a_game_that_does_not_exist_has_no_feed(client, db):
    assert client.get("/games/999999/feed/").status_code == 404


def test_the_private_page_polls_for_a_new_phase_and_the_notice_names_it(client, sample):
    seat = sample.seats["甲"]
    page = client.get(f"/p/{seat.token}/").content.decode()
    since = re.search(r'phase/\?since=(\d+)"', page).group(1)
    watch = f"/games/{sample.game.pk}/phase/?since={since}"
    assert client.get(watch).content == b""
    day_2 = sample.game.phases.get(status=Phase.Status.OPEN)
    assert play.phase_close(phase=day_2, now=day_2.ends_at)
    assert "第3夜已经开始" in client.get(watch).content.decode()
    assert client.get(f"/games/{sample.game.pk}/phase/?since=x").content == b""
