"""Closing a day: the weighted count and what follows (D1–D8, N11, N13, N14, M1, V5, O3, T7, V1–V4).

tally → executions → losses (executions, 圣人, day 绝杀: D8) → carry-overs → deaths → windows → silence → victory.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from moderator.game.settle import Close, complete_transformations, deaths, silence, victory, windows
from moderator.game.state import Amoeba, Arson, GameState, PendingExecution, evolve
from moderator.game.trace import Tracer, names

MODIFIERS = ("诅咒", "恶毒诅咒", "庇佑", "虔诚庇佑")


@dataclass
class Day(Close):
    ballots: dict[str, tuple[str, int]] = field(default_factory=dict)  # voter -> (target, weight)


def modify(total: int, uses: list[str]) -> int:
    """N13: all ×2 first, then all ÷2 (odd: subtract 1 first), then +1 per 诅咒 and −1 per 庇佑; never below 0."""
    for _ in range(uses.count("恶毒诅咒")):
        total *= 2
    for _ in range(uses.count("虔诚庇佑")):
        total //= 2
    total += uses.count("诅咒") - uses.count("庇佑")
    return max(total, 0)


_NO_FORM = Amoeba()
STEP = {"恶毒诅咒": ("×2", lambda t: t * 2), "虔诚庇佑": ("÷2", lambda t: t // 2), "诅咒": ("+1", lambda t: t + 1)}
STEP["庇佑"] = ("−1", lambda t: t - 1)


def modify_said(total: int, mods: list[tuple[str, str]]) -> str:
    """N13 as arithmetic, in the order `modify` applies it, each step with who sent it:
    "9 ×2(甲 恶毒诅咒)= 18 → ÷2(乙 虔诚庇佑)= 9 → +1(丙 诅咒)= 10"."""
    parts = [str(total)]
    for use in ("恶毒诅咒", "虔诚庇佑", "诅咒", "庇佑"):
        sign, apply = STEP[use]
        for _, by in [m for m in mods if m[0] == use]:
            total = apply(total)
            parts.append(f"{sign}({by} {use})= {total}")
    said = " → ".join([f"{parts[0]} {parts[1]}", *parts[2:]]) if len(parts) > 1 else parts[0]
    return said + (" → 不低于 0:0" if total < 0 else "")


def tally(d: Day) -> None:
    """D1, D2, D4: every living player with a vote votes (no post = for themself), weighted by the cards they hold at
    the close (a day 绝杀 loss is taken after the count, N11); then the vote modifiers of last night and today.
    D4 ruling: only the living are counted — a modifier on a player who died since it was sent lapses."""
    state = d.state
    tr = d.trace
    living = {s.name for s in state.alive}
    for seat in state.alive:
        if seat.name in state.saved:
            if tr is not None:
                tr("D1", f"投票:{seat.name}昨夜被救活,今天没有投票权(N7/N8)", (seat.name,))
            continue  # N7/N8: saved last night, no vote
        vote = state.votes.get(seat.name)
        d.ballots[seat.name] = (vote.target if vote else seat.name, len(seat.hand))
        if tr is not None:
            counts = f"{len(seat.hand)} 票(手中 {len(seat.hand)} 张牌,D2)"
            if vote is None:
                tr("D1", f"投票:{seat.name}没有投票,视为投给自己,{counts}", (seat.name,))
            else:
                how = "(改票后)" if vote.changed else ""
                tr("D2", f"投票:{seat.name}投给{vote.target}{how},{counts}", (seat.name, vote.target))
    totals: dict[str, int] = defaultdict(int)
    for target, weight in d.ballots.values():
        totals[target] += weight
    uses: dict[str, list[str]] = defaultdict(list)
    senders: dict[str, list[tuple[str, str]]] = defaultdict(list)  # for the trace: (use, who sent it)
    for use, target, *by in state.next_day_modifiers:
        uses[target].append(use)
        senders[target].append((use, by[0] if by else "?"))
    for a in state.actions:
        if a.use in MODIFIERS and a.target:
            uses[a.target].append(a.use)
            senders[a.target].append((a.use, a.by))
    for name in (s.name for s in state.seats):  # seat order, never a set's (its order changes with PYTHONHASHSEED)
        if name not in living or (name not in totals and name not in uses):
            if tr is not None and name in uses and name not in living:
                tr("D4", f"修正:{name}已经死亡,对他的{'、'.join(uses[name])}失效", (name,))
            continue
        total = modify(totals[name], uses[name])
        if total:
            d.tally[name] = total
        if tr is not None:
            voters = [v for v, (t, _) in d.ballots.items() if t == name]
            if uses[name]:
                tr(
                    "N13",
                    f"修正:{name}得票 {modify_said(totals[name], senders[name])} 票",
                    (name,),
                )
            tr("D4", f"计票:{name}共 {total} 票(投他的:{names(voters)})", (name, *voters))
    d.events.append({"type": "tally", "tally": dict(d.tally), "ballots": {k: list(v) for k, v in d.ballots.items()}})


def day_executions(d: Day) -> None:
    """D5: everyone whose total is at least the second-highest (ties included); with two players alive only a unique
    top total; 0 is never executed."""
    ranked = sorted(d.tally.values(), reverse=True)
    tr = d.trace
    if not ranked:
        if tr is not None:
            tr("D5", "处决:所有人都是 0 票,今天没有人被处决")
        return
    if len(d.state.alive) == 2:
        top = [n for n, t in d.tally.items() if t == ranked[0]]
        chosen = top if len(top) == 1 else []
        if tr is not None:
            rule = f"最高 {ranked[0]} 票" + (f"只有一人:{chosen[0]}" if chosen else f"并列({names(top)}),没有人被处决")
            tr("D5", f"处决:只剩两人时只处决唯一的最高票;{rule}", tuple(top))
    else:
        bar = ranked[1] if len(ranked) > 1 else ranked[0]
        chosen = [n for n, t in d.tally.items() if t >= bar]
        if tr is not None:
            tie = "(有并列,并列的都算)" if len(ranked) > 1 and ranked.count(bar) + (ranked[0] == bar) > 1 else ""
            tr(
                "D5",
                (
                    f"处决:票数从高到低 {'/'.join(map(str, ranked))};第二高是 {bar} 票,"
                    if len(ranked) > 1
                    else f"处决:只有一人得票({bar} 票),"
                )
                + f"得票不少于 {bar} 票的都被处决{tie}:{names(chosen)}",
                tuple(chosen),
            )
    order = [s.name for s in d.state.seats]
    d.executed = sorted(chosen, key=order.index)
    d.events.append({"type": "executed", "players": list(d.executed)})


def day_losses(d: Day) -> None:
    """D8: each executed player's first card (D6; 保镖 no help, B4), then 圣人 voters (D7, N14), then day 绝杀 in the
    order sent (N11). An executed card that could still be pardoned leaves the hand now and is announced at the end of
    the next night; one that cannot (pardoned before, or their 圣人 took effect) is announced now."""
    state = d.state
    saints = [n for n in d.executed if n in state.saints_armed]
    for name in d.executed:
        seat = d.state.seat(name)
        if not seat.hand:
            continue
        card = seat.hand[0]
        if d.trace is not None:
            why = (
                "圣人生效,不能被特赦(N14)"
                if name in saints
                else ("已被特赦过一次,不能再被特赦" if seat.pardoned_once else "今夜可被特赦,牌型在天亮时公布")
            )
            guards = [c for c in seat.hand if c.name == "保镖" or seat.amoebas.get(c.uid, _NO_FORM).form == "保镖"]
            guard = "(他的保镖挡不住处决,B4)" if guards else ""
            d.trace("D6", f"处决:{name}丢掉丢牌顺序第一张 {card.name}{guard};{why}", (name,))
        if name in saints or seat.pardoned_once:
            d.take(name, card, "处决")
        else:
            d.take(name, card, "处决", announce=False)
            d.state = evolve(
                d.state, pending_executions={**d.state.pending_executions, name: PendingExecution(card, 0)}
            )
    for saint in saints:
        d.state = d.state.with_seat(evolve(d.state.seat(saint), saint_done=True))
        d.events.append({"type": "saint", "player": saint})
        if d.trace is not None:
            voters = [v for v, (t, _) in d.ballots.items() if t == saint and v != saint]
            d.trace("D7", f"圣人:{saint}的圣人生效,投票处决他的 {names(voters)} 各丢一张牌(N14)", (saint, *voters))
        for voter, (target, _) in d.ballots.items():
            if target == saint and voter != saint and d.state.seat(voter).hand:
                d.take(voter, d.state.seat(voter).hand[0], "圣人")
    d.state = evolve(d.state, unpardonable=frozenset(saints))
    for a in state.actions:
        if a.use == "绝杀" and a.target and d.state.seat(a.target).hand:
            if d.trace is not None:
                d.trace("N11", f"绝杀:{a.by}绝杀 {a.target},计票之后丢第一张牌(D8)", (a.by, a.target))
            d.take(a.target, d.state.seat(a.target).hand[0], "绝杀")


def day_carry_overs(d: Day) -> None:
    """N14: today's arsons take effect at the start of the next day; M1: transformations due today are done; last
    night's modifiers, saved players and 圣人 are spent."""
    arsons = tuple(
        Arson(a.by, a.target or "", d.state.phase, card=a.card or "") for a in d.state.actions if a.use == "纵火"
    )
    if d.trace is not None:
        for arson in arsons:
            d.trace("N14", f"纵火:{arson.by}纵火 {arson.target},明天开始时生效", (arson.by, arson.target))
    d.state = evolve(
        complete_transformations(d.state, d.trace),
        arsons=d.state.arsons + arsons,
        next_day_modifiers=(),
        saved=frozenset(),
        saints_armed=frozenset(),
    )


def close_day(state: GameState, trace: Tracer | None = None) -> Day:
    d = Day(state=state, trace=trace)
    tally(d)
    day_executions(d)
    day_losses(d)
    day_carry_overs(d)
    deaths(d, day=True)
    windows(d)
    silence(d)
    victory(d)
    return d
