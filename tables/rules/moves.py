"""Moves declared once: the interface every table game offers the site, and the legal moves a game lists.

Pure Python, no Django.  As boardgame.io does it: a game lists the moves a seat may make now, each with the values
its arguments may take (``Move``); the move itself checks its legality when it is applied (``RuleError``); the
pages' forms are built from the list (``Move.form``), and the fuzz checks both ways that the list and the rules
agree (``Move.actions``: every listed action is legal; every legal action is listed).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from typing import Any, Protocol

from .base import form, param

# How many concrete actions ``Move.actions`` yields at most for one move (a discard of 5 from 12 cards has 792).
ACTIONS_CAP = 200


@dataclasses.dataclass(frozen=True)
class Arg:
    """One argument of a move and every value it may take now (``kind`` as ``base.param``: seat, choice, multi…)."""

    name: str
    label: str
    kind: str
    choices: tuple[tuple[Any, str], ...]
    count: int | None = None  # multi: how many values to pick


@dataclasses.dataclass(frozen=True)
class Move:
    """A move a seat may make now: its type, its label, its arguments with their legal values."""

    type: str
    label: str
    args: tuple[Arg, ...] = ()
    help: str = ""

    def form(self) -> dict[str, Any]:
        """The page's form for this move (``base.form``), its choices the legal values."""
        params = (param(a.name, a.label, a.kind, list(a.choices), a.count) for a in self.args)
        return form(self.type, self.label, *params, help=self.help)

    def actions(self, seat: Any) -> Iterator[dict[str, Any]]:
        """Every concrete action of this move (up to ``ACTIONS_CAP``): each combination of the arguments' values."""
        values = [_values(a) for a in self.args]
        combos = itertools.product(*values)
        for combo in itertools.islice(combos, ACTIONS_CAP):
            yield {"type": self.type, "player": seat, **{a.name: v for a, v in zip(self.args, combo, strict=True)}}


def _values(arg: Arg) -> list[Any]:
    options = [value for value, _ in arg.choices]
    if arg.kind != "multi":
        return options
    picks = {tuple(sorted(c)) for c in itertools.combinations(options, arg.count or 1)}
    return [list(p) for p in sorted(picks)]


def seat_arg(name: str, label: str, players: list[str], seats: list[int]) -> Arg:
    return Arg(name, label, "seat", tuple((p, players[p]) for p in seats))


def choice_arg(name: str, label: str, values: list[tuple[Any, str]]) -> Arg:
    return Arg(name, label, "choice", tuple(values))


class TableGame(Protocol):
    """What the site needs of a table game (a rules module, or ``Game`` putting a rules and a view module together).

    States are dataclasses of JSON types (``base.GameState``); ``apply`` never mutates its input and raises RuleError
    for a move the rules refuse; ``forms(state, seat)`` lists what that seat (or the host, ``tracker.HOST``) may do
    now, for the pages."""

    KIND: str
    TITLE: str
    MIN_PLAYERS: int
    MAX_PLAYERS: int

    def new_game(self, players: list[str], seed: int, options: dict[str, Any] | None = None) -> Any: ...

    def apply(self, state: Any, action: Any) -> tuple[Any, list[dict[str, Any]]]: ...

    def legal(self, state: Any, action: Any) -> None: ...

    def winner(self, state: Any) -> list[int] | None: ...

    def score(self, state: Any) -> dict[int, int] | None: ...

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]: ...

    def forms(self, state: Any, seat: Any) -> list[dict[str, Any]]: ...
