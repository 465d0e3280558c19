"""Scanning rendered pages for what must never be there (A1, A2, V5, AP6, N13), and reading what must."""

from __future__ import annotations

import html
import re

from cards.catalogue import CARD_NAMES, USES
from moderator.models import Announcement

# Every word that names a card or a privilege: card types, both halves of the double cards, every use.
SECRET_WORDS = sorted(
    {*CARD_NAMES, *(half for name in CARD_NAMES for half in name.split("/")), *(u for u in USES if u != "立场")},
    key=len,
    reverse=True,
)
AP_WORDS = ("行动点", "AP", "余额")
# What a public post may say (A1, A2: losses by type, 绝杀 and 束魂/巫医 failures, pardons, 圣人); anything else that
# names a card in a post would be a leak.
POST_VOCABULARY = ("庶民", "绝杀", "特赦", "圣人", "束魂", "巫医")
POST_FORBIDDEN = tuple(w for w in SECRET_WORDS if w not in POST_VOCABULARY)

ARCHIVE = re.compile(r'<article><h3>(.*?)</h3><pre class="announcement">(.*?)</pre></article>', re.S)
CAMP_SPAN = re.compile(r'<tr><td>([^<]*)</td><td>[^<]*</td>\s*<td><span class="camp">([^<]*)</span></td></tr>')


def text_of(page: str) -> str:
    """The page as a reader sees it: without tags, entities decoded."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def archive(page: str) -> list[tuple[str, str]]:
    """The announcement archive as shown: (title, text), unescaped once."""
    return [(html.unescape(t), html.unescape(x)) for t, x in ARCHIVE.findall(page)]


def without_archive(page: str) -> str:
    return ARCHIVE.sub(" ", page)


def shown_camps(page: str) -> list[tuple[str, str]]:
    """The camps the dead list shows: (player, camp)."""
    return [(html.unescape(n), html.unescape(c)) for n, c in CAMP_SPAN.findall(page)]


def without_camps(page: str) -> str:
    return CAMP_SPAN.sub(" ", page)


CSRF_VALUE = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*"')


def _occurs(word: str, haystack: str) -> bool:
    if word.isascii():  # "AP" inside a random token is not "AP"
        return re.search(rf"(?<![A-Za-z0-9_-]){re.escape(word)}(?![A-Za-z0-9_-])", haystack) is not None
    return word in haystack


def found(page: str, words) -> list[str]:
    """Which of `words` occur in the page's markup or its text (attributes, comments and scripts included); CSRF
    token values are left out (random letters)."""
    raw = CSRF_VALUE.sub(r'\1"', page)
    haystacks = (raw, html.unescape(raw), text_of(raw))
    return [w for w in words if any(_occurs(w, h) for h in haystacks)]


def public_posts(game) -> list[tuple[str, str]]:
    kinds = (Announcement.Kind.DAWN, Announcement.Kind.DUSK, Announcement.Kind.VOTE_POST)
    rows = Announcement.objects.filter(game=game, kind__in=kinds).order_by("-created_at", "-id")
    return [(a.title, a.text) for a in rows]


def hand_shown(page: str) -> list[str]:
    block = re.search(r'<ol class="hand">(.*?)</ol>', page, re.S)
    assert block, "no hand on the page"
    items = re.findall(r"<li(?: class=\"bottom\")?>([^<〔]*)", block.group(1))
    return [html.unescape(i).strip() for i in items if "没有手牌" not in i]


def bottom_shown(page: str) -> str | None:
    m = re.search(r'<li class="bottom">([^<〔]*)', page)
    return html.unescape(m.group(1)).strip() if m else None


def strong(page: str, cls: str) -> str | None:
    m = re.search(rf'<strong class="{cls}">([^<]*)</strong>', page)
    return html.unescape(m.group(1)) if m else None


def table_rows(page: str, cls: str, index: int = 0) -> list[list[str]]:
    """The cells of the `index`-th table of that class, header row left out."""
    blocks = re.findall(rf'<table class="{cls}">(.*?)</table>', page, re.S)
    assert len(blocks) > index, f"no table {cls} #{index}"
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", blocks[index], re.S)[1:]
    return [
        [html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
        for r in rows
    ]
