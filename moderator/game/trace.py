"""Why a close decided what it did: the steps of the pipeline as sentences, each with its clause (docs/rules.md).

The close (nights/resolve.py, votes/count.py, moderator/game/settle.py) and the opening of a phase take an optional
tracer; every step calls it with the clause that decides, one Chinese sentence naming the inputs it used, and the
players it concerns (so a line of the dawn post can find the steps behind it). Without a tracer (the clock's close)
each step only tests `is not None`: no sentence is built. A trace is computed on demand, by replaying the stored
inputs with a `Trace` as the tracer (moderator/services/explain.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

CLAUSE = re.compile(r"(?<![A-Za-z])(?:N-kill|(?:[SOANDBMVT]|AP)\d+(?![0-9]))")


class Tracer(Protocol):
    def __call__(self, clause: str, sentence: str, players: tuple[str, ...] = ()) -> None: ...


@dataclass(frozen=True)
class Step:
    clause: str  # the clause that decides (N7, B5, D5 …)
    sentence: str  # "束魂:阿飞的束魂抓到了……"
    players: tuple[str, ...] = ()  # whom it concerns

    @property
    def line(self) -> str:
        return f"{self.clause} {self.sentence}"


class Trace(list[Step]):
    """A tracer that keeps every step, in the order the pipeline took them."""

    def __call__(self, clause: str, sentence: str, players: tuple[str, ...] = ()) -> None:
        self.append(Step(clause, sentence, players))

    @property
    def lines(self) -> list[str]:
        return [s.line for s in self]


def input_step(tracer: Tracer, by: str, said: str, accepted: bool, reason: str, cost: int, kind: str) -> None:
    """An input and its verdict (AP4: the AP it spent; a refusal under the clause its reason names). `kind`: the
    clause of its family (AP4 a privilege, D3 a vote, O1 an order, T5 a pass)."""
    if accepted:
        spent = f",花 {cost} 点(AP4)" if cost else ""
        note = f"({reason})" if reason else ""
        tracer("AP4" if cost else kind, f"输入:{by} {said}:接受{spent}{note}", (by,))
    else:
        found = CLAUSE.search(reason)
        tracer(found.group(0) if found else kind, f"输入:{by} {said}:拒绝,{reason}", (by,))


def names(items: list[str] | tuple[str, ...] | set[str] | frozenset[str]) -> str:
    """ "甲、乙、丙", or "无人"."""
    return "、".join(items) if items else "无人"


__all__ = ["Step", "Trace", "Tracer", "input_step", "names"]
