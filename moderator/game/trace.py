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
    def __call__(self, clause: str, sentence: str, players: tuple[str, ...] = (), quote: str = "") -> None: ...


@dataclass(frozen=True)
class Step:
    clause: str  # the clause that decides (N7, B5, D5 …)
    sentence: str  # "束魂:阿飞的束魂抓到了……"
    players: tuple[str, ...] = ()  # whom it concerns
    quote: str = ""  # the text a post quotes from it (a 杀人宣言), so that a quoted line finds its own step

    @property
    def line(self) -> str:
        return f"{self.clause} {self.sentence}"


class Trace(list[Step]):
    """A tracer that keeps every step, in the order the pipeline took them."""

    def __call__(self, clause: str, sentence: str, players: tuple[str, ...] = (), quote: str = "") -> None:
        self.append(Step(clause, sentence, players, quote))

    @property
    def lines(self) -> list[str]:
        return [s.line for s in self]


USE_CLAUSE = {
    "普通狙击": "N5",
    "瞄准狙击": "N6",
    "束魂": "N7",
    "治疗": "N8",
    "防弹衣": "N9",
    "狼毒": "N9",
    "禁锢": "N10",
    "反狙击": "N10",
    "绝杀": "N11",
    "特赦": "N12",
    "诅咒": "N13",
    "恶毒诅咒": "N13",
    "庇佑": "N13",
    "虔诚庇佑": "N13",
    "圣人": "N14",
    "纵火": "N14",
    "变形": "M1",
    "立场": "S4",
}


def use_clause(use: str, card: str | None = None) -> str:
    """The clause of RULES.md that defines a privilege (an attack's by the card that makes it: 杀手 N1/N2, 狼人
    N3/N4); AP4 when the use is unknown."""
    if use in ("普通攻击", "一击必杀"):
        return ("N3" if card == "狼人" else "N1") if use == "普通攻击" else ("N4" if card == "狼人" else "N2")
    return USE_CLAUSE.get(use, "AP4")


def input_step(tracer: Tracer, by: str, said: str, accepted: bool, reason: str, cost: int, kind: str) -> None:
    """An input and its verdict (AP4: the AP it spent; a refusal under the clause its reason names). `kind`: the
    clause that defines it (the privilege's own, `use_clause`; D3 a vote; O1 a night-1 order, O3 one sent in an
    order-change window; T5 a pass)."""
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


__all__ = ["Step", "Trace", "Tracer", "input_step", "names", "use_clause"]
