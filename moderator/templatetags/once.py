"""`{% once game %}`: the hidden one-time token and the open phase's id that every state-changing form carries
(moderator.services.once)."""

from django import template
from django.utils.html import format_html

from moderator.services.once import new_token, open_phase_id

register = template.Library()


@register.simple_tag(takes_context=True)
def once(context, game=None) -> str:
    key = ("once-phase", getattr(game, "pk", None))
    if key not in context.render_context:  # one query per page, however many forms it has
        context.render_context[key] = open_phase_id(game)
    phase_id = context.render_context[key]
    return format_html(
        '<input type="hidden" name="once" value="{}"><input type="hidden" name="phase" value="{}">',
        new_token(),
        "" if phase_id is None else phase_id,
    )
