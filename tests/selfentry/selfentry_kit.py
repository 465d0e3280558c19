"""Helpers of the issue-29 tests: a player's client on his action page, as a browser would post its forms."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

MANIFESTO = "长安城外夜色深沉,杀手已在暗处等候多时。" * 6  # N-kill: at least 100 characters for one attack


def act_url(seat) -> str:
    return reverse("seat_act", args=[seat.token])


def tokens(html: str, form_id: str) -> dict:
    """The hidden once/phase fields of one form of the page."""
    form = html.split(f'id="{form_id}"', 1)[1].split("</form>", 1)[0]
    return dict(re.findall(r'<input type="hidden" name="(once|phase|seen|kind)" value="([^"]*)"', form))


def preview(client: Client, seat, kind: str, fields: dict) -> str:
    page = client.get(act_url(seat)).content.decode()
    data = {**tokens(page, f"form-{kind}"), **fields}
    response = client.post(act_url(seat), data)
    assert response.status_code == 200
    return response.content.decode()


def confirm_data(html: str, fields: dict) -> dict:
    """What the preview's confirm form posts: its hidden fields (token, seen, the submission) and confirm."""
    form = html.split('id="confirm-form"', 1)[1].split("</form>", 1)[0]
    hidden = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
    data: dict = {}
    for name, value in hidden:
        data.setdefault(name, []).append(value)
    data["confirm"] = "1"
    return data


def seat(game, name):
    return game.seats.get(player_name=name)
