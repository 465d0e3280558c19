"""Closing a night: the published pipeline (N1–N14, B1–B6, M1, D6, V5, O3, T7, V1–V4).

imprisonments → protections → catches → attacks → pardons → losses → executions → transformations → carry-overs →
deaths → windows → silence → victory. Each step reads and writes the `Night` record; events are emitted as the state
settles and rendered into the dawn post by the announcement templates (A2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cards.catalogue import privilege
from moderator.rules.ledger import guards
from moderator.rules.settle import Close, card_type, deaths, silence, victory, windows
from moderator.rules.state import DAY, NIGHT, Action, Arson, Card, GameState, evolve
from nights import bodyguard
from nights.arson import due_phase

NORMAL = ("普通攻击", "普通狙击")
BINDINGS = {"束魂": ("杀手", "狙击手"), "治疗": ("狼人", "狙击手")}  # N7, N8: the card types each one catches
FAILURE_KIND = {"束魂": "束魂失败", "治疗": "巫医失败"}
NEVER_IMPRISONED = ("绝杀", "变形", "禁锢")  # N10 (保镖 is automatic)


def _kind(act: Action) -> str:
    """B1: the kind of an attack for the 保镖."""
    if act.use == "普通攻击":
        return f"{act.form}普通攻击"
    if act.use == "一击必杀":
        return f"{act.form}一击必杀"
    return act.use  # 普通狙击, 瞄准狙击


@dataclass
class Night(Close):
    prisoners: set[str] = field(default_factory=set)
    one_hit: set[tuple[str, str | None]] = field(default_factory=set)  # (player, card) sources using 一击必杀
    void: set[int] = field(default_factory=set)  # seq of voided actions
    vests: set[str] = field(default_factory=set)
    venoms: set[str] = field(default_factory=set)
    anti_sniper: bool = False
    caught: set[tuple[str, str | None]] = field(default_factory=set)  # sources whose normal attacks are void
    failures: list[tuple[str, str]] = field(default_factory=list)  # (target, kind) two-night failures
    pardoned: set[str] = field(default_factory=set)

    def live(self, *uses: str) -> list[Action]:
        return [a for a in self.state.actions if a.seq not in self.void and (not uses or a.use in uses)]


def imprisonments(n: Night) -> None:
    """N10: every 禁锢 holds (禁锢 does not stop 禁锢; mutual imprisonment imprisons both). A prisoner's 1–2 AP
    privileges of the night are void, 纵火 always; 3+ AP ones, 绝杀, 变形 and 禁锢 are not; nor the normal attacks of a
    card that used 一击必杀 tonight (N2/N4)."""
    acts = n.state.actions
    n.prisoners = {a.target for a in acts if a.use == "禁锢" and a.target}
    n.one_hit = {(a.by, a.card) for a in acts if a.use == "一击必杀"}
    for a in acts:
        if a.by not in n.prisoners or a.use in NEVER_IMPRISONED or a.use == "立场":
            continue
        if a.use == "普通攻击" and (a.by, a.card) in n.one_hit:
            continue
        priv = privilege(a.form or "", a.use)
        base = priv.cost if priv and priv.cost is not None else 0
        if a.use == "纵火" or 1 <= base <= 2:
            n.void.add(a.seq)
    if n.prisoners:
        n.events.append({"type": "imprisoned", "players": sorted(n.prisoners)})


def protections(n: Night) -> None:
    """N9, N10: 防弹衣 and 狼毒 protect their user tonight; one 反狙击 voids every 普通狙击 of the night."""
    n.vests = {a.by for a in n.live("防弹衣")}
    n.venoms = {a.by for a in n.live("狼毒")}
    n.anti_sniper = bool(n.live("反狙击"))


def catches(n: Night) -> None:
    """N7/N8: a binding (healing) on a player whom a 杀手/狙击手 (狼人/狙击手) card normal-attacks tonight saves them
    and voids every normal attack of that source; a submitted attack counts even if void for another reason. The same
    binder on the same target two nights running with no attack of those cards on it costs the target a card."""
    attacks_on: dict[str, list[Action]] = {}
    for a in n.state.actions:
        if a.use in ("普通攻击", "一击必杀", "普通狙击", "瞄准狙击"):
            attacks_on.setdefault(a.target or "", []).append(a)
    streaks: dict[tuple[str, str, str], int] = {}
    for b in n.live("束魂", "治疗"):
        assert b.target is not None
        on_target = [a for a in attacks_on.get(b.target, []) if a.form in BINDINGS[b.use]]
        stoppable = {(a.by, a.card) for a in on_target if a.use in NORMAL and (a.by, a.card) not in n.one_hit}
        if stoppable:
            n.caught |= stoppable
            if b.target not in n.saved:
                n.saved.append(b.target)
        key = (b.by, b.use, b.target)
        if key in streaks:  # two bindings in one night by one binder count once
            continue
        if on_target:
            streaks[key] = 0
            continue
        nights = n.state.streaks.get(key, 0) + 1
        if nights >= 2:
            n.failures.append((b.target, FAILURE_KIND[b.use]))
            nights = 0  # ruling: after a penalty the streak restarts
        streaks[key] = nights
    n.state = evolve(n.state, streaks={k: v for k, v in streaks.items() if v})


def _stopped(n: Night, a: Action) -> bool:
    if a.use not in NORMAL or (a.by, a.card) in n.one_hit:
        return False  # N2/N4/N6: 一击必杀, 瞄准狙击 and the normal attacks of a 一击必杀 card are unstoppable
    if (a.by, a.card) in n.caught:
        return True
    if a.form in ("杀手", "狙击手") and a.target in n.vests:
        return True
    if a.form in ("狼人", "狙击手") and a.target in n.venoms:
        return True
    return a.use == "普通狙击" and n.anti_sniper


def attacks(n: Night) -> dict[str, list[bodyguard.Hit]]:
    hits: dict[str, list[bodyguard.Hit]] = {}
    for a in n.live("普通攻击", "一击必杀", "普通狙击", "瞄准狙击"):
        if _stopped(n, a):
            n.void.add(a.seq)
        else:
            hits.setdefault(a.target or "", []).append(bodyguard.Hit(_kind(a), a.aimed_uid, a.seq))
    for target, kind in n.failures:
        hits.setdefault(target, []).append(bodyguard.Hit(kind, None, -1))
    for a in n.live("绝杀"):
        hits.setdefault(a.target or "", []).append(bodyguard.Hit(bodyguard.DOOM, None, a.seq))
    return hits


def pardons(n: Night) -> None:
    """N12: one successful pardon per player (a second one costs its AP and its right, and does nothing)."""
    for a in n.live("特赦"):
        target = a.target or ""
        seat = n.state.seat(target)
        if target in n.pardoned or seat.pardoned_once or target not in n.state.pending_executions:
            continue
        n.pardoned.add(target)
        n.state = n.state.with_seat(evolve(seat, pardoned_once=True))
        n.events.append({"type": "pardon", "player": target})


def standing_in(guard_uids: frozenset[int]) -> Callable[[Card], bool]:
    return lambda card: card.uid in guard_uids


def losses(n: Night, hits: dict[str, list[bodyguard.Hit]]) -> None:
    """B1–B5: for each target, the order of the night's hits that takes the most cards."""
    for seat in n.state.seats:
        if seat.name not in hits or not seat.alive:
            continue
        standing = frozenset(guards(seat))
        taken = bodyguard.resolve(seat.hand, hits[seat.name], standing_in(standing))
        for card, hit in taken:
            cause = {"束魂失败": "束魂", "巫医失败": "巫医", bodyguard.DOOM: "绝杀"}.get(hit.kind, "攻击")
            n.take(seat.name, card, cause)


def executions(n: Night) -> set[str]:
    """D6, N12: yesterday's executed cards: a pardoned one goes back in its old place; the others are announced now."""
    announced = set()
    for name, pending in n.state.pending_executions.items():
        seat = n.state.seat(name)
        if name in n.pardoned:
            hand = list(seat.hand)
            hand.insert(min(pending.index, len(hand)), pending.card)
            n.state = n.state.with_seat(evolve(seat, hand=tuple(hand)))
            continue
        n.announced += 1
        announced.add(name)
        n.events.append({"type": "execution_card", "player": name, "card_type": card_type(pending.card)})
    n.state = evolve(n.state, pending_executions={}, unpardonable=frozenset())
    return announced


def transformations(n: Night) -> None:
    """M1: a transformation ordered last night (or the day before yesterday) is done at the end of this phase."""
    n.state = complete_transformations(n.state)


def complete_transformations(state: GameState) -> GameState:
    for seat in state.seats:
        done = {
            uid: evolve(a, form=a.pending, spent=0, pending=None, done_at=None)
            for uid, a in seat.amoebas.items()
            if a.pending and a.done_at == state.phase
        }
        if done:
            state = state.with_seat(evolve(seat, amoebas={**seat.amoebas, **done}))
    return state


def carry_overs(n: Night) -> None:
    """What tonight leaves for later: 圣人 for tomorrow's vote (N14), vote modifiers for tomorrow's count (N13),
    arsons for the next night (N14: blocked if the arsonist is imprisoned tonight), the saved players' lost vote."""
    live = n.live()
    arsons = tuple(
        Arson(a.by, a.target or "", n.state.phase, blocked=a.by in n.prisoners, card=a.card or "")
        for a in n.state.actions
        if a.use == "纵火"
    )
    n.state = evolve(
        n.state,
        saints_armed=frozenset(a.by for a in live if a.use == "圣人"),
        next_day_modifiers=tuple(
            (a.use, a.target or "") for a in live if a.use in ("诅咒", "恶毒诅咒", "庇佑", "虔诚庇佑")
        ),
        arsons=n.state.arsons + arsons,
        saved=frozenset(n.saved),
        bottoms_fixed=True,  # O2: the first 24 hours are over
    )
    for name in n.saved:
        n.events.append({"type": "saved", "player": name})
    manifestos = [
        a.manifesto
        for a in n.state.actions
        if a.manifesto and a.use in ("普通攻击", "一击必杀", "普通狙击", "瞄准狙击")
    ]
    for text in manifestos:
        n.events.append({"type": "manifesto", "text": text})


def close_night(state: GameState) -> Night:
    n = Night(state=state)
    imprisonments(n)
    protections(n)
    catches(n)
    hits = attacks(n)
    pardons(n)
    losses(n, hits)
    executed = executions(n)
    transformations(n)
    carry_overs(n)
    deaths(n, day=False, executed_last=executed - set(n.lost))  # V5: the night took nothing else from them
    windows(n)
    silence(n)
    victory(n)
    return n


__all__ = ["DAY", "NIGHT", "close_night", "complete_transformations", "due_phase"]
