"""The parser's message tables (golden.yaml, corpus.yaml) and how one case is judged; shared by the tests and
`python -m bench.parser`.

An input is right when it is one of the case's expected inputs (the `span` key aside: the output keys of
docs/parser.md only); the bench counts every other input as a wrong input: a silent misreading that costs a player
AP or a card.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

from moderator.parser import parse_pm

HERE = Path(__file__).parent
FILES = ("golden.yaml", "corpus.yaml")
EXTRA_KEYS = ("span", "candidates", "input", "manifesto_spans", "pronoun", "inferred_use")


@dataclass(frozen=True)
class Case:
    id: str
    kind: str  # the class of corpus.yaml (chat, negation, quote, …), or "golden"
    text: str
    sender: str
    players: list[str]
    hand: list[str]
    phase: str
    raw: dict

    def parse(self) -> dict:
        return parse_pm(self.text, sender=self.sender, players=self.players, hand=self.hand, phase=self.phase).to_json()


def load(name: str) -> list[Case]:
    table = yaml.safe_load((HERE / name).read_text(encoding="utf-8"))
    out, seen = [], Counter()
    for c in table["cases"]:
        kind = c.get("class", "golden")
        seen[kind] += 1
        hand = c.get("hand", [])
        out.append(
            Case(
                id=c.get("id") or f"{kind}-{seen[kind]:02d}",
                kind=kind,
                text=c["text"],
                sender=c.get("sender", table["sender"]),
                players=c.get("players", table["players"]),
                hand=table["hands"][hand] if isinstance(hand, str) else hand,
                phase=c.get("phase", "night"),
                raw=c,
            )
        )
    return out


def all_cases() -> list[Case]:
    return [c for name in FILES for c in load(name)]


def bare(item: dict) -> dict:
    """An input without the keys the project added to the output (span)."""
    return {k: v for k, v in item.items() if k not in EXTRA_KEYS}


def wrong_inputs(case: Case, got: dict) -> list[dict]:
    """The inputs the parser produced that the case does not expect."""
    want = Counter(repr(sorted(i.items())) for i in case.raw["inputs"])
    wrong = []
    for item in got["inputs"]:
        key = repr(sorted(bare(item).items()))
        if want[key] > 0:
            want[key] -= 1
        else:
            wrong.append(bare(item))
    return wrong
