"""N14 纵火 taking effect at the start of a phase, after the AP grant and upkeep (AP3 b, c; the 2014 amendment)."""

from __future__ import annotations

from moderator.game.ledger import charge
from moderator.game.state import DAY, NIGHT, GameState, evolve


def due_phase(sent: tuple[str, int]) -> tuple[str, int]:
    """Sent at night N → effect at the start of night N+1; sent in day D → at the start of day D+1."""
    kind, number = sent
    return (kind, number + 1)


def apply_due(state: GameState) -> tuple[GameState, list[dict]]:
    """Every arsonist's cost (b) before any victim's loss (c), each in the order sent. An arsonist under 2 free AP
    fails and nobody is charged; one imprisoned on the night it was sent is charged but the victim keeps their AP;
    an arsonist who died before the effect is cancelled."""
    due = [a for a in state.arsons if due_phase(a.sent) == state.phase]
    rest = tuple(a for a in state.arsons if due_phase(a.sent) != state.phase)
    events: list[dict] = []
    burning = []
    for arson in due:
        arsonist = state.seat(arson.by)
        x = arsonist.ap
        if not arsonist.alive or x < 2:
            events.append(
                {
                    "type": "arson_failed",
                    "by": arson.by,
                    "target": arson.target,
                    "why": "dead" if not arsonist.alive else "ap",
                }
            )
            continue
        state = charge(state, arson.by, min(x // 2, x - 2) - x, "纵火消耗(AP3 b, N14)")
        if arson.blocked:
            events.append({"type": "arson_failed", "by": arson.by, "target": arson.target, "why": "prison"})
        else:
            burning.append(arson)
    for arson in burning:
        victim = state.seat(arson.target)
        if victim.alive:
            y = victim.ap
            state = charge(state, arson.target, y // 2 - y, "被纵火(AP3 c, N14)")
            events.append({"type": "arson", "by": arson.by, "target": arson.target})
    return evolve(state, arsons=rest), events


__all__ = ["DAY", "NIGHT", "apply_due", "due_phase"]
