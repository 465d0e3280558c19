"""狄仁杰 card game: the private deduction sheet (the T/W/L grid each player fills in).

Rows are the 16 numbered cards (T1–T6, W1–W5, L1–L5); columns are the players and the mission (任务).  A tap on a
cell cycles its mark: blank → ✓ (holds it / it is this) → ✗ (does not) → ? (maybe) → blank.  Only the sheet's owner
sees it; it is not part of the game's log.
"""

from __future__ import annotations

from .base import require

ROWS = [f"T{k}" for k in range(1, 7)] + [f"{c}{k}" for c in "WL" for k in range(1, 6)]
MARKS = ["", "✓", "✗", "?"]
# What a screen reader says of a mark (the page's legend: ✓ 有/是 → ✗ 没有/不是 → ? 不确定 → 空白).
SPOKEN = {"": "空白", "✓": "✓ 有/是", "✗": "✗ 没有/不是", "?": "? 不确定"}
MISSION = "m"


def columns(players: list[str]) -> list[tuple[str, str]]:
    return [(str(p), name) for p, name in enumerate(players)] + [(MISSION, "任务")]


def check_cell(cell: str, players: int) -> str:
    """A cell key "<row>:<column>" (for example "T3:1" or "W2:m"), else RuleError."""
    row, _, column = cell.partition(":")
    valid = {key for key, _ in columns([""] * players)}
    require(row in ROWS and column in valid, "推理表没有这一格。")
    return cell


def next_mark(mark: str) -> str:
    return MARKS[(MARKS.index(mark) + 1) % len(MARKS)] if mark in MARKS else ""


def grid(players: list[str], sheet: dict[str, str]) -> list[dict[str, object]]:
    """Rows for the page: each with its cells (key, mark, spoken name: "T3 · 李元芳:✓ 有/是")."""
    cols = columns(players)
    return [{"row": r, "cells": [_cell(r, c, name, sheet.get(f"{r}:{c}", "")) for c, name in cols]} for r in ROWS]


def _cell(row: str, column: str, name: str, mark: str) -> tuple[str, str, str]:
    return f"{row}:{column}", mark, f"{row} · {name}:{SPOKEN.get(mark, mark)}"
