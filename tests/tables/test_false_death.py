"""A false death at a physical table: a seat records the death of players who are alive. Until the victim or the host
confirms, nothing of the game moves — nobody is out, no identity, reward, penalty or loot, no turn skipped, no
victory even when every other seat is "dead" —, and the victim's 驳回 leaves the game exactly as it was."""

from __future__ import annotations

import pytest

from tables import services
from tables.models import Table

pytestmark = pytest.mark.django_db
FIVE = ["阿甲", "阿乙", "阿丙", "阿丁", "阿戊"]
MOVES = ("alive", "revealed", "hp", "max_hp", "hand", "current", "turn_no", "phase", "kills", "winning_side")


def _table(kind: str) -> Table:
    table = services.create_table(kind, FIVE, mode="physical")
    if kind == "sanguosha":  # generals first: each the first candidate, the lord first
        state = table.load()
        for seat in [state.lord, *(p for p in range(5) if p != state.lord)]:
            current = Table.objects.get(pk=table.pk).load()
            services.act(table.pk, seat, {"type": "choose_general", "general": current.candidates[seat][0]})
    return Table.objects.get(pk=table.pk)


def _game(table: Table) -> dict:
    state = Table.objects.get(pk=table.pk).load()
    return {name: getattr(state, name) for name in MOVES}


@pytest.mark.parametrize("kind", ["anhuoxian", "sanguosha"])
def test_false_deaths_of_every_other_seat_move_nothing_and_a_rejection_leaves_the_game_as_it_was(kind):
    table = _table(kind)
    before = _game(table)
    liar = before["current"]
    others = [p for p in range(5) if p != liar]
    for victim in others:  # every other seat "dead": a side would have won
        services.act(table.pk, liar, {"type": "death", "target": victim, "source": liar})
    state = Table.objects.get(pk=table.pk).load()
    assert sorted(d["victim"] for d in state.pending) == others
    assert _game(table) == before  # nobody out, nothing revealed or moved, no victory
    text = "\n".join(line["text"] for line in state.log)
    assert all(f"亮出身份:{state.roles[p]}" not in text for p in others)
    with pytest.raises(services.RuleError):  # the same false death twice is refused
        services.act(table.pk, liar, {"type": "death", "target": others[0]})
    with pytest.raises(services.RuleError):  # nor can the liar (or any other seat) confirm it
        services.act(table.pk, others[1], {"type": "confirm_death", "target": others[0]})

    services.act(table.pk, liar, {"type": "end_turn"})  # play goes on: the next seat's turn, "dead" or not
    after = Table.objects.get(pk=table.pk).load()
    assert after.current in ((liar + 1) % 5, (liar - 1) % 5) and after.turn_no == before["turn_no"] + 1
    moved = _game(table)
    for victim in others[:-1]:
        services.act(table.pk, victim, {"type": "reject_death", "target": victim})
    services.act(table.pk, None, {"type": "reject_death", "target": others[-1]})  # the host
    state = Table.objects.get(pk=table.pk).load()
    assert state.pending == [] and _game(table) == moved and all(state.alive)
    assert sum("驳回了" in line["text"] for line in state.log) == 4
