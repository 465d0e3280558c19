"""Following a game without reloading: an Atom feed of its public posts, and the new-phase notice.

The feed lists exactly the public page's announcement archive (`bodies.public_announcements`): what the 天神 marked
posted — dawn (A2), dusk (A3), vote posts, notices (substitutions, 更正公告, the final summary) — never an unposted
draft (it would tell a feed reader the night's deaths before the 天神's post) nor a private one (A5: deal PMs, co-win
notices, order reminders). Django's syndication framework writes the Atom.
"""

from __future__ import annotations

from django.contrib.syndication.views import Feed
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import format_html
from django.views.decorators.http import require_safe

from moderator.models import Announcement, Game
from moderator.public import pagecache
from moderator.public.bodies import public_announcements
from moderator.public.snapshot import Snapshot, game_snapshot


class GameFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request, game_id: int) -> Game:
        game = get_object_or_404(Game, pk=game_id)
        if game.status == Game.Status.SETUP:
            raise Http404
        return game

    def title(self, game: Game) -> str:
        return f"{game.name} · 神探狄仁杰 公告"

    def subtitle(self, game: Game) -> str:
        return "天亮公告、天黑公告、投票帖和公告(与公开页面的公告存档一样)"

    def link(self, game: Game) -> str:
        return reverse("game_public", args=[game.pk])

    def items(self, game: Game):
        return public_announcements(game)[:50]

    def item_title(self, item: Announcement) -> str:
        return item.title

    def item_description(self, item: Announcement) -> str:
        return format_html('<pre style="white-space:pre-wrap">{}</pre>', item.text)

    def item_link(self, item: Announcement) -> str:
        return reverse("game_public", args=[item.game_id]) + f"#announcement-{item.pk}"

    def item_pubdate(self, item: Announcement):
        return item.created_at

    def item_updateddate(self, item: Announcement):
        return item.created_at


def _newest(snap: Snapshot) -> tuple[int, str] | None:
    newest = max(snap.phases, key=lambda p: (p.starts_at, p.pk), default=None)
    return None if newest is None else (newest.pk, newest.label)


@require_safe
def phase_watch(request: HttpRequest, game_id: int) -> HttpResponse:
    """The notice a page polls for: empty while the phase it was rendered in is still the newest, else a sentence
    naming the new phase (its label is public). The newest phase comes from the cache under the game's page version
    (no query while nothing changed)."""
    since = request.GET.get("since", "")

    def fingerprint():
        snap = game_snapshot(game_id)
        return None if snap is None else (snap.key, snap)

    newest = pagecache.page(f"newest-phase:{game_id}", game_id, fingerprint, _newest)
    if newest is None or not (since.isascii() and since.isdigit()) or newest[0] <= int(since):
        return HttpResponse("")
    return HttpResponse(
        format_html(
            '<p class="new-phase" role="status">{}已经开始(你打开这个页面之后)。<a href="">刷新页面</a>查看最新情况。</p>',
            newest[1],
        )
    )
