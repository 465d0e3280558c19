"""The pure rules engine of 神探狄仁杰 (docs/rules.md). No Django here: a test enforces it.

State is frozen; every transition is `(state, input) -> (state, verdict)` or `(state) -> (state, events)`.
The public surface:

- `new_game(seats, ap=..., start=...)` — the table as dealt, the first phase open (RULES S1, T1).
- `submit(state, inp)` — validate one input (an action, a vote or a discard order) at the moment it was sent (AP4, T3,
  D3, O1–O3) and record it: returns the new state and a `Verdict` (accepted, or refused with the reason).
- `submit_message(state, inputs)` — the inputs of one PM together (N-kill: one message, one count).
- `close_phase(state)` — resolve the open night or day (N, B, D, M …) and return the events to announce (A1–A4).
- `open_phase(state)` — start the next phase: AP grant, upkeep, arsons (AP1, AP3, N14).
"""

from importlib import import_module
from typing import Any

# Loaded on first use (PEP 562): night resolution (nights/), the count (votes/) and orders (cards/) import
# moderator.rules.state, so importing this package must not import the engine that imports them.
_WHERE = {
    "close_phase": "engine",
    "new_game": "engine",
    "open_phase": "engine",
    "submit": "engine",
    "submit_message": "engine",
    "Action": "state",
    "GameState": "state",
    "Order": "state",
    "SeatSpec": "state",
    "Verdict": "state",
    "Vote": "state",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"moderator.rules.{_WHERE[name]}"), name)
    globals()[name] = value  # found directly from now on: `rules.submit_message` is called once per message
    return value


__all__ = [
    "Action",
    "GameState",
    "Order",
    "SeatSpec",
    "Verdict",
    "Vote",
    "close_phase",
    "new_game",
    "open_phase",
    "submit",
    "submit_message",
]
