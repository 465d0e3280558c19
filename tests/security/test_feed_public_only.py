"""The Atom feed published drafts nobody posted (the night's deaths before the 天神's post),
unposted superseded ones, and never the posted notices (更正公告, final summary). It must list exactly the public
page's announcement archive (A1–A5), nothing else."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest

from moderator.models import Announcement, Phase
from moderator.services import announce, play

pytestmark = pytest.mark.django_db
ATOM = "{http://www.w3.org/2005/Atom}"


def _feed_titles(client, game) -> list[str]:
    response = client.get(f"/games/{game.pk}/feed/")
    assert response.status_code == 200
    root = ElementTree.fromstring(response.content)
    return [entry.findtext(f"{ATOM}title") for entry in root.iter(f"{ATOM}entry")]


def _page_titles(client, game) -> list[str]:
    page = client.get(f"/games/{game.pk}/").content.decode()
    archive = page.split("公告存档", 1)[1]
    return [re.sub(r"<[^>]+>", "", t) for t in re.findall(r"<article><h3>(.*?)</h3>", archive)]


def test_the_feed_lists_exactly_the_announcements_of_the_public_page(client, sample):
    game = sample.game
    day_2 = game.phases.get(status=Phase.Status.OPEN)
    assert play.phase_close(phase=day_2, now=day_2.ends_at)  # the dusk post is drafted, not posted yet
    unposted = list(game.announcements.filter(posted_at__isnull=True).exclude(kind=Announcement.Kind.PRIVATE))
    assert unposted, "closing day 2 drafts its dusk post"
    posted_dawn = game.announcements.filter(kind=Announcement.Kind.DAWN, posted_at__isnull=False).first()
    Announcement.objects.filter(pk=posted_dawn.pk).update(
        title=f"〔已更正〕{posted_dawn.title}", corrected_at=day_2.ends_at
    )
    notice = announce.correction_notice(game=game, changes=[])  # a 更正公告 the 天神 posted
    Announcement.objects.filter(pk=notice.pk).update(posted_at=day_2.ends_at)
    Announcement.objects.filter(pk=unposted[0].pk).update(corrected_at=day_2.ends_at)  # superseded before posting

    feed, page = _feed_titles(client, game), _page_titles(client, game)
    assert feed == page
    assert notice.title in feed and f"〔已更正〕{posted_dawn.title}" in feed
    body = client.get(f"/games/{game.pk}/feed/").content.decode()
    for draft in unposted:
        assert draft.title not in feed and draft.text[:30] not in body


def test_a_draft_enters_the_feed_when_the_gm_marks_it_posted(client, sample):
    game = sample.game
    day_2 = game.phases.get(status=Phase.Status.OPEN)
    assert play.phase_close(phase=day_2, now=day_2.ends_at)
    dusk = game.announcements.get(kind=Announcement.Kind.DUSK, posted_at__isnull=True)
    assert dusk.title not in _feed_titles(client, game)
    announce.announcement_post(game=game, pk=dusk.pk)
    assert dusk.title in _feed_titles(client, game) and dusk.title in _page_titles(client, game)
