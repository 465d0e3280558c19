"""``{% table_once table %}``: the hidden one-time token every form of a table page carries (tables/once.py), signed
for the form's kind — the URL name of the page, or the one given when the form posts elsewhere
(``{% table_once table "tables:sheet" %}``) —, the table and the private link the page was shown through."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tables.once import page_token

register = template.Library()


@register.simple_tag(takes_context=True)
def table_once(context: Any, table: Any = None, kind: str = "") -> SafeString:
    token = page_token(context.get("request"), getattr(table, "pk", None), kind)
    return format_html('<input type="hidden" name="once" value="{}">', token)
