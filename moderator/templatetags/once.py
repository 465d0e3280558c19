"""`{% once game %}`: the hidden one-time token and the open phase's id that every state-changing form carries
(moderator.services.once). The token is signed for the form's kind — the URL name of the page, or the one given when
the form posts elsewhere (`{% once game "console_clock:pause" %}`) —, the game, the phase and who sees the page."""

from django import template
from django.utils.html import format_html

from moderator.services.once import form_kind, issue, open_phase_id, who_of

register = template.Library()


@register.simple_tag(takes_context=True)
def once(context, game=None, kind: str = "") -> str:
    key = ("once-phase", getattr(game, "pk", None))
    if key not in context.render_context:  # one query per page, however many forms it has
        context.render_context[key] = open_phase_id(game)
    phase_id = context.render_context[key]
    request = context.get("request")
    token = issue(
        kind=kind or form_kind(getattr(request, "resolver_match", None)),
        game_id=getattr(game, "pk", None),
        phase_id=phase_id,
        who=who_of(request) if request is not None else "-",
    )
    return format_html(
        '<input type="hidden" name="once" value="{}"><input type="hidden" name="phase" value="{}">',
        token,
        "" if phase_id is None else phase_id,
    )
