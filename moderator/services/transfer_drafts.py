"""The announcement drafts of an export: which were posted on the forum (and when), which were corrected, and — for
every draft but a PM — the text itself, so that an imported game keeps its public archive.

The import replays the game and redrafts every close; the marks then go back onto the redrafts. A draft is the
same post only if it is of the same phase, kind and recipient and its text is word for word the same (its sha256):
a mark is never attached to a redraft that reads differently, even by one character, nor to two redrafts. The
draft takes back its exported title (with its 〔已更正〕 or (更正后)): the title the forum has, under the game's old
name if the copy was renamed.

What an exported draft with no such redraft becomes:
- a posted or corrected public draft, or a notice (substitution, 更正公告: the replay never writes those), is
  restored as it was, text, title and marks: it is what the forum has. The replay's differing redraft, if any,
  stays beside it, unposted, for the 天神 to read — like a correction's new post;
- a PM draft (私信草稿) is dropped and counted in the audit: its text is not exported, since a handover PM holds the
  old seat's private link; so is an unposted public draft the replay wrote differently (it was never public, and
  the redraft replaces it).

Files without the field (format 1, and format 2 before it) — ruling: every redraft counts as posted at its phase's
close, as migration 0006 ruled for the drafts that existed before the mark: those games were played on the forum,
so their archive was public; a draft not yet posted can be unmarked on the drafts page (取消“已发布”), while a
copy whose public page had lost every post would look like a game that never happened.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from moderator.models import Announcement, Game, Phase
from moderator.services import transfer_schema as schema

assert set(schema.DRAFT_KINDS) == set(Announcement.Kind.values)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _t(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def drafts_export(game: Game, phase_index: dict[int, int]) -> list[dict[str, Any]]:
    """Every draft of the game, oldest first: identity, marks, and the text unless it is a PM."""
    out = []
    for a in game.announcements.order_by("created_at", "id"):
        row = {
            "phase": phase_index[a.phase_id],
            "kind": a.kind,
            "recipient": a.recipient,
            "title": a.title,
            "digest": digest(a.text),
            "created_at": _t(a.created_at),
            "posted_at": _t(a.posted_at),
            "corrected_at": _t(a.corrected_at),
        }
        if a.kind != Announcement.Kind.PRIVATE:
            row |= {"bbcode": a.bbcode, "text": a.text}
        out.append(row)
    return out


@dataclass
class DraftsRestored:
    marked: int = 0  # redrafts that took their marks back
    kept: int = 0  # drafts restored as they were (no redraft reads the same)
    dropped: int = 0  # drafts left out: PMs, and unposted drafts the replay wrote differently

    def detail(self) -> dict[str, int]:
        return {"marked": self.marked, "kept": self.kept, "dropped": self.dropped}


def drafts_restore(game: Game, phases: list[Phase], drafts: list[schema.DraftIn] | None) -> DraftsRestored:
    """The exported drafts' marks onto the import's redrafts (see the module docstring for the rulings)."""
    if drafts is None:
        _legacy_all_posted(phases)
        return DraftsRestored()
    free: dict[tuple, list[Announcement]] = {}
    for a in game.announcements.order_by("id"):
        free.setdefault((a.phase_id, a.kind, a.recipient, digest(a.text)), []).append(a)
    done = DraftsRestored()
    for d in drafts:
        phase = phases[d.phase]
        twins = free.get((phase.pk, d.kind, d.recipient, d.digest))
        marks = {"posted_at": d.posted_at, "corrected_at": d.corrected_at, "title": d.title}
        if twins:
            twin = twins.pop(0)
            Announcement.objects.filter(pk=twin.pk).update(**marks, **_created(d))
            done.marked += 1
        elif d.text is not None and (d.posted_at or d.corrected_at or d.kind == Announcement.Kind.NOTICE):
            kept = Announcement.objects.create(
                game=game,
                phase=phase,
                kind=d.kind,
                recipient=d.recipient,
                bbcode=d.bbcode or d.text,
                text=d.text,
                **marks,
            )
            Announcement.objects.filter(pk=kept.pk).update(**_created(d))  # created_at is auto_now_add
            done.kept += 1
        else:
            done.dropped += 1
    return done


def _created(d: schema.DraftIn) -> dict:
    return {"created_at": d.created_at} if d.created_at else {}


def _legacy_all_posted(phases: list[Phase]) -> None:
    for phase in phases:
        phase.announcements.filter(posted_at__isnull=True).update(posted_at=phase.closed_at or phase.ends_at)
