"""The lexer's unit: a run of normalised text and what it was read as."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Token:
    """norm[start:end] read as one `kind`, with what it means (`value`: a player, a privilege, a position…)."""

    kind: str  # NAME SEAT USE CARD POS REPEAT SELF MODE SIDE STANCE VOTE CHANGE SELFVOTE COND REASON CANCEL
    #            MANIFESTO ORDER BOTTOM FILL STOP SEP PUNCT GAP
    #            NEG AFTERNEG PRON OTHER REPORT OPINION HEDGE PAST PASSIVE QUESTION ALT PASS
    start: int
    end: int
    value: Any = None
    text: str = ""  # the normalised spelling
    weak: bool = False
    hint: str | None = None  # the card a spelling implies (咬 → 狼人, 巫医 → 巫医)
