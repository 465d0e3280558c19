"""Creating tables and acting at them: the only code that writes Table and TableAction rows."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.db.models import Max

from tables.models import Table, TableAction
from tables.rules import game


def create_table(
    kind: str, player_names: list[str], seed: int | None = None, options: dict[str, Any] | None = None, name: str = ""
) -> Table:
    """Deal a new game; raises RuleError (nothing saved) when the rules refuse the players or options."""
    rules = game(kind)
    if seed is None:
        seed = secrets.randbelow(2**31)
    options = dict(options or {})
    state = rules.new_game(player_names, seed, options)
    players = [{"name": n, "token": secrets.token_urlsafe(16)} for n in state.players]
    return Table.objects.create(
        kind=kind, name=name.strip() or rules.TITLE, players=players, seed=seed, options=options, state=state.to_dict()
    )


def act(table_id: int, seat: int, action: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    """Apply ``action`` for ``seat`` under a row lock; append it to the log.  RuleError leaves everything unchanged."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        rules = table.rules
        action = {**action, "player": seat}
        state, events = rules.apply(table.load(), action)
        last = table.actions.aggregate(m=Max("seq"))["m"] or 0
        TableAction.objects.create(table=table, seq=last + 1, actor=seat, action=action)
        table.state = state.to_dict()
        table.save(update_fields=["state"])
    return state, events
