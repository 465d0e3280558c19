"""The pure rules engine of 神探狄仁杰 (docs/rules.md). No Django here: a test enforces it.

State is frozen; every transition is `(state, input) -> (state, verdict)` or `(state) -> (state, events)`.
The public surface:

- `start_game(seats, ap=..., start=...)` — the table as dealt, the first phase open (RULES S1, T1).
- `submit(state, inp)` — validate one input (an action, a vote or a discard order) at the moment it was sent (AP4, T3,
  D3, O1–O3) and record it: returns the new state and a `Verdict` (accepted, or refused with the reason).
- `submit_message(state, inputs)` — the inputs of one PM together (N-kill: one message, one count).
- `end_phase(state)` — resolve the open night or day (N, B, D, M …) and return the events to announce (A1–A4).
- `open_phase(state)` — start the next phase: AP grant, upkeep, arsons (AP1, AP3, N14).

The layers of the core, each importing only those below it: `cards/` (catalogue, dealing) → `moderator/game/`
(state, ledger, validation) → `nights/`, `votes/` (a night's and a day's resolution) → this package (the engine,
the codec of stored inputs, what each viewer may see). `make lint` checks them.
"""

from moderator.game.state import Action, GameState, Order, SeatSpec, Verdict, Vote
from moderator.rules.engine import end_phase, open_phase, start_game, submit, submit_message

__all__ = [
    "Action",
    "GameState",
    "Order",
    "SeatSpec",
    "Verdict",
    "Vote",
    "end_phase",
    "open_phase",
    "start_game",
    "submit",
    "submit_message",
]
