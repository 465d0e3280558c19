"""Services for setting a table up (S1–S5, O1, O2): verbs on nouns, keyword-only, one transaction each.

Views, admin actions, commands and tasks call these; the rules themselves live in pure modules (cards.dealing …).
"""

from __future__ import annotations

import random
import secrets
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import cast

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from cards.catalogue import (
    CAMP_KILLER,
    CAMP_SELF,
    CAMP_WEREWOLF,
    CAMPS,
    DEFAULT_CAMPS,
    DEFAULT_HAND_SIZE,
    SEATS_MAX,
    standard_deck,
)
from cards.dealing import DealError, check_hands, deal
from moderator.game.state import next_phase
from moderator.models import Announcement, AuditLog, Game, Phase, Seat, SeatHolder, phase_label
from moderator.parser.text import to_simplified
from moderator.selectors import has_open_phase, open_phase_of
from moderator.services import announce, audit, base, clock, storage
from moderator.services import once as one_time
from moderator.services.once import spend
from moderator.services.preview import rolled_back
from moderator.services.seats import seat_token_rotate


class SetupError(ValueError):
    """A refused setup request; the message (Chinese) says what was wrong and what would be accepted."""


SEED_BITS = 128
NAME_MAX = cast(int, Seat._meta.get_field("player_name").max_length)  # a CharField: its max_length is set


def _seed() -> str:
    """A seed decides secrets (camps, hands, default orders): 128 bits from the OS's CSPRNG, so that no player can
    find it by trying seeds against their own hand. Stored as decimal digits (it does not fit a 64-bit column)."""
    return str(secrets.randbits(SEED_BITS))


def _recorded(seed: int | str | None) -> str | None:
    """A given seed (a test, a replay), as the column stores it: decimal digits."""
    if seed is None:
        return None
    text = str(seed).strip()
    if not text.isascii() or not text.isdigit() or len(text) > 40:
        raise SetupError("随机种子必须是不超过 40 位的非负整数")
    return text


def name_key(name: str) -> str:
    """Two forum IDs that read alike are one name: NFKC (full-width, styled letters), case-folded, 繁→简."""
    return to_simplified(unicodedata.normalize("NFKC", name)).casefold()


def name_check(name: str) -> None:
    """A forum ID the forms accept: no invisible (format, control, private-use) characters, at most NAME_MAX long."""
    _check_name(name)


def _check_name(name: str) -> None:
    hidden = [c for c in name if unicodedata.category(c) in ("Cf", "Cc", "Co", "Cs")]
    if hidden:
        codes = "、".join(f"U+{ord(c):04X}" for c in dict.fromkeys(hidden))
        raise SetupError(f"论坛ID“{name}”含有看不见的字符(零宽或改变文字方向的字符:{codes}),请删掉后再填")
    if len(name) > NAME_MAX:
        raise SetupError(f"论坛ID最长 {NAME_MAX} 个字:“{name[:20]}…”太长")


def _clean_names(player_names: Sequence[str]) -> list[str]:
    """The seats' forum IDs, each checked once (one pass over the names for duplicates and look-alikes)."""
    names = [n.strip() for n in player_names if n.strip()]
    if len(names) > SEATS_MAX:
        raise SetupError(f"一局最多 {SEATS_MAX} 名玩家(标准局 7 人),现在填了 {len(names)} 个论坛ID")
    for name in names:
        _check_name(name)
    dupes = sorted(n for n, k in Counter(names).items() if k > 1)
    if dupes:
        raise SetupError(f"玩家论坛ID重复:{'、'.join(dupes)}")
    seen: dict[str, str] = {}
    for name in names:
        if name_key(name) in seen:
            raise SetupError(f"“{seen[name_key(name)]}”和“{name}”看起来是同一个ID(全角/大小写/繁简不同),请区分清楚")
        seen[name_key(name)] = name
    return names


def _check_camps(camps: Sequence[str]) -> None:
    """S1 for camps entered by hand: one 杀手, one 狼人, at most one 自选, the rest 平民."""
    count = Counter(camps)
    if count[CAMP_KILLER] != 1 or count[CAMP_WEREWOLF] != 1 or count[CAMP_SELF] > 1:
        got = "、".join(f"{camp} {n} 人" for camp, n in count.items())
        raise SetupError(f"阵营不符合 S1:需要正好 1 个杀手、1 个狼人,最多 1 个自选,其余平民;现在是 {got}")


def table_check(
    *,
    names: Sequence[str],
    camps: Sequence[str],
    hands: Sequence[Sequence[str]],
    deck: Sequence[str],
    hand_size: int,
    mid_game: bool = False,
) -> None:
    """What the new-game form checks, for a table that arrives whole (an import): the forum IDs (count,
    invisible characters, length, duplicates and look-alikes), S1 camps entered by hand, S3 hands (of a table taken
    over mid-way — hands in discard order — only what no loss can undo: cards.dealing.check_hands)."""
    if [n.strip() for n in names if n.strip()] != list(names):
        raise SetupError("论坛ID不能为空,前后不能有空格")
    _clean_names(names)
    _check_camps(camps)
    bad_size = [i for i, h in enumerate(hands, start=1) if len(h) > hand_size or (len(h) != hand_size and not mid_game)]
    if bad_size:
        raise SetupError(f"每人必须正好 {hand_size} 张牌:{'、'.join(map(str, bad_size))} 号座位不对")
    problems = check_hands(camps, hands, deck, mid_game=mid_game)
    if problems:
        raise SetupError(";".join(problems))


@transaction.atomic
def game_create(
    *,
    name: str,
    player_names: Sequence[str],
    camps: Sequence[str] | None = None,
    camp_seed: int | str | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    deal_seed: int | str | None = None,
    order_seed: int | str | None = None,
    hand_size: int = DEFAULT_HAND_SIZE,
    deck: Sequence[str] | None = None,
    phase_seconds: int | None = None,
    gm=None,
    once=None,
    self_entry: bool = False,
) -> Game:
    """S1–S3: seat the players, give out camps (by hand, or at random with a recorded seed) and deal (by hand,
    validated against S3, or with a recorded seed). Seeds are drawn here; a given seed is for tests and replays.
    `once`: the form's one-time token — a repeated submit makes nothing and names the game the first one made."""

    one_time.spend_create(once, "新建游戏")
    names = _clean_names(player_names)
    camp_seed, deal_seed, order_seed = _recorded(camp_seed), _recorded(deal_seed), _recorded(order_seed)
    deck = list(deck) if deck is not None else standard_deck()
    if camps is None:
        camp_seed = _seed() if camp_seed is None else camp_seed
        camps = _default_camps(len(names), int(camp_seed))
    else:
        camp_seed = None
        camps = [c.strip() for c in camps]
        unknown = sorted({c for c in camps if c not in CAMPS})
        if unknown or len(camps) != len(names):
            raise SetupError(
                f"阵营必须每人一个,可选:{'、'.join(CAMPS)}" + (f";不认识:{'、'.join(unknown)}" if unknown else "")
            )
        _check_camps(camps)
    if hands is None:
        deal_seed = _seed() if deal_seed is None else deal_seed
        try:
            dealt = deal(camps, deck, hand_size, int(deal_seed))
        except DealError as exc:
            raise SetupError(str(exc)) from exc
        hands, left_out = dealt.hands, list(dealt.left_out)
    else:
        deal_seed = None
        hands = [list(h) for h in hands]
        bad_size = [i + 1 for i, h in enumerate(hands) if len(h) != hand_size]
        if len(hands) != len(names) or bad_size:
            raise SetupError(f"每人必须正好 {hand_size} 张牌" + (f":{bad_size} 号座位不对" if bad_size else ""))
        problems = check_hands(camps, hands, deck)
        if problems:
            raise SetupError(";".join(problems))
        left_out = list((Counter(deck) - Counter(c for h in hands for c in h)).elements())
    game = Game.objects.create(
        name=name.strip() or "神探狄仁杰",
        seats_count=len(names),
        hand_size=hand_size,
        deck=deck,
        left_out=left_out,
        camp_seed=camp_seed,
        deal_seed=deal_seed,
        order_seed=_seed() if order_seed is None else order_seed,
        phase_seconds=phase_seconds or settings.PHASE_SECONDS,
        self_entry=self_entry,  # players enter their own inputs on their private page
    )
    if gm is not None:
        game.gms.add(gm)
    for number, (player, camp, hand) in enumerate(zip(names, camps, hands, strict=True), start=1):
        Seat.objects.create(game=game, number=number, player_name=player, camp=camp, dealt_hand=list(hand))
    audit.record(
        game, gm, AuditLog.Action.GAME_CREATE, {"name": game.name, "seats": len(names), "self_entry": self_entry}
    )
    one_time.made(once, game)
    return game


def _default_camps(n: int, seed: int) -> list[str]:
    """S1: 1 杀手, 1 狼人, 1 自选, the rest 平民, seated at random (recorded seed)."""
    if n < 3:
        raise SetupError("至少需要 3 名玩家(杀手、狼人、自选立场者)")
    camps = list(DEFAULT_CAMPS[:2]) + ["平民"] * (n - 3) + [DEFAULT_CAMPS[-1]]
    random.Random(seed).shuffle(camps)
    return camps


@transaction.atomic
def game_start(*, game: Game, at: datetime, once=None, actor=None) -> Phase:
    """T1: night 1 starts when the player list is posted; the phase lasts the game's phase length. `actor`: the 天神
    who posted it from the console, written to the audit log with the phases the start closes at once (a table a
    scenario, a command or a benchmark starts has no audit row)."""

    game = Game.objects.select_for_update().get(pk=game.pk)
    spend(game, once, "开始游戏")
    if game.status != Game.Status.SETUP:
        raise SetupError("游戏已经开始了")
    game.status, game.started_at = Game.Status.RUNNING, at
    game.save(update_fields=["status", "started_at"])
    for seat in game.seats.all():
        SeatHolder.objects.create(seat=seat, player_name=seat.player_name, since=at, reason="开局")
    if actor is not None:
        closing = start_closes_at_once(game, at, timezone.now())
        audit.record(
            game, actor, AuditLog.Action.GAME_START, {"at": str(at), **({"closed_at_once": closing} if closing else {})}
        )
    return Phase.objects.create(
        game=game,
        kind=game.start_kind,
        number=game.start_number,
        starts_at=at,
        ends_at=at + timedelta(seconds=game.phase_seconds),
    )


def start_closes_at_once(game: Game, at: datetime, now: datetime, limit: int = 200) -> list[str]:
    """T1: the phases a start at `at` would close as soon as the clock sees them — every one whose end is already
    past at `now` (night 1 from `at`, then day 1, night 2, … each the game's phase length). The console asks the 天神
    to confirm a start that closes any (a start time more than a phase in the past), naming them."""

    kind, number, starts, length = game.start_kind, game.start_number, at, timedelta(seconds=game.phase_seconds)
    closing: list[str] = []
    while starts + length <= now and len(closing) < limit:
        closing.append(phase_label(kind, number))
        kind, number = next_phase(kind, number)
        starts += length
    return closing


@transaction.atomic
def table_create(
    *, name: str, players: Sequence[dict], ap: dict | None = None, start: tuple[str, int] = ("night", 1)
) -> Game:
    """A table entered in discard order (a scenario, or a game taken over mid-way): any hands, O2 still holds."""
    game = Game.objects.create(
        name=name,
        seats_count=len(players),
        hand_size=max((len(p["hand"]) for p in players), default=0),
        deck=[c for p in players for c in p["hand"]],
        order_seed=_seed(),
        phase_seconds=24 * 3600,
        start_kind=start[0],
        start_number=start[1],
        initial_ap=dict(ap or {}),
        hands_are_orders=True,
    )
    for number, p in enumerate(players, start=1):
        Seat.objects.create(game=game, number=number, player_name=p["name"], camp=p["camp"], dealt_hand=list(p["hand"]))
    return game


@transaction.atomic
def seat_substitute(
    *, seat: Seat, player_name: str, at: datetime, actor=None, once=None, link_base: str = ""
) -> SeatHolder:
    """S5/T4: a substitute takes the seat over (hand, order, AP and history stay with the seat) and the current phase
    is extended by 12 hours (交替期) — the extension is logged like any other. The replaced player's private link
    stops working (a new one is made); the handover PM (with the new link), the public notice and, on an open day, a
    vote post with the new name and deadline are drafted."""

    spend(base.game_lock(seat.game), once, "替补")  # the one lock order: the game row first
    seat = Seat.objects.select_for_update().get(pk=seat.pk)
    player_name = player_name.strip()
    if not player_name:
        raise SetupError("请填写替补的论坛ID")
    _check_name(player_name)
    others = seat.game.seats.exclude(pk=seat.pk).values_list("player_name", flat=True)
    alike = next((n for n in others if name_key(n) == name_key(player_name)), None)
    if alike is not None:
        raise SetupError(
            f"“{player_name}”已经在这局游戏里了" + (f"(与“{alike}”看起来相同)" if alike != player_name else "")
        )
    if seat.game.status == Game.Status.FINISHED:
        raise SetupError("这局游戏已经结束,不能再替补")
    old = seat.player_name
    seat.player_name = player_name
    seat.save(update_fields=["player_name"])
    holder = SeatHolder.objects.create(seat=seat, player_name=player_name, since=at, reason="替补")
    detail = {"seat": seat.number, "new": player_name, "old": old}
    audit.record(seat.game, actor, AuditLog.Action.SUBSTITUTE, detail)
    seat.token = seat_token_rotate(seat=seat, actor=actor).token  # the replaced player's link must not show the hand
    if seat.game.phases.exists():
        storage.snapshots_rebuild(seat.game)  # the stored states name the seat's holder: write them with the new name
    if has_open_phase(seat.game):
        clock.phase_extend(
            game=seat.game,
            by=clock.SUBSTITUTION_EXTENSION,
            actor=actor,
            reason=f"替补:{player_name} 接替 {old}(T4)",
            notice=False,  # the substitution's own notice names the 交替期 and the new deadline
        )
    game = seat.game
    if game.phases.exists():
        phase = game.phases.order_by("-starts_at", "-id").first()
        state = storage.game_replay(game).state
        link = seat_link(seat, link_base) if link_base else ""
        announce.substitution_drafts(game=game, seat=seat, old=old, state=state, phase=phase, link=link)
    return holder


@dataclass
class SubstitutionPreview:
    """What a substitution would change, shown before it is saved: who takes which seat, the open phase's end before
    and after (T4), and every draft it would write (title, text)."""

    number: int
    old: str
    new: str
    phase: str = ""
    ends_before: datetime | None = None
    ends_after: datetime | None = None
    paused: tuple[str, str] | None = None  # a paused game: the time left before and after (the clock is stopped)
    drafts: list[tuple[str, str]] = field(default_factory=list)


def _left(left: timedelta) -> str:
    minutes = int(left.total_seconds() // 60)
    return f"{minutes // 60} 小时 {minutes % 60} 分"


def substitute_preview(*, seat: Seat, player_name: str, at: datetime, link_base: str = "") -> SubstitutionPreview:
    """The substitution itself, rolled back (nothing is stored, no link changes): what the 天神 sees before the
    confirm. The handover PM's new private link is not shown: the confirm makes a different one."""

    def substituted() -> SubstitutionPreview:
        last = Announcement.objects.filter(game=seat.game).order_by("-id").values_list("id", flat=True).first()
        phase = open_phase_of(seat.game)
        old = seat.player_name
        seat_substitute(seat=seat, player_name=player_name, at=at, link_base=link_base)
        fresh = Seat.objects.get(pk=seat.pk)
        preview = SubstitutionPreview(fresh.number, old, fresh.player_name)
        if phase is not None:
            after = Phase.objects.get(pk=phase.pk)
            preview.phase, preview.ends_before, preview.ends_after = phase.label, phase.ends_at, after.ends_at
            if phase.paused_remaining is not None and after.paused_remaining is not None:
                preview.paused = (_left(phase.paused_remaining), _left(after.paused_remaining))
        made = Announcement.objects.filter(game=seat.game, id__gt=last or 0).order_by("id")
        preview.drafts = [(a.title, a.text.replace(fresh.token, "〔确认后生成的新链接〕")) for a in made]
        return preview

    return rolled_back(substituted)


@transaction.atomic
def seat_link_rotate(*, game: Game, seat_id: int, actor=None, once=None) -> Seat:
    """A new private link for one seat (the old one stops working at once), from the console."""

    game = base.game_lock(game)
    spend(game, once, "更换私人链接")
    seat = game.seats.filter(pk=seat_id).first()
    if seat is None:
        raise SetupError("没有这个座位")
    return seat_token_rotate(seat=seat, actor=actor)


def player_list_post(game: Game) -> str:
    """A5/T1: the 《游戏者名单》 post, BBCode, camps and hands hidden."""
    return render_to_string("announcements/player_list.bbcode", {"game": game, "seats": game.seats.all()}).strip()


def deal_pm(seat: Seat, link: str = "") -> str:
    """A5: the private deal message for one seat (camp + hand, and its private link when given), BBCode."""
    template = "announcements/deal_pm_link.bbcode" if link else "announcements/deal_pm.bbcode"
    return render_to_string(template, {"seat": seat, "game": seat.game, "link": link}).strip()


def seat_link(seat: Seat, base: str) -> str:
    """The absolute private link of a seat (base: the site's address, e.g. request.build_absolute_uri('/'))."""
    return f"{base.rstrip('/')}/p/{seat.token}/"
