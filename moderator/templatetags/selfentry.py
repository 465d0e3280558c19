"""`{% selfentry_panel game phase state as se %}`: the dashboard's self-entry panel — the setting, this phase's
self-entered inputs (who, when, from which link) and the reminder drafts; `|manifesto_chars` counts like N-kill."""

from __future__ import annotations

from django import template
from django.utils import timezone

from moderator.game.validate import manifesto_length
from moderator.models import SelfEntry
from moderator.services import intake, selfentry, setup

register = template.Library()


@register.simple_tag(takes_context=True)
def selfentry_panel(context, game, phase, state) -> dict:
    request = context.get("request")
    base = request.build_absolute_uri("/") if request is not None else "/"
    links = {s.player_name: setup.seat_link(s, base) for s in game.seats.all()}
    entries = []
    if phase is not None:
        rows = SelfEntry.objects.filter(phase=phase).prefetch_related("inputs").order_by("at", "id")
        entries = list(rows)
    marks = {s.pk: selfentry.link_mark(s.token) for s in game.seats.all()}
    for e in entries:
        # the seat's link now, or one rotated since (a flag for the template, not a field: hence the ignore)
        e.current = marks.get(e.seat_id) == e.link  # type: ignore[attr-defined]
    return {
        "on": game.self_entry,
        "entries": entries,
        "ids": {i.pk for e in entries for i in e.inputs.all()},
        "by_input": {i.pk: e for e in entries for i in e.inputs.all()},
        "reminders": selfentry.reminders(game, state, links, timezone.now()) if phase is not None else [],
    }


@register.filter
def manifesto_chars(text) -> int:
    return manifesto_length(str(text or ""))


@register.filter
def items_text(raw) -> str:
    """A form submission as the 天神 reads it: its items as sentences."""
    items = raw.get("items") if isinstance(raw, dict) else None
    try:
        return ";".join(intake.input_sentence(i) for i in items or [])
    except (KeyError, TypeError, ValueError):
        return "(无法显示)"


@register.filter
def entry_of(by_input: dict, pk):
    return by_input.get(pk)


@register.filter(name="to_you")
def _to_you(text, name) -> str:
    """A reason as the player reads it on his own page: his own quoted name is 你."""
    return selfentry.to_you(str(text or ""), str(name or ""))
