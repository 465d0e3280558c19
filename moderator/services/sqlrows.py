"""Statements and rows built from the models, for the few writes done in SQL on PostgreSQL (closesql's close, the
input log's append): every table, column and status value comes from the models (`sql`: `{phase}` is Phase's table,
`{phase.ends_at}` its column, `{CLOSED}` Phase.Status.CLOSED); every INSERT lists the model's columns (`insert`), and
its rows are sent as JSON, each field's default filled in from the model (`model_rows`), that PostgreSQL maps onto the
table's columns (`jsonb_populate_recordset`): a field added to a model is written without a change."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import cache
from typing import Any, NamedTuple

from django.db import models

from moderator.models import Announcement, AuditLog, Game, Input, InputVerdict, InputVoid, Phase, Seat


def quote(name: str) -> str:
    """A table's or column's name as the statements write it: bare (each is a plain lower-case word, checked here, as
    in the statements the clock's tests watch for in pg_stat_activity)."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
        raise ValueError(f"not a plain SQL name: {name!r}")
    return name


class _Table:
    """A model in a statement's text: `{phase}` is its table, `{phase.ends_at}` a field's column (`{phase.game}`:
    game_id), both read from the model's `_meta`."""

    def __init__(self, model: type[models.Model]):
        self._model = model

    def __format__(self, spec: str) -> str:
        return quote(self._model._meta.db_table)

    def __getattr__(self, name: str) -> str:
        if name.startswith("_"):
            raise AttributeError(name)
        field = self._model._meta.get_field(name)
        assert isinstance(field, models.Field), f"{name} is a field with a column, not a reverse relation"
        return column_of(field)


def _literal(value: str) -> str:
    """A status value of a model's choices as an SQL literal (only plain words: nothing to escape)."""
    if not re.fullmatch(r"[a-z_]+", value):
        raise ValueError(f"not a plain status value: {value!r}")
    return f"'{value}'"


_TABLES = {
    "game": _Table(Game),
    "seat": _Table(Seat),
    "phase": _Table(Phase),
    "input": _Table(Input),
    "verdict": _Table(InputVerdict),
    "void": _Table(InputVoid),
    "draft": _Table(Announcement),
    "audit": _Table(AuditLog),
}
_VALUES = {
    "OPEN": _literal(Phase.Status.OPEN),
    "CLOSED": _literal(Phase.Status.CLOSED),
    "RUNNING": _literal(Game.Status.RUNNING),
    "FINISHED": _literal(Game.Status.FINISHED),
}


def sql(text: str, **more: str) -> str:
    """A statement with its tables, columns and status values filled in from the models (see `_Table`)."""
    return text.format(**_TABLES, **_VALUES, **more)


def column_of(f: models.Field) -> str:
    assert f.column is not None, f"{f.name} is a concrete field: it has a column"
    return quote(f.column)


def inserted(model: type[models.Model]) -> list[models.Field]:
    """The columns an INSERT of `model` writes: every concrete field but an automatic primary key."""
    return [f for f in model._meta.concrete_fields if f is not model._meta.auto_field]


def insert(model: type[models.Model], source: str, **expressions: str) -> str:
    """`INSERT INTO` the model's table every column of `inserted(model)`, each `r.<column>` of `source` (a row of
    the table's type, from `model_rows`) unless `expressions` gives another by field name."""
    fields = inserted(model)
    columns = ", ".join(column_of(f) for f in fields)
    values = ", ".join(expressions.get(f.name, f"r.{column_of(f)}") for f in fields)
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns})\n  SELECT {values}\n    FROM {source}"


def _encode(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, timedelta):
        return f"{value.total_seconds()} seconds"
    raise TypeError(f"{type(value).__name__} is not a column value")


class _Shape(NamedTuple):
    """What a row of a model needs besides the values a write gives: each column's default (a callable one is called
    for each row, but an empty `dict` or `list`: the row is only sent as JSON), and the columns an `auto_now_add`
    field stamps."""

    columns: dict[str, str]  # field attname -> column, where they differ
    defaults: dict[str, Any]  # column -> default value (but NULL: a row leaves its column out)
    made: dict[str, Callable[[], Any]]  # column -> the callable that makes its default for each row
    stamped: tuple[str, ...]  # columns of `auto_now_add` fields


@cache
def _shape(model: type[models.Model]) -> _Shape:
    columns, defaults, made, stamped = {}, {}, {}, []
    for f in inserted(model):
        column = column_of(f)
        if column != f.attname:
            columns[f.attname] = column
        if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False):
            stamped.append(column)
        elif f.has_default() and callable(f.default) and f.default not in (dict, list):
            made[column] = f.default
        elif (default := f.get_default()) is not None:  # a column left out of a row is NULL
            defaults[column] = default
    return _Shape(columns, defaults, made, tuple(stamped))


def model_rows(model: type[models.Model], values: Sequence[dict[str, Any]], now: str) -> list[dict[str, Any]]:
    """Rows of `model` (column -> value) as `jsonb_populate_recordset` maps them onto its table, once sent as JSON
    (`dumps`): each row the ORM would insert for these field values (by attname; a time as its ISO text), every other
    field's default, `auto_now_add` times `now` (ISO text)."""
    if not values:
        return []
    shape = _shape(model)
    base = {**shape.defaults, **dict.fromkeys(shape.stamped, now)}
    rows = []
    for given in values:
        row = base.copy()
        for column, make in shape.made.items():
            row[column] = make()
        if shape.columns:
            given = {shape.columns.get(name, name): value for name, value in given.items()}
        row.update(given)
        rows.append(row)
    return rows


def dumps(value: Any) -> str:
    """A statement's JSON parameter."""
    return json.dumps(value, default=_encode, ensure_ascii=False)
