"""The self-chosen player's night-1 choice (docs/rules.md S4): side 杀手|狼人 and mode 共赢|独赢 (一山不容二虎 = 独赢).

The choice may be spread over clauses ("我选杀手。一山不容二虎。"); it is gathered over the whole message and
becomes one input {"use": "立场", "side": …, "mode": …} (no card), or one refusal saying what is missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cards import catalogue as cat

from .lexer import Token

SIDES = (cat.KILLER, cat.WEREWOLF)
_STANCE_NOUNS = ("立场", "阵营")
CARD_ONLY = "只写了牌名,没写用什么特权、对谁用"


def _sides(tokens: list[Token]) -> list[str]:
    return [t.value for t in tokens if t.kind == "SIDE" or (t.kind == "CARD" and t.value in SIDES)]


@dataclass
class Stance:
    sides: list[str] = field(default_factory=list)
    modes: list[str] = field(default_factory=list)
    side_words: list[tuple[int, int, str]] = field(default_factory=list)  # a bare 杀手 / 狼人 clause
    span: tuple[int, int] | None = None

    def take(self, mean: list[Token], start: int, end: int) -> bool:
        """Record a clause that speaks of the stance; False when it does not."""
        kinds = {t.kind for t in mean}
        noun = any(t.kind == "STANCE" and t.text in _STANCE_NOUNS for t in mean)
        if not (kinds & {"MODE", "SIDE"} or ("STANCE" in kinds and "USE" not in kinds and (_sides(mean) or noun))):
            return False
        self.sides += _sides(mean)
        self.modes += [t.value for t in mean if t.kind == "MODE"]
        self.span = (self.span[0] if self.span else start, end)
        return True

    def card_words(self, cards: list[str], start: int, end: int) -> bool:
        """A clause of card names only: a side if the message speaks of the stance; True when it may be one."""
        self.side_words += [(start, end, c) for c in cards if c in SIDES]
        return all(c in SIDES for c in cards)

    def verdict(self) -> tuple[dict | None, list[tuple[int, int, str]]]:
        """(the 立场 input, refusals as (start, end, reason)); `span` then holds every word the input is read from."""
        if self.span is None:
            clauses = dict.fromkeys((a, b) for a, b, _ in self.side_words)  # "杀手 杀手 …": one clause, one refusal
            return None, [(a, b, CARD_ONLY) for a, b in clauses]
        sides = list(dict.fromkeys(self.sides)) or list(dict.fromkeys(s for _, _, s in self.side_words))
        modes = list(dict.fromkeys(self.modes))
        start, end = self.span
        if not self.sides and self.side_words:  # "杀手,共赢": the side is read from the bare 杀手, its words too
            start = min(start, *(a for a, _, _ in self.side_words))
            end = max(end, *(b for _, b, _ in self.side_words))
            self.span = (start, end)
        if len(sides) != 1:
            why = "写了两边" if sides else "没写站哪一边"
            return None, [(start, end, f"立场{why}:只能选杀手或狼人一边(S4),如“立场:杀手,共赢”")]
        if len(modes) != 1:
            why = "既写了共赢又写了独赢" if modes else "没写共赢还是独赢"
            return None, [(start, end, f"立场{why}:请写“共赢”或“一山不容二虎(独赢)”(S4)")]
        return {"use": "立场", "side": sides[0], "mode": modes[0]}, []
