"""Bulk intake: a whole vote thread or a batch of PMs in one paste.

`bulk_preview` reads every post (moderator.parser.thread splits the paste) and says what each would do — vote,
change, privilege, order, pass or nothing, with the engine's verdict — judging the posts one after another in forum
order on the current state, storing nothing. A post from somebody who holds no seat, with a time outside the open
phase, or already stored (same author, forum time and text: pasted twice, or in an earlier batch) is shown with the
reason and skipped. `bulk_confirm` stores the kept posts under one game lock and one one-time token: each post is
one message (intake.pm_confirm: the raw text kept forever, its inputs judged as one message, D3/T3 by its forum
time), so the result equals entering the posts one by one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TypedDict

from django.db import transaction
from django.utils import timezone

from moderator import rules
from moderator.models import AuditLog, Game, Message, Phase, Seat
from moderator.parser import parse_pm, parse_vote
from moderator.parser.text import normalise_word
from moderator.parser.thread import Post
from moderator.rules import codec
from moderator.services import audit, base, closing, intake, storage, verdicts
from moderator.services.once import Once, spend
from moderator.services.preview import rolled_back

KIND_LABELS = {codec.ACTION: "特权", codec.VOTE: "投票", codec.ORDER: "丢牌顺序", codec.PASS: "空过"}


@dataclass
class Row:
    """One pasted post and what it would do."""

    post: Post
    forum_at: datetime | None  # aware; None when the post carries no readable time
    seat: Seat | None = None
    skip: str = ""  # why it will not be stored; empty when it will be
    items: list[intake.Item] = field(default_factory=list)
    refusals: list[dict] = field(default_factory=list)

    @property
    def kept(self) -> bool:
        return not self.skip

    @property
    def sender(self) -> Seat:
        """A kept post's seat (rows_triage skips a post without one)."""
        assert self.seat is not None
        return self.seat

    @property
    def at(self) -> datetime:
        """A kept post's forum time (rows_triage skips a post without one)."""
        assert self.forum_at is not None
        return self.forum_at

    @property
    def actions(self) -> list[dict]:
        """What the post does, as the 天神 reads it: 投票 → 曾泰 / 改票 → 李朗 / 特权 束魂 → 狄仁杰 …"""
        rows = [(KIND_LABELS[i.kind], i) for i in self.items]  # "投票 → 曾泰" needs no "投票" label before it
        return [
            {"label": "" if i.sentence.startswith(label) else label, "sentence": i.sentence}
            | {"accepted": i.accepted, "reason": i.reason}
            for label, i in rows
        ]


@dataclass
class BulkPreview:
    phase: Phase
    rows: list[Row]
    later: int = 0  # inputs already entered that some post is earlier than (judged in forum order, T3)
    changes: list[verdicts.VerdictChange] = field(default_factory=list)  # other inputs whose verdict would change
    digest: str = ""  # verdicts.EntryOutcome.digest of what this preview shows

    @property
    def kept(self) -> list[Row]:
        return [r for r in self.rows if r.kept]

    @property
    def skipped(self) -> list[Row]:
        return [r for r in self.rows if not r.kept]


def aware(at: datetime) -> datetime:
    """A forum time as read (naive, the forum's clock = the site's time zone, Beijing) → aware."""
    return timezone.make_aware(at) if timezone.is_naive(at) else at


def seat_for(author: str, seats: list[Seat]) -> Seat | None:
    """The seat whose forum ID the author line names (exactly, or the same after 简繁 / full-width folding)."""
    exact = {s.player_name: s for s in seats}
    if author in exact:
        return exact[author]
    folded = {normalise_word(s.player_name): s for s in seats}
    return folded.get(normalise_word(author))


def _key(seat_id: int, forum_at: datetime, text: str) -> tuple[int, datetime, str]:
    return seat_id, forum_at, text.strip()


def _stored_keys(game: Game, rows: list[Row]) -> set[tuple[int, datetime, str]]:
    times = {r.forum_at for r in rows if r.forum_at}
    stored = Message.objects.filter(game=game, forum_at__in=times, seat__isnull=False)
    return {_key(m.seat_id, m.forum_at, m.text) for m in stored if m.seat_id is not None}


def rows_triage(*, game: Game, phase: Phase, posts: list[Post], ticked: frozenset[int] = frozenset()) -> list[Row]:
    """Each post with its seat, or the reason it is skipped: ticked 跳过 by the 天神 (`ticked`, row indexes), unknown
    author, time outside the phase, duplicate."""
    seats = list(game.seats.order_by("number"))
    rows = [Row(p, aware(p.at) if p.at else None) for p in posts]
    stored = _stored_keys(game, rows)
    seen: set[tuple[int, datetime, str]] = set()
    end = max(phase.ends_at, phase.announced_end or phase.ends_at)
    for i, row in enumerate(rows):
        row.seat = seat_for(row.post.author, seats)
        if i in ticked:
            row.skip = "天神选择跳过这一条。"
        elif row.seat is None:
            names = "、".join(s.player_name for s in seats)
            row.skip = f"“{row.post.author or '(没有作者)'}”不是本局的玩家(玩家:{names}):跳过。"
        elif row.forum_at is None:
            row.skip = "没有论坛时间:请填写 YYYY-MM-DD HH:MM。"
        elif row.forum_at < phase.starts_at.replace(second=0, microsecond=0):
            row.skip = f"论坛时间早于{phase.label}开始:属于已经结束的时段(请用更正功能补录),跳过。"
        elif row.forum_at > end:
            row.skip = f"论坛时间晚于{phase.label}结束:属于下一个时段,跳过。"
        elif not row.post.body.strip():
            row.skip = "正文是空的:跳过。"
        elif (key := _key(row.seat.pk, row.forum_at, row.post.body)) in stored:
            row.skip = "这条已经录入过了(同一作者、同一时间、同一内容):跳过,不会重复保存。"
        elif key in seen:
            row.skip = "这条在粘贴内容里出现了两次:只保存第一次。"
        else:
            seen.add(key)
    return rows


def _forum_order(rows: list[Row]) -> list[Row]:
    return sorted((r for r in rows if r.kept), key=lambda r: r.at)


def bulk_preview(
    *, game: Game, posts: list[Post], vote_post: bool, ticked: frozenset[int] = frozenset()
) -> BulkPreview:
    """What each post would do if confirmed now, judged in forum order on the current state — stores nothing. When a
    post is earlier than inputs already entered (out of forum order), the batch is judged as the confirm will judge it
    (stored and rolled back), with every other input of the phase whose verdict it would change."""
    phase = storage.require_open_phase(game)
    rows = rows_triage(game=game, phase=phase, posts=posts, ticked=ticked)
    replay = storage.game_replay(game)
    kept = _forum_order(rows)
    if any(verdicts.later_inputs(replay, phase, r.at) for r in kept):
        return _stored_preview(game, phase, rows, vote_post)
    state = replay.state
    names = list(game.seats.order_by("number").values_list("player_name", flat=True))
    for row in kept:
        sender = row.sender.player_name
        if vote_post:
            result = parse_vote(row.post.body, sender=sender, players=names)
        else:
            hand = list(state.seat(sender).names)
            result = parse_pm(row.post.body, sender=sender, players=names, hand=hand, phase=phase.kind)
        data = result.to_json()
        inputs = intake.edited_inputs(data["inputs"]) if vote_post and row.post.edited else data["inputs"]
        at = closing.minutes_into(phase, row.at)
        state, judged = rules.submit_message(state, [codec.item_to_engine(i, by=sender, at=at) for i in inputs])
        row.items = [intake.Item(i, v.accepted, v.reason, v.cost) for i, v in zip(inputs, judged, strict=True)]
        row.refusals = data["refusals"]
    preview = BulkPreview(phase, rows)
    lines = [(row, row.refusals, row.items) for row in kept]
    preview.digest = verdicts.EntryOutcome([i for r in kept for i in r.items], **_shown(lines)).digest
    return preview


class _Shown(TypedDict):
    context: list[str]
    what: list[str]


def _shown(rows: list[tuple[Row, list[dict], list[intake.Item]]]) -> _Shown:
    """What the preview table shows of each kept post besides its verdicts (author, minute, words, refusals, inputs),
    for the digest: a confirm of an edited row is not what was seen."""
    context = [
        line
        for row, refusals, _ in rows
        for line in verdicts.message_context(row.sender.player_name, row.at, row.post.body, refusals)
    ]
    return {"context": context, "what": [i.sentence for _, _, items in rows for i in items]}


def _stored_preview(game: Game, phase: Phase, rows: list[Row], vote_post: bool) -> BulkPreview:
    """The kept posts stored as the confirm stores them, then rolled back: each post's verdicts, the changes."""
    kept = _forum_order(rows)
    done = rolled_back(lambda: bulk_confirm(game=game, posts=[r.post for r in kept], vote_post=vote_post))
    by_post = {id(row.post): (message, items) for row, message, items in done.stored}
    for row in kept:
        message, row.items = by_post[id(row.post)]
        row.refusals = message.parsed["refusals"]
    preview = BulkPreview(phase, rows, later=done.outcome.later, changes=done.outcome.changes)
    preview.digest = done.outcome.digest
    return preview


@dataclass
class BulkResult:
    stored: list[tuple[Row, Message, list[intake.Item]]]
    skipped: list[Row]
    outcome: verdicts.EntryOutcome  # what the batch did, as its preview shows it (and the digest `seen` is checked on)

    @property
    def accepted(self) -> int:
        return sum(i.accepted for _, _, items in self.stored for i in items)

    @property
    def refused(self) -> int:
        return sum(not i.accepted for _, _, items in self.stored for i in items)


@transaction.atomic
def bulk_confirm(
    *,
    game: Game,
    posts: list[Post],
    vote_post: bool,
    user=None,
    once: Once | None = None,
    seen: str | None = None,
) -> BulkResult:
    """Store every kept post as its own message, in forum order, under one game lock; one token for the whole batch.
    The skips are decided again under the lock, so a post stored meanwhile is skipped, never stored twice. `seen`
    (the preview's digest, or "" when none was shown) refuses a batch whose outcome differs from what the 天神 saw,
    as inputs.write does for one message. Its preview is this write, rolled back (`bulk_preview`)."""
    game = base.game_lock(game)
    spend(game, once, "批量录入")
    phase = storage.require_open_phase(game)
    rows = rows_triage(game=game, phase=phase, posts=posts)
    before = storage.game_replay(game)
    stored = []
    for row in _forum_order(rows):
        message, items, _ = intake.pm_confirm(
            game,
            intake.Pasted(
                seat=row.sender, text=row.post.body, forum_at=row.at, vote_post=vote_post, edited=row.post.edited
            ),
            user=user,
        )
        stored.append((row, message, items))
    outcome = _outcome(game, phase, before, stored)
    verdicts.check_seen(outcome, seen)
    result = BulkResult(stored, [r for r in rows if not r.kept], outcome)
    detail = {"messages": [m.pk for _, m, _ in stored], "skipped": [[r.post.author, r.skip] for r in result.skipped]}
    audit.record(game, user, AuditLog.Action.BULK_ENTER, detail)
    return result


def _outcome(game: Game, phase: Phase, before: storage.Replay, stored: list) -> verdicts.EntryOutcome:
    """The batch's verdicts, and the inputs entered before it whose verdict it changed (only an out-of-order post
    can change one: a later input never changes an earlier one's verdict)."""
    judged = [i for _, _, items in stored for i in items]
    shown = _shown([(row, message.parsed["refusals"], items) for row, message, items in stored])
    later = max((verdicts.later_inputs(before, phase, row.at) for row, _, _ in stored), default=0)
    if not later:
        return verdicts.EntryOutcome(judged, **shown)
    after = storage.game_replay(game)
    changes = verdicts.verdict_changes(before, after, phase.pk)
    return verdicts.EntryOutcome(judged, changes, later, **shown)
