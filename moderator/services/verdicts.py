"""What an entry does to the verdicts the 天神 has seen (T3: inputs are judged in forum order, not entry order).

An input entered out of forum order replays its phase and may change the verdicts of inputs entered before it (an AP
shortfall moves, a T3 change becomes a new submission, an N-kill count changes). Nothing may change a verdict the
天神 did not see: a preview shows an `EntryOutcome` (the new inputs' verdicts, every other verdict that changes, as
sentences) and its `digest`; the write compares (`check_seen`) and stores nothing (`NotAsSeen`) if they differ. A
preview that must store to know is the write itself, rolled back (services.preview.rolled_back).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from moderator.game.state import CloseResult
from moderator.models import Input, Phase, Seat
from moderator.rules import codec
from moderator.services.closing import result_json
from moderator.services.errors import PlayError
from moderator.services.storage import Replay, voided


class Judged(Protocol):
    """A verdict as shown: the rules' Verdict, a stored InputVerdict or a preview's intake.Item."""

    @property
    def accepted(self) -> bool: ...
    @property
    def reason(self) -> str: ...
    @property
    def cost(self) -> int: ...


def verdict_text(verdict: Judged | None) -> str:
    """A verdict as the 天神 reads it: 接受(−2 点) / 拒绝:原因 / 已作废."""
    if verdict is None:
        return "已作废"
    if verdict.accepted:
        return (
            "接受"
            + (f"(−{verdict.cost} 点)" if verdict.cost else "")
            + (f":{verdict.reason}" if verdict.reason else "")
        )
    return f"拒绝:{verdict.reason}"


@dataclass(frozen=True)
class VerdictChange:
    """Another input of the phase whose verdict a write would change (who, what, before → after)."""

    who: str
    what: str
    before: str
    after: str

    @property
    def sentence(self) -> str:
        return f"{self.who} {self.what}:{self.before} → {self.after}"


@dataclass
class EntryOutcome:
    """What storing one message's inputs does: their own verdicts, the other inputs of the phase whose verdicts
    change (an entry out of forum order, T3), and how many inputs already entered are later in forum time."""

    verdicts: Sequence[Judged]
    changes: list[VerdictChange] = field(default_factory=list)
    later: int = 0
    what: list[str] = field(default_factory=list)  # the new inputs as sentences (what is stored, not just how judged)
    # whose message, when, its words, what was not read (message_context)
    context: list[str] = field(default_factory=list)

    @property
    def digest(self) -> str:
        """A fingerprint of everything the 天神 is shown, so a confirm can check it stores what was seen."""
        lines = self.context + self.what + [verdict_text(v) for v in self.verdicts] + [c.sentence for c in self.changes]
        return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


def text_key(text: str) -> str:
    """Which pasted text a preview's 宣言 boxes belong to: edits made for another text (the 天神 pasted a new PM
    and previewed again) are dropped, never applied to the new text's attacks."""
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()[:16]


def message_context(sender: str, forum_at: datetime, text: str, refusals: list[dict]) -> list[str]:
    """What a message is besides its inputs, for the digest: who sent it, its forum minute, its words (hashed) and what
    was not understood or was chosen among candidates. A confirm with another sender, time or text is not what the
    preview showed."""
    minute = int(forum_at.timestamp()) // 60  # the instant, whatever time zone the datetime was read in
    lines = [f"{sender} {minute}", hashlib.sha256(_words(text).encode()).hexdigest()[:16]]
    return lines + [_words(f"{r.get('text', '')}:{r.get('reason', '')}→{r.get('choice', '')}") for r in refusals]


def _words(text: str) -> str:
    """The words, whatever the white space: a browser sends a textarea back with CRLF line ends."""
    return " ".join(text.split())


class NotAsSeen(PlayError):
    """The write would not do what the 天神 saw (other verdicts change, or the preview is out of date): nothing is
    stored; `outcome` says what it would do now."""

    def __init__(self, outcome: EntryOutcome):
        super().__init__(
            "这条输入会改变本时段其他输入的结果,请看过差异后再确认。"
            if outcome.changes
            else "要保存的内容或结果和预览时不同:什么都没有保存,请看过新的预览后再确认。"
        )
        self.outcome = outcome


def sentences(items: list[dict], names: dict[int, str]) -> list[str]:
    """Items as the sentences their stored inputs will read (through the codec, as `inputs.write` describes them)."""
    seat_of = {name: number for number, name in names.items()}
    try:
        return [codec.describe(*codec.encode(item, seat_of), names) for item in items]
    except codec.CodecError:  # an unknown player: the store refuses it with the reason
        return [codec.describe_item(item) for item in items]


def check_seen(outcome: EntryOutcome, seen: str | None) -> None:
    """Refuse a write the 天神 did not see: `seen` is the digest of the preview shown (it must match), "" when no
    preview was shown (then no other input's verdict may change), None when nobody is watching (nothing checked)."""
    if seen is None:
        return
    if (outcome.digest != seen) if seen else bool(outcome.changes):
        raise NotAsSeen(outcome)


def verdict_changes(before: Replay, after: Replay, phase_id: int, *, skip: frozenset[int] = frozenset()):
    """The inputs of the phase (but `skip`) whose verdict differs between two replays, as sentences."""
    changed = []
    for rec in before.records.get(phase_id, []):
        if rec.pk in skip or voided(rec):
            continue
        old, new = verdict_text(before.verdicts.get(rec.pk)), verdict_text(after.verdicts.get(rec.pk))
        if old != new:
            changed.append((rec, old, new))
    if not changed:
        return []
    number = dict(Seat.objects.filter(pk__in={r.seat_id for r, _, _ in changed}).values_list("pk", "number"))
    return [
        VerdictChange(before.names[number[r.seat_id]], codec.describe(r.kind, r.payload, before.names), old, new)
        for r, old, new in changed
    ]


def later_inputs(replay: Replay, phase: Phase, forum_at: datetime) -> int:
    """How many inputs of the phase, already entered and not voided, carry a later forum time than `forum_at`."""
    return sum(1 for r in replay.records.get(phase.pk, []) if r.forum_at > forum_at and not voided(r))


def result_digest(result: CloseResult, drawn: Sequence[Input] = ()) -> str:
    """A fingerprint of what a close gives (losses, saves, executions, tally, deaths, windows, winner, the post's
    events) and of the orders O1 draws with it (`drawn`: each seat's, at the end of night 1): the end-early page shows
    that close and those orders, and the end is refused if either would differ (T5)."""
    doc = result_json(result)
    if drawn:
        doc["drawn"] = [[rec.seat_id, rec.payload["order"]] for rec in drawn]
    return hashlib.sha256(json.dumps(doc, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()[:16]
