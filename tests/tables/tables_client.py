"""Helpers for posting to table pages the way their forms do."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from django.test import Client
from django.urls import resolve


def ver(table: Any) -> str:
    """The version a table page shows right now: the hidden ``version`` input every table form carries."""
    from tables.models import Table

    return str(Table.objects.values_list("version", flat=True).get(pk=table.pk))


class SigningClient(Client):
    """A test client whose POSTs carry the one-time token the page would have given the form (tables/once.py),
    signed for the URL posted to, unless the test sends its own ``once`` (the token tests do: forged, repeated,
    another link's).  Each post gets a fresh one, as from a fresh page: a repeat is then refused by the version."""

    def post(self, path, data=None, *args, **kwargs):
        if isinstance(data, dict) and "once" not in data:
            data = {**data, "once": signed_for(path)}
        return super().post(path, data, *args, **kwargs)


def signed_for(path: str) -> str:
    from tables.once import issue_for

    match = resolve(unquote(path.split("?")[0]))  # the link as the view sees it, percent-decoded
    return issue_for(match.view_name, match.kwargs.get("table_id"), match.kwargs.get("token"))
