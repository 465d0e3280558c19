"""The game's state and what checks it: the layer of the pure core under the night (nights/) and the day (votes/).

- `state` — the frozen types of a game (GameState, SeatState, Card, Action, Vote, Order, Verdict …) and `evolve`.
- `ledger` — action points: charges, the night grant and upkeep (AP1–AP5).
- `validate` — one input judged at the moment it was sent (AP4, T3, D3, N-kill).
- `orders` — discard orders: checked, and the seeded default (O1–O3).
- `settle` — what every close ends with: deaths (V5), windows (O3), 默哀期 (T7), victory (V1–V4).
- `trace` — the steps of a close in sentences (为什么).

It imports only `cards/` (the catalogue and dealing) below it; nights/, votes/ and the engine (moderator/rules/) sit
above it. No Django here.
"""
