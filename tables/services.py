"""Creating tables and acting at them: the only code that writes Table and TableAction rows.

Every write locks the table row, bumps ``Table.version`` (the pages poll it to refresh themselves) and keeps the
stored state equal to a replay of the log.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.db.models import Max

from tables.models import Table, TableAction
from tables.rules import RuleError, game
from tables.rules.direnjie_cards_sheet import next_mark
from tables.rules.tracker import HOST, REASON_MAX

SEED_BITS = 128


def new_token() -> str:
    return secrets.token_urlsafe(16)


def create_table(
    kind: str,
    player_names: list[str],
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    name: str = "",
    mode: str = "digital",
) -> Table:
    """Deal a new game; raises RuleError (nothing saved) when the rules refuse the players or options.

    ``seed`` is for tests and replays; tables made from the pages always draw a fresh 128-bit one.
    """
    rules = game(kind, mode)
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    table = Table(kind=kind, mode=mode, seed=str(seed), options=dict(options or {}), host_token=new_token())
    table.players = [{"name": n, "token": ""} for n in player_names]
    state = table.new_state()
    table.players = [{"name": n, "token": new_token()} for n in state.players]
    table.name = name.strip() or rules.TITLE
    table.state = state.to_dict()
    table.save()
    return table


def _locked(table_id: int) -> Table:
    return Table.objects.select_for_update().get(pk=table_id)


def _save(table: Table, state: Any, *fields: str) -> None:
    table.state = state.to_dict()
    table.version += 1
    table.save(update_fields=["state", "version", *fields])


def act(table_id: int, seat: int | None, action: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    """Apply ``action`` for ``seat`` (None = the host) under a row lock; append it to the log.

    RuleError leaves everything unchanged.
    """
    with transaction.atomic():
        table = _locked(table_id)
        action = {**action, "player": HOST if seat is None else seat}
        state, events = table.rules.apply(table.load(), action)
        last = table.actions.aggregate(m=Max("seq"))["m"] or 0
        TableAction.objects.create(table=table, seq=last + 1, round=table.round, actor=seat, action=action)
        _save(table, state)
    return state, events


def undo_last(table_id: int, reason: str = "") -> TableAction | None:
    """The host takes back the current game's last action (kept in the log, marked undone with the reason)."""
    with transaction.atomic():
        table = _locked(table_id)
        entry = table.actions.filter(round=table.round, undone=False).order_by("-seq").first()
        if entry is None:
            return None
        entry.undone, entry.note = True, reason.strip()[:REASON_MAX]
        entry.save(update_fields=["undone", "note"])
        _save(table, table.rebuild())
    return entry


def totals(table: Table) -> dict[int, int]:
    """Running score over the finished games of the series, plus the current one once it is over."""
    out = {p: 0 for p in range(len(table.players))}
    for finished in table.rounds:
        for seat, points in finished["scores"].items():
            out[int(seat)] += points
    current = table.rules.score(table.load())
    if current is not None and not any(r["round"] == table.round for r in table.rounds):
        for seat, points in current.items():
            out[seat] += points
    return out


def series_over(table: Table) -> bool:
    """狄仁杰: somebody reached the target score; 三国杀: everyone has been the lord once."""
    if table.series_length is not None:
        return table.round >= table.series_length and table.rules.score(table.load()) is not None
    target = table.options.get("target") or 0
    return bool(target) and max(totals(table).values()) >= target


def next_game(table_id: int) -> Table:
    """The host starts the next game of the series once the current one is over (the 三国杀 lord may rotate)."""
    with transaction.atomic():
        table = _locked(table_id)
        state = table.load()
        scores = table.rules.score(state)
        if scores is None:
            raise RuleError("这一局还没有结束。")
        if series_over(table):
            raise RuleError("系列赛已经结束(有人达到目标分,或每人都当过一次主公),不能再开新局。")
        table.rounds = [
            *table.rounds,
            {
                "round": table.round,
                "scores": {str(p): v for p, v in scores.items()},
                "winners": table.rules.winner(state),
            },
        ]
        table.round += 1
        _save(table, table.new_state(), "round", "rounds")
    return table


def reset_link(table_id: int, seat: int) -> Table:
    """A player lost their private link: the host gives them a new one (the old one stops working)."""
    with transaction.atomic():
        table = _locked(table_id)
        players = [dict(p) for p in table.players]
        players[seat]["token"] = new_token()
        table.players = players
        table.version += 1
        table.save(update_fields=["players", "version"])
    return table


def sheet_mark(table_id: int, seat: int, cell: str) -> str:
    """Cycle one cell of the player's private deduction sheet (狄仁杰 card game); returns the new mark."""
    with transaction.atomic():
        table = _locked(table_id)
        players = [dict(p) for p in table.players]
        sheet = dict(players[seat].get("sheet") or {})
        mark = next_mark(sheet.get(cell, ""))
        if mark:
            sheet[cell] = mark
        else:
            sheet.pop(cell, None)
        players[seat]["sheet"] = sheet
        table.players = players
        table.save(update_fields=["players"])
    return mark
