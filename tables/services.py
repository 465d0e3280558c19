"""Creating tables and acting at them: the only code that writes Table and TableAction rows.

Every write locks the table row, bumps ``Table.version`` (the pages poll it to refresh themselves) and keeps the
stored state equal to a replay of the log.

Three rules keep the records trustworthy:

* A form carries a one-time token signed by the server (tables/once.py); its nonce is spent here under the row lock
  (``once_spend``): the same form sent again (a double click, a resend, a second tab) is refused (``RepeatedForm``) and
  changes nothing, even a record that moves no version.
* A form carries the version it was made on (``expected``): a repeated, concurrent or stale submit finds another
  version and changes nothing (``StaleForm``, with a sentence saying so).  Two seats recording the same hit: the
  second is refused.
* A record only its maker can see (the 狄仁杰 killer's claim) changes no other page, so it does not bump the version
  either: the version is a side door, and a bump with no public line told everyone that somebody had done something
  private.  ``_observable`` is what every other seat and the spectator can load; the version moves only when it
  changes.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.db import transaction
from django.db.models import Max

from tables.models import SpentToken, Table, TableAction
from tables.rules import RuleError, game
from tables.rules.direnjie_cards_sheet import next_mark
from tables.rules.sanguosha_house import draw_seats
from tables.rules.tracker import HOST, REASON_MAX

_SEED_BITS = 128
STALE = "局面已经变化(有人刚记录了,或这个表单提交了两次):这次提交没有生效。请看最新局面,需要的话再记录一次。"


ALREADY = "这个表单已经提交过了(重复点击或重新发送):没有重复执行,什么都没有改动。请看最新局面。"


class StaleForm(RuleError):
    """The form was made on another version of the table: nothing was changed."""


class RepeatedForm(RuleError):
    """The form's one-time token was spent already (tables/once.py): nothing was changed."""


def spent(once: str | None) -> bool:
    """Whether this one-time token was used already (a page's early answer; ``once_spend`` decides under the lock)."""
    return bool(once) and SpentToken.objects.filter(nonce=once).exists()


def once_spend(table: Table, once: str | None) -> None:
    """Refuse a form whose one-time token was used, else mark it used.  The caller holds the table's row lock, so the
    same token sent twice at once waits here for the first, then finds it; a refused record rolls the mark back with
    everything else, and the form may be sent again."""
    if once is None:
        return
    if SpentToken.objects.filter(nonce=once).exists():
        raise RepeatedForm(ALREADY)
    SpentToken.objects.create(table=table, nonce=once)


def _check_version(table: Table, expected: int) -> None:
    if expected != table.version:
        raise StaleForm(STALE)


def _new_token() -> str:
    return secrets.token_urlsafe(16)


def create_table(
    kind: str,
    player_names: list[str],
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    name: str = "",
    mode: str = "digital",
    create_token: str | None = None,
) -> Table:
    """Deal a new game; raises RuleError (nothing saved) when the rules refuse the players or options.

    ``seed`` is for tests and replays; tables made from the pages always draw a fresh 128-bit one.
    """
    rules = game(kind, mode)
    if seed is None:
        seed = secrets.randbits(_SEED_BITS)
    options = dict(options or {})
    if options.get("seat_lot"):
        # 三国杀 详细规则 1: the seats (the turn order) drawn by lot, from a seed kept with the table and shown on its
        # page: drawn from the table's seed by a one-way hash, so it tells nothing about the identities.
        options["seat_seed"] = int.from_bytes(hashlib.sha256(f"{seed}:seats".encode()).digest()[:6], "big")
        options["typed"] = list(player_names)
        player_names = draw_seats(player_names, options["seat_seed"])
    if isinstance(options.get("protected"), str):  # 最后一滴血: the create form names last game's first out
        first_out = options["protected"].strip()
        if first_out not in player_names:
            raise RuleError(f"「上一局第一个出局的玩家」要写玩家名单里的一个名字(收到「{first_out[:30]}」)。")
        options["protected"] = player_names.index(first_out)
    table = Table(
        kind=kind,
        mode=mode,
        seed=str(seed),
        options=options,
        host_token=_new_token(),
        create_token=create_token or None,
    )
    table.players = [{"name": n, "token": ""} for n in player_names]
    state = table.new_state()
    table.players = [{"name": n, "token": _new_token()} for n in state.players]
    table.name = name.strip() or getattr(rules, "PAGE_TITLE", rules.TITLE)
    table.state = state.to_dict()
    table.save()
    return table


def _locked(table_id: int) -> Table:
    return Table.objects.select_for_update().get(pk=table_id)


def _save(table: Table, state: Any, *fields: str, bump: bool = True) -> None:
    table.state = state.to_dict()
    if bump:
        table.version += 1
    table.save(update_fields=["state", "version", *fields])


def _observable(table: Table, state: Any, seat: int | None) -> list[Any]:
    """Every page but ``seat``'s own: the spectator's, the host's forms, every other seat's view and forms."""
    rules = table.rules
    others = [p for p in range(len(table.players)) if p != seat]
    host = rules.forms(state, HOST) if table.mode == "physical" and table.kind != "noir" else []
    return [rules.view(state, None), host, *((rules.view(state, p), rules.forms(state, p)) for p in others)]


def _private_actions(table: Table) -> frozenset[str]:
    return frozenset(getattr(table.rules, "PRIVATE_ACTIONS", ()))


def act(
    table_id: int, seat: int | None, action: dict[str, Any], expected: int | None = None, once: str | None = None
) -> tuple[Any, list[dict[str, Any]]]:
    """Apply ``action`` for ``seat`` (None = the host) under a row lock; append it to the log.

    ``expected`` is the version the form was made on (the views always pass it; None only for code that applies
    actions itself, such as a replay); another version raises StaleForm.  ``once`` is the form's one-time token (the
    pages' posts; None for code that applies actions itself): spent already, RepeatedForm.  RuleError leaves
    everything unchanged.
    """
    with transaction.atomic():
        table = _locked(table_id)
        once_spend(table, once)
        if expected is not None:
            _check_version(table, expected)
        action = {**action, "player": HOST if seat is None else seat}
        before = table.load(copy=False)  # this row is ours until _save replaces its state; apply never mutates
        state, events = table.rules.apply(before, action)
        last = table.actions.aggregate(m=Max("seq"))["m"] or 0
        TableAction.objects.create(table=table, seq=last + 1, round=table.round, actor=seat, action=action)
        # a line anyone else reads already changes their page; only a record with no such line is compared
        told = any(e["to"] is None or set(e["to"]) - {seat} for e in events)
        seen = seat is None or told or _observable(table, before, seat) != _observable(table, state, seat)
        _save(table, state, bump=seen)
    return state, events


def undo_last(
    table_id: int, reason: str = "", expected: int | None = None, once: str | None = None
) -> TableAction | None:
    """The host takes back the current game's last public record (kept in the log, marked undone with the reason and
    what it was).  Private records (a killer's claim) are skipped: the host cannot see them, and undoing one would
    show that it existed; their maker withdraws them."""
    with transaction.atomic():
        table = _locked(table_id)
        once_spend(table, once)
        if expected is not None:
            _check_version(table, expected)
        entry = last_undoable(table)
        if entry is None:
            return None
        entry.undone, entry.note = True, reason.strip()[:REASON_MAX]
        entry.summary = " ".join(filter(None, [_what_it_was(table, entry), undo_note_of(table, entry)]))
        entry.save(update_fields=["undone", "note", "summary"])
        _save(table, table.rebuild())
    return entry


def last_undoable(table: Table) -> TableAction | None:
    """The record the host's next undo would take back (private records are skipped, see ``undo_last``)."""
    private = _private_actions(table)
    entries = table.actions.filter(round=table.round, undone=False).order_by("-seq")
    return next((e for e in entries if e.action.get("type") not in private), None)


def undo_note_of(table: Table, entry: TableAction | None) -> str:
    """What undoing ``entry`` cannot take back (a 搜查令's user keeps what they saw), as a sentence, or ""."""
    note = getattr(table.rules, "undo_note", None)
    return str(note(table.player_names, entry.action)) if note is not None and entry is not None else ""


def _what_it_was(table: Table, entry: TableAction) -> str:
    """The public lines the undone record wrote (a sentence, not a code): replayed up to it, then applied alone."""
    state = table.new_state()
    for other in table.actions.filter(round=table.round, undone=False, seq__lt=entry.seq).order_by("seq"):
        state, _ = table.rules.apply(state, other.action)
    try:
        _, events = table.rules.apply(state, entry.action)
    except RuleError:
        return ""
    return " ".join(e["text"] for e in events if e["to"] is None)


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


def next_game(table_id: int, expected: int | None = None, once: str | None = None) -> Table:
    """The host starts the next game of the series once the current one is over (the 三国杀 lord may rotate)."""
    with transaction.atomic():
        table = _locked(table_id)
        once_spend(table, once)
        if expected is not None:
            _check_version(table, expected)
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
                "first_out": _first_out(state),
            },
        ]
        table.round += 1
        _save(table, table.new_state(), "round", "rounds")
    return table


def _first_out(state: Any) -> int | None:
    """The seat that went out first this game (三国杀's 最后一滴血 protects it next game), if anybody did."""
    kills = getattr(state, "kills", None) or []
    return int(kills[0][1]) if kills else None


def reset_link(table_id: int, seat: int, expected: int | None = None, once: str | None = None) -> Table:
    """A player lost their private link: the host gives them a new one (the old one stops working)."""
    with transaction.atomic():
        table = _locked(table_id)
        once_spend(table, once)
        if expected is not None:
            _check_version(table, expected)
        players = [dict(p) for p in table.players]
        players[seat]["token"] = _new_token()
        table.players = players
        table.version += 1
        table.save(update_fields=["players", "version"])
    return table


def sheet_mark(table_id: int, seat: int, cell: str, shown: str | None = None, once: str | None = None) -> str:
    """Cycle one cell of the player's private deduction sheet (狄仁杰 card game); returns the new mark.

    ``shown`` is the mark the page showed when tapped: a double tap (sent twice) finds another mark and changes
    nothing, as does the same tap's form sent again (``once``, RepeatedForm)."""
    with transaction.atomic():
        table = _locked(table_id)
        once_spend(table, once)
        players = [dict(p) for p in table.players]
        sheet = dict(players[seat].get("sheet") or {})
        if shown is not None and sheet.get(cell, "") != shown:
            return str(sheet.get(cell, ""))
        mark = next_mark(sheet.get(cell, ""))
        if mark:
            sheet[cell] = mark
        else:
            sheet.pop(cell, None)
        players[seat]["sheet"] = sheet
        table.players = players
        table.save(update_fields=["players"])
    return mark
