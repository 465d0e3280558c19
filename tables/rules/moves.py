"""Moves declared once: the interface every table game offers the site, and the legal moves a game lists.

Pure Python, no Django.  As boardgame.io does it: a game lists the moves a seat may make now, each with the values
its arguments may take (``Move``); the move itself checks its legality when it is applied (``RuleError``); the
pages' forms are built from the list (``Move.form``), and the fuzz checks both ways that the list and the rules
agree (``Move.actions``: every listed action is legal; every legal action is listed).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from .base import RuleError, form, param

# How many concrete actions ``Move.actions`` yields at most for one move (a discard of 5 from 12 cards has 792).
ACTIONS_CAP = 200


@dataclasses.dataclass(frozen=True)
class Arg:
    """One argument of a move and every value it may take now (``kind`` as ``base.param``: seat, choice, multi…).

    ``placeholder``: a first choice that stands for "not chosen yet" (「— 请选择 —」), shown and never legal.
    ``kind`` number or text: a typed-in field, any value of its type offered (the move's ``combos`` give legal
    examples).  ``sizes``: for ``seats``, how many seats may be picked."""

    name: str
    label: str
    kind: str
    choices: tuple[tuple[Any, str], ...]
    count: int | None = None  # multi: how many values to pick
    placeholder: str | None = None
    sizes: tuple[int, ...] = ()

    @property
    def typed_in(self) -> bool:
        return self.kind in TYPED_IN

    def values(self) -> list[Any]:
        """Every value of this argument a form offers (a typed-in field: none, its move's combinations say)."""
        options = [value for value, _ in self.choices]
        if self.kind not in ("multi", "seats"):
            return options
        sizes = self.sizes or (self.count or 1,)
        picks = {tuple(sorted(c)) for k in sizes for c in itertools.combinations(options, k)}
        return [list(p) for p in sorted(picks)]

    def accepts(self, value: Any) -> bool:
        if self.typed_in:
            return isinstance(value, TYPED_IN[self.kind]) and not isinstance(value, bool)
        if self.kind in ORDERED:
            return isinstance(value, list | tuple)  # which lists: its move's combinations say
        if self.kind in ("multi", "seats"):
            return isinstance(value, list) and _key(value) in {_key(v) for v in self.values()}
        return any(value == v and type(value) is type(v) for v, _ in self.choices)


TYPED_IN: dict[str, type] = {"number": int, "text": str}
# Lists whose order is part of the value (a clue's cards top to bottom, the sources in turn): a move with such an
# argument lists its combinations, and an action is one of them exactly as listed.
ORDERED = frozenset({"cardset", "sources"})


def _key(values: list[Any]) -> tuple[Any, ...]:
    return tuple(sorted(values, key=repr))


@dataclasses.dataclass(frozen=True)
class Move:
    """A move a seat may make now: its type, its label, its arguments with their legal values.

    ``combos``: when the legal values of one argument depend on another (a death's killer is not its victim), the
    legal combinations, one value per argument in order; the form shows each argument's values that some combination
    uses, and the move is these combinations (the rules refuse any other with their message)."""

    type: str
    label: str
    args: tuple[Arg, ...] = ()
    help: str = ""
    combos: tuple[tuple[Any, ...], ...] | None = None

    def __post_init__(self) -> None:
        if self.combos is None and any(a.kind in ORDERED for a in self.args):
            raise ValueError(f"{self.type}: an argument whose order counts needs its move's combinations (combos)")

    def form(self) -> dict[str, Any]:
        """The page's form for this move (``base.form``), its choices the legal values."""
        params = (param(a.name, a.label, a.kind, _shown(a, self._used(i)), a.count) for i, a in enumerate(self.args))
        return form(self.type, self.label, *params, help=self.help)

    def _used(self, i: int) -> set[Any] | None:
        """The values of argument ``i`` that some legal combination uses (None: every value is used)."""
        if self.combos is None or self.args[i].typed_in or self.args[i].kind in ORDERED:
            return None
        used = set()
        for combo in self.combos:
            used |= {_comparable(v) for v in combo[i]} if isinstance(combo[i], list) else {_comparable(combo[i])}
        return used

    def actions(self, seat: Any) -> Iterator[dict[str, Any]]:
        """Every concrete action of this move (up to ``ACTIONS_CAP``): its legal combinations, or each combination of
        the arguments' values."""
        combos = self.combos if self.combos is not None else itertools.product(*(a.values() for a in self.args))
        for combo in itertools.islice(combos, ACTIONS_CAP):
            yield {"type": self.type, "player": seat, **{a.name: v for a, v in zip(self.args, combo, strict=True)}}

    def offers(self, action: dict[str, Any], seat: Any) -> bool:
        """Is ``action`` one of this move's (a typed-in field: any value of its type)?"""
        mine = action.get("type") == self.type and action.get("player") == seat
        if not mine or any(a.name not in action or not a.accepts(action[a.name]) for a in self.args):
            return False
        if self.combos is None:
            return True
        chosen = [i for i, a in enumerate(self.args) if not a.typed_in]  # a typed-in value: any of its type
        sent = [_as_listed(self.args[i], action[self.args[i].name]) for i in chosen]
        return any(sent == [_as_listed(self.args[i], combo[i]) for i in chosen] for combo in self.combos)


def _as_listed(arg: Arg, value: Any) -> Any:
    """A value as a combination holds it: an ordered list in its order, any other list as a set."""
    return tuple(value) if arg.kind in ORDERED else _comparable(value)


def _comparable(value: Any) -> Any:
    return _key(value) if isinstance(value, list) else (type(value).__name__, value)


def _shown(arg: Arg, used: set[Any] | None) -> list[tuple[Any, str]]:
    """The choices a form shows: the argument's values that some legal move uses, after its placeholder."""
    choices = [c for c in arg.choices if used is None or arg.kind == "hidden" or _comparable(c[0]) in used]
    return [("", arg.placeholder), *choices] if arg.placeholder is not None else choices


def passes(check: Callable[..., Any], *args: Any) -> bool:
    """Does the rules' own check accept these arguments (it raises RuleError when it refuses)?"""
    try:
        check(*args)
    except RuleError:
        return False
    return True


def offered(moves: list[Move], action: dict[str, Any], seat: Any) -> bool:
    return any(m.offers(action, seat) for m in moves)


def seat_arg(name: str, label: str, players: list[str], seats: list[int]) -> Arg:
    return Arg(name, label, "seat", tuple((p, players[p]) for p in seats))


def choice_arg(name: str, label: str, values: list[tuple[Any, str]]) -> Arg:
    return Arg(name, label, "choice", tuple(values))


class TableGame(Protocol):
    """What the site needs of a table game (a rules module, or ``ElectronicGame`` putting a rules and a view module
    together).

    ``State`` is the class of its states, dataclasses of JSON types (``base.TableState``: the site loads a stored
    state with ``State.from_dict``); ``apply`` never mutates its input and raises RuleError for a move the rules
    refuse; ``forms(state, seat)`` lists what that seat (or the host, ``tracker.HOST``) may do now, for the pages."""

    KIND: str
    TITLE: str
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    State: type[Any]

    def new_game(self, players: list[str], seed: int, options: dict[str, Any] | None = None) -> Any: ...

    def apply(self, state: Any, action: Any) -> tuple[Any, list[dict[str, Any]]]: ...

    def legal(self, state: Any, action: Any) -> None: ...

    def winner(self, state: Any) -> list[int] | None: ...

    def score(self, state: Any) -> dict[int, int] | None: ...

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]: ...

    def moves(self, state: Any, seat: Any) -> list[Move]: ...

    def forms(self, state: Any, seat: Any) -> list[dict[str, Any]]: ...
