"""`{% close_preview game as dryrun %}`: the open phase's dawn/dusk post as it would read now (services/preview.py)."""

from django import template

from moderator.services import preview

register = template.Library()


@register.simple_tag(name="close_preview")
def _close_preview(game):
    return preview.close_preview(game) if game is not None else None
