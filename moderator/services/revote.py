"""D3: who must vote again. A conditional vote, or an original vote that names no single player, is invalid: the 天神
asks the player to vote again (an ambiguous original also forfeits the change right). The parser refuses such a post
with a D3 reason and stores no vote; this module finds, for the open day, every living voter whose post was refused so
and who has not voted since, and drafts the public request."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from moderator.game.state import GameState
from moderator.models import Announcement, AuditLog, Game, Message, Phase
from moderator.services import audit
from moderator.services.announce import notice
from moderator.services.base import game_lock
from moderator.services.errors import PlayError
from moderator.services.once import Once, spend
from moderator.services.storage import game_replay, require_open_phase


@dataclass(frozen=True)
class Revote:
    name: str
    reason: str  # the refusal, as the parser said it (D3)
    text: str  # the words it was read from
    at: datetime


def revotes(game: Game, phase: Phase | None, state: GameState) -> list[Revote]:
    """The living voters of the open day whose vote post was refused under D3 and who have not voted since."""
    if phase is None or phase.kind != Phase.Kind.DAY or phase.status != Phase.Status.OPEN:
        return []
    waiting = {s.name for s in state.alive if s.name not in state.votes and s.name not in state.saved}
    end = phase.announced_end or phase.ends_at
    found: dict[str, Revote] = {}
    messages = Message.objects.filter(game=game, forum_at__gte=phase.starts_at.replace(second=0), forum_at__lte=end)
    for m in messages.order_by("forum_at", "id"):
        if m.sender_name not in waiting or (m.parsed or {}).get("inputs"):
            continue
        for r in (m.parsed or {}).get("refusals", []):
            reason = str(r.get("reason", ""))
            if "D3" in reason and "投票" in reason and not r.get("choice"):
                found[m.sender_name] = Revote(m.sender_name, reason, str(r.get("text", ""))[:200], m.forum_at)
    return [found[name] for name in (s.name for s in state.seats) if name in found]


@transaction.atomic
def revote_request(*, game: Game, actor=None, once: Once | None = None) -> Announcement:
    """Draft the public request (D3): who must vote again, why, and the deadline."""
    game = game_lock(game)
    spend(game, once, "起草重新投票通知")
    phase = require_open_phase(game)
    who = revotes(game, phase, game_replay(game).state)
    if not who:
        raise PlayError("现在没有需要重新投票的玩家")
    ctx = {"who": who, "end": phase.announced_end or phase.ends_at}
    title = f"【{game.name}】{phase.label}:请重新投票"
    draft = notice(game, phase, title, "announcements/revote.bbcode", ctx)
    audit.record(game, actor, AuditLog.Action.REVOTE_DRAFT, {"title": title})
    return draft
