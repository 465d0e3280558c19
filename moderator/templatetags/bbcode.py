"""BBCode drafts (A4) are not HTML: Django's autoescape is off in them, and this filter is their escaping instead.

A value written by a player (a manifesto, a forum ID, a game name) must never open or close a tag of the post it is
pasted into: a manifesto with `[/quote][b]…死亡。[/b]` would step out of its quote and pass for the 天神's own line.
Forums have no common escape for brackets, so `[` and `]` become the full-width ［ ］: never a tag, still readable.
Every `{{ }}` of templates/announcements/ ends with `|bb` (a test checks it)."""

from __future__ import annotations

from django import template

from moderator.services.posts import bb, span

register = template.Library()
register.filter("bb", bb)  # the one escape of BBCode: a close's drafts (services/posts.py) call it directly
register.filter("span", span)  # a phase's length in seconds as the posts say it ("24 小时")
