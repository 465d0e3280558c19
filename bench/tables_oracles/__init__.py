"""What could conceivably be sent to a table game: the fuzz's oracle for "every legal move is offered".

One module per tracker, named ``<kind>_<mode>`` (``sanguosha_digital``, ``anhuoxian_physical``…), written apart from
the game's own list of moves (``moves(state, seat)``) so that the two are checked against each other.  A module
defines:

* ``TYPES``: every move type the tracker has (``tuple[str, ...]``);
* ``ARGS``: each type's argument names (``dict[str, tuple[str, ...]]``; a type not in it takes none), or a list of
  such tuples where the type's arguments differ by card (暗火线's ``skill``: a target, two targets, or a target and
  what to remove): each is tried;
* ``HOST_ARGS`` (optional, a tracker with a host): the host's argument names where they differ (the host names the
  seat it records for: ``giver``, ``ghost``);
* ``values(state, seat, name) -> list``: every value argument ``name`` could conceivably be sent by ``seat``
  (``tracker.HOST`` for the host) in ``state`` — each seat, card, general, part of the hand, number — including values
  the rules refuse: the fuzz tries each combination and flags any the rules accept that no move lists.

``oracle(kind, mode)`` finds the module (None: that tracker has none); a game played the same in both modes (Noir)
has one module, ``<kind>_digital``.  ``conceivable(module, state, seat, host)`` lists the actions.
"""

from __future__ import annotations

import importlib
import itertools
from types import ModuleType
from typing import Any


def oracle(kind: str, mode: str) -> ModuleType | None:
    from tables.rules import GAMES, PHYSICAL

    if mode == "physical" and PHYSICAL[kind] is GAMES[kind]:
        mode = "digital"  # one game in both modes (Noir): one module
    try:
        return importlib.import_module(f"{__name__}.{kind}_{mode}")
    except ModuleNotFoundError as missing:
        if missing.name != f"{__name__}.{kind}_{mode}":
            raise
        return None


def conceivable(module: ModuleType, state: Any, seat: Any, host: bool = False) -> list[dict[str, Any]]:
    """Every action of every type with every conceivable value of its arguments, sent by ``seat``."""
    names = {**module.ARGS, **getattr(module, "HOST_ARGS", {})} if host else module.ARGS
    out = []
    for kind in module.TYPES:
        variants = names.get(kind, ())
        for args in variants if isinstance(variants, list) else [variants]:
            values = [module.values(state, seat, name) for name in args]
            for combo in itertools.product(*values):
                out.append({"type": kind, "player": seat, **dict(zip(args, combo, strict=True))})
    return out
