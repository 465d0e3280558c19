"""`{% close_preview game as dryrun %}`: the open phase's dawn/dusk post as it would read now (console/dryrun.py)."""

from django import template

from moderator.console import dryrun

register = template.Library()


@register.simple_tag
def close_preview(game):
    return dryrun.close_preview(game) if game is not None else None
