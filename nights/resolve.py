"""Closing a night: the published pipeline (N1–N14, B1–B6, M1, D6, V5, O3, T7, V1–V4).

imprisonments → protections → catches → attacks → pardons → losses → executions → transformations → carry-overs →
deaths → windows → silence → victory. Each step reads and writes the `Night` record; events are emitted as the state
settles and rendered into the dawn post by the announcement templates (A2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cards.catalogue import privilege
from moderator.game.ledger import guards
from moderator.game.settle import Close, card_type, complete_transformations, deaths, silence, victory, windows
from moderator.game.state import DAY, NIGHT, Action, Arson, Card, GameState, evolve
from moderator.game.trace import Tracer, names
from moderator.game.validate import ATTACKS
from nights import bodyguard
from nights.arson import due_phase

NORMAL = ("普通攻击", "普通狙击")
BINDINGS = {"束魂": ("杀手", "狙击手"), "治疗": ("狼人", "狙击手")}  # N7, N8: the card types each one catches
FAILURE_KIND = {"束魂": "束魂失败", "治疗": "巫医失败"}
ATTACK_CLAUSE = {  # N1–N6: the clause of an attack by the card type it acted as
    ("杀手", "普通攻击"): "N1",
    ("杀手", "一击必杀"): "N2",
    ("狼人", "普通攻击"): "N3",
    ("狼人", "一击必杀"): "N4",
    (None, "普通狙击"): "N5",
    (None, "瞄准狙击"): "N6",
}
NEVER_IMPRISONED = ("绝杀", "变形", "禁锢")  # N10 (保镖 is automatic)


def _kind(act: Action) -> str:
    """B1: the kind of an attack for the 保镖."""
    if act.use == "普通攻击":
        return f"{act.form}普通攻击"
    if act.use == "一击必杀":
        return f"{act.form}一击必杀"
    return act.use  # 普通狙击, 瞄准狙击


def said(a: Action) -> str:
    """An action as a sentence: "阿飞用杀手牌普通攻击 小白兔"."""
    card = f"用{a.form or a.card}牌" if (a.form or a.card) and a.use not in (a.form, a.card) else ""
    return f"{a.by}{card}{a.use}" + (f" {a.target}" if a.target else "")


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
    savers: dict[str, set[str]] = field(default_factory=dict)  # saved player → the clauses that saved him (N7, N8)
    caught_by: dict[tuple[str, str | None], str] = field(default_factory=dict)  # source → 束魂 or 治疗 that caught it

    def live(self, *uses: str) -> list[Action]:
        return [a for a in self.state.actions if a.seq not in self.void and (not uses or a.use in uses)]


def imprisonments(n: Night) -> None:
    """N10: every 禁锢 holds (禁锢 does not stop 禁锢; mutual imprisonment imprisons both). A prisoner's 1–2 AP
    privileges of the night are void, 纵火 always; 3+ AP ones, 绝杀, 变形 and 禁锢 are not; nor the normal attacks of a
    card that used 一击必杀 tonight (N2/N4)."""
    acts = n.state.actions
    n.prisoners = {a.target for a in acts if a.use == "禁锢" and a.target}
    n.one_hit = {(a.by, a.card) for a in acts if a.use == "一击必杀"}
    tr = n.trace
    if tr is not None:
        for a in acts:
            if a.use == "禁锢" and a.target:
                tr("N10", f"禁锢:{a.by}禁锢了{a.target}", (a.by, a.target))
    for a in acts:
        if a.by not in n.prisoners or a.use in NEVER_IMPRISONED or a.use == "立场":
            if tr is not None and a.by in n.prisoners and a.use in NEVER_IMPRISONED:
                clause = "M4" if a.use == "变形" else "N10"
                tr(clause, f"禁锢:{a.by}被禁锢,但{a.use}不受禁锢:{said(a)}照常生效", (a.by,))
            continue
        if a.use == "普通攻击" and (a.by, a.card) in n.one_hit:
            if tr is not None:
                tr("N2", f"禁锢:{a.by}被禁锢,但这张牌今夜用了一击必杀:{said(a)}照常生效", (a.by,))
            continue
        priv = privilege(a.form or "", a.use)
        base = priv.cost if priv and priv.cost is not None else 0
        if a.use == "纵火" or 1 <= base <= 2:
            n.void.add(a.seq)
            if tr is not None:
                why = "纵火总被禁锢阻止" if a.use == "纵火" else f"{base} 点的特权被禁锢阻止"
                tr("N10", f"禁锢:{a.by}被禁锢,{said(a)}无效({why})", (a.by, *((a.target,) if a.target else ())))
        elif tr is not None:
            tr("N10", f"禁锢:{a.by}被禁锢,但 {base} 点以上的特权不受禁锢:{said(a)}照常生效", (a.by,))
    if n.prisoners:
        n.events.append({"type": "imprisoned", "players": sorted(n.prisoners)})


def protections(n: Night) -> None:
    """N9, N10: 防弹衣 and 狼毒 protect their user tonight; one 反狙击 voids every 普通狙击 of the night."""
    n.vests = {a.by for a in n.live("防弹衣")}
    n.venoms = {a.by for a in n.live("狼毒")}
    n.anti_sniper = bool(n.live("反狙击"))
    if n.trace is not None:
        for a in n.live("防弹衣", "狼毒", "反狙击"):
            if a.use == "反狙击":
                n.trace("N10", f"反狙击:{a.by}使用反狙击,今夜所有普通狙击无效", (a.by,))
            else:
                stops = "杀手/狙击手" if a.use == "防弹衣" else "狼人/狙击手"
                n.trace("N9", f"{a.use}:{a.by}今夜挡住{stops}牌对自己的普通攻击", (a.by,))


def catches(n: Night) -> None:
    """N7/N8: a binding (healing) on a player whom a 杀手/狙击手 (狼人/狙击手) card normal-attacks tonight saves them
    and voids every normal attack of that source; a submitted attack counts even if void for another reason. The same
    binder on the same target two nights running with no attack of those cards on it costs the target a card."""
    attacks_on: dict[str, list[Action]] = {}
    for a in n.state.actions:
        if a.use in ("普通攻击", "一击必杀", "普通狙击", "瞄准狙击"):
            attacks_on.setdefault(a.target or "", []).append(a)
    streaks: dict[tuple[str, str, str], int] = {}
    tr = n.trace
    for b in n.live("束魂", "治疗"):
        assert b.target is not None
        clause = "N7" if b.use == "束魂" else "N8"
        on_target = [a for a in attacks_on.get(b.target, []) if a.form in BINDINGS[b.use]]
        stoppable = {(a.by, a.card) for a in on_target if a.use in NORMAL and (a.by, a.card) not in n.one_hit}
        if stoppable:
            n.caught |= stoppable
            for source in stoppable:
                n.caught_by.setdefault(source, b.use)
            if b.target not in n.saved:
                n.saved.append(b.target)
            n.savers.setdefault(b.target, set()).add(clause)
            if tr is not None:
                for by, card in sorted(stoppable, key=lambda s: (s[0], s[1] or "")):
                    tr(
                        clause,
                        f"{b.use}:{b.by}的{b.use}抓到了{by}的{card}牌的普通攻击(对 {b.target}),"
                        f"这张牌今夜的普通攻击全部无效,{b.target}被救活",
                        (b.by, b.target, by),
                    )
        elif tr is not None and on_target:
            tr(
                "N2",
                f"{b.use}:{b.by}{b.use} {b.target},但攻击{b.target}的"
                f"{names(sorted({a.by for a in on_target}))}今夜用了一击必杀:救不了人,也不算落空",
                (b.by, b.target),
            )
        key = (b.by, b.use, b.target)
        if key in streaks:  # two bindings in one night by one binder count once
            if tr is not None:
                tr(clause, f"{b.use}:{b.by}今夜第二次{b.use} {b.target},只算一次", (b.by, b.target))
            continue
        if on_target:
            streaks[key] = 0
            continue
        nights = n.state.streaks.get(key, 0) + 1
        if tr is not None:
            kinds = "、".join(BINDINGS[b.use])
            tr(
                clause,
                f"{b.use}:{b.by}{b.use} {b.target},今夜没有{kinds}牌攻击{b.target},落空"
                f"(同一人对同一目标连续第 {nights} 夜)"
                + (f",连续两夜落空:{b.target}要损失一张牌" if nights >= 2 else ""),
                (b.by, b.target),
            )
        if nights >= 2:
            n.failures.append((b.target, FAILURE_KIND[b.use]))
            nights = 0  # ruling: after a penalty the streak restarts
        streaks[key] = nights
    n.state = evolve(n.state, streaks={k: v for k, v in streaks.items() if v})


def _stopped(n: Night, a: Action) -> str | None:
    """Why an attack is void (a constant sentence with its clause), or None when it lands."""
    if a.use not in NORMAL or (a.by, a.card) in n.one_hit:
        return None  # N2/N4/N6: 一击必杀, 瞄准狙击 and the normal attacks of a 一击必杀 card are unstoppable
    if (a.by, a.card) in n.caught:
        by = n.caught_by.get((a.by, a.card), "束魂")
        return (
            f"{'N7' if by == '束魂' else 'N8'} 被{'束魂' if by == '束魂' else '巫医'}抓到,这张牌今夜的普通攻击全部无效"
        )
    if a.form in ("杀手", "狙击手") and a.target in n.vests:
        return "N9 目标穿了防弹衣"
    if a.form in ("狼人", "狙击手") and a.target in n.venoms:
        return "N9 目标用了狼毒"
    return "N10 今夜有人用了反狙击" if a.use == "普通狙击" and n.anti_sniper else None


def attacks(n: Night) -> dict[str, list[bodyguard.Strike]]:
    hits: dict[str, list[bodyguard.Strike]] = {}
    tr = n.trace
    for a in n.live("普通攻击", "一击必杀", "普通狙击", "瞄准狙击"):
        stop = _stopped(n, a)
        if stop is not None:
            n.void.add(a.seq)
            if tr is not None:
                clause, why = stop.split(" ", 1)
                tr(clause, f"攻击:{said(a)}无效({why})", (a.by, a.target or ""))
        else:
            hits.setdefault(a.target or "", []).append(bodyguard.Strike(_kind(a), a.aimed_uid, a.seq))
            if tr is not None:
                clause = ATTACK_CLAUSE.get((a.form, a.use)) or ATTACK_CLAUSE.get((None, a.use), "N1")
                tr(clause, f"攻击:{said(a)}生效,{a.target}受到一次{_kind(a)}", (a.by, a.target or ""))
    for target, kind in n.failures:
        hits.setdefault(target, []).append(bodyguard.Strike(kind, None, -1))
    for a in n.live("绝杀"):
        hits.setdefault(a.target or "", []).append(bodyguard.Strike(bodyguard.DOOM, None, a.seq))
        if tr is not None:
            tr("N11", f"绝杀:{a.by}绝杀 {a.target},今夜结束时丢一张牌,保镖挡不住(B4)", (a.by, a.target or ""))
    return hits


def pardons(n: Night) -> None:
    """N12: one successful pardon per player (a second one costs its AP and its right, and does nothing)."""
    for a in n.live("特赦"):
        target = a.target or ""
        seat = n.state.seat(target)
        if target in n.pardoned or seat.pardoned_once or target not in n.state.pending_executions:
            if n.trace is not None:
                why = "今夜已有人特赦了他" if target in n.pardoned else "他已被成功特赦过或不能再被特赦"
                n.trace("N12", f"特赦:{a.by}特赦 {target}没有效果({why});行动点数照花", (a.by, target))
            continue
        if n.trace is not None:
            n.trace("N12", f"特赦:{a.by}特赦 {target}成功,{target}取回昨天被处决的牌", (a.by, target))
        n.pardoned.add(target)
        n.state = n.state.with_seat(evolve(seat, pardoned_once=True))
        n.events.append({"type": "pardon", "player": target})


def standing_in(guard_uids: frozenset[int]) -> Callable[[Card], bool]:
    return lambda card: card.uid in guard_uids


def losses(n: Night, hits: dict[str, list[bodyguard.Strike]]) -> None:
    """B1–B5: for each target, the order of the night's hits that takes the most cards."""
    for seat in n.state.seats:
        if seat.name not in hits or not seat.alive:
            continue
        standing = frozenset(guards(seat))
        taken = bodyguard.cards_taken(seat.hand, hits[seat.name], standing_in(standing))
        if n.trace is not None:
            _trace_losses(n, seat.name, seat.hand, hits[seat.name], standing, taken)
        for card, hit in taken:
            cause = {"束魂失败": "束魂", "巫医失败": "巫医", bodyguard.DOOM: "绝杀"}.get(hit.kind, "攻击")
            n.take(seat.name, card, cause)


BRUTE_FORCE_UP_TO = 6  # hits on one player: up to 720 orders are checked when the 天神 asks why (never at the clock)


def _trace_losses(
    n: Night,
    name: str,
    hand: tuple[Card, ...],
    hits: list[bodyguard.Strike],
    standing: frozenset[int],
    taken: list[tuple[Card, bodyguard.Strike]],
) -> None:
    """B1–B5, O4: the order of the cards, the hits, which hit took which card, what the 保镖 stopped, and that no
    other order of the hits takes more cards (checked against every order when there are few hits)."""
    assert n.trace is not None
    by_seq = {a.seq: a for a in n.state.actions}

    def hit_said(h: bodyguard.Strike) -> str:
        a = by_seq.get(h.tag) if h.tag >= 0 else None
        return f"{a.by}的{h.kind}" if a is not None else h.kind

    order = "、".join(f"{i + 1}.{c.name}" + ("(保镖,挡着)" if c.uid in standing else "") for i, c in enumerate(hand))
    n.trace("O4", f"丢牌顺序:{name}的丢牌顺序是 {order}", (name,))
    n.trace("B5", f"攻击:{name}今夜受到 {len(hits)} 次打击:{'、'.join(hit_said(h) for h in hits)}", (name,))
    where = {c.uid: i + 1 for i, c in enumerate(hand)}
    for card, hit in taken:
        how = "瞄准" if hit.kind == bodyguard.AIMED else "打掉排在最前的"
        guard = "(保镖被两种不同攻击打中,倒下,B2)" if card.uid in standing and hit.kind != bodyguard.DOOM else ""
        clause = "B3" if hit.kind == bodyguard.AIMED else ("B4" if hit.kind == bodyguard.DOOM else "O4")
        n.trace(clause, f"丢牌:{hit_said(hit)}{how}第 {where[card.uid]} 张 {card.name}{guard}", (name,))
    used = {id(h) for _, h in taken}
    idle = [h for h in hits if id(h) not in used]
    if idle:
        n.trace(*_idle_said("、".join(hit_said(h) for h in idle), hand, standing, taken), (name,))
    if len(hits) <= BRUTE_FORCE_UP_TO:
        best = bodyguard.brute_force(hand, hits, standing_in(standing))
        same = best == frozenset(c.uid for c, _ in taken)
        checked = f"已与穷举全部攻击顺序核对:{'一致,这就是最优顺序' if same else '不一致(请报告)'}"
    else:
        checked = f"打击太多(超过 {BRUTE_FORCE_UP_TO} 次),按计数法求得,不逐一穷举"
    n.trace("B5", f"最优顺序:这个顺序打掉 {len(taken)} 张,任何顺序都不会更多,同样多时丢的牌尽量靠前;{checked}", (name,))


def _idle_said(
    hits: str, hand: tuple[Card, ...], standing: frozenset[int], taken: list[tuple[Card, bodyguard.Strike]]
) -> tuple[str, str]:
    """Why these hits took no card: every card was gone; they fell on a 保镖 that they and another kind knocked down
    (B2); or on a 保镖 that one kind alone cannot knock down, which shields the cards after it (B1)."""
    lost = {c.uid for c, _ in taken}
    if len(lost) == len(hand):
        return "O4", f"攻击:{hits}没有打掉牌(没有牌可打了)"
    if standing & lost:
        return "B2", f"保镖:{hits}打在保镖上,和另一种攻击一起打倒了保镖,本身没有另外打掉牌"
    if standing:
        return "B1", f"保镖:{hits}被保镖挡住(一种攻击打不掉保镖,也打不到它后面的牌),没有打掉牌"
    return "O4", f"攻击:{hits}没有打掉牌"


def executions(n: Night) -> set[str]:
    """D6, N12: yesterday's executed cards: a pardoned one goes back in its old place; the others are announced now."""
    announced = set()
    for name, pending in n.state.pending_executions.items():
        seat = n.state.seat(name)
        if name in n.pardoned:
            hand = list(seat.hand)
            hand.insert(min(pending.index, len(hand)), pending.card)
            n.state = n.state.with_seat(evolve(seat, hand=tuple(hand)))
            if n.trace is not None:
                n.trace("N12", f"特赦:{name}的{pending.card.name}放回原位(第 {pending.index + 1} 张)", (name,))
            continue
        n.announced += 1
        announced.add(name)
        if n.trace is not None:
            kind = card_type(pending.card)
            n.trace("D6", f"处决:昨天被处决的{name}丢掉的{pending.card.name}({kind}牌)没有被特赦,现在公布", (name,))
        n.events.append({"type": "execution_card", "player": name, "card_type": card_type(pending.card)})
    n.state = evolve(n.state, pending_executions={}, unpardonable=frozenset())
    return announced


def transformations(n: Night) -> None:
    """M1: a transformation ordered last night (or the day before yesterday) is done at the end of this phase."""
    n.state = complete_transformations(n.state, n.trace)


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
            (a.use, a.target or "", a.by) for a in live if a.use in ("诅咒", "恶毒诅咒", "庇佑", "虔诚庇佑")
        ),
        arsons=n.state.arsons + arsons,
        saved=frozenset(n.saved),
        bottoms_fixed=True,  # O2: the first 24 hours are over
    )
    if n.trace is not None:
        for a in live:
            if a.use == "圣人":
                n.trace("N14", f"圣人:{a.by}用了圣人,明天如果被处决,投票处决他的人各丢一张牌", (a.by,))
            elif a.use in ("诅咒", "恶毒诅咒", "庇佑", "虔诚庇佑"):
                n.trace("N13", f"{a.use}:{a.by}{a.use} {a.target},计入明天的计票", (a.by, a.target or ""))
        for arson in arsons:
            blocked = ",但他今夜被禁锢:到时只扣他的点数,不烧对方" if arson.blocked else ""
            n.trace("N14", f"纵火:{arson.by}纵火 {arson.target},下一夜开始时生效{blocked}", (arson.by, arson.target))
        for name in n.saved:
            clause = "/".join(sorted(n.savers.get(name, {"N7"})))
            n.trace(clause, f"救活:{name}昨夜被救活,公布;今天可以讨论,不能投票(D1)", (name,))
    for name in n.saved:
        n.events.append({"type": "saved", "player": name})
    manifestos = [a.manifesto for a in n.state.actions if a.manifesto and a.use in ATTACKS]
    for text in manifestos:
        n.events.append({"type": "manifesto", "text": text})
    if n.trace is not None:
        for k, a in enumerate([a for a in n.state.actions if a.manifesto and a.use in ATTACKS], 1):
            chars = len("".join((a.manifesto or "").split()))
            said = f"杀人宣言:第 {k} 篇是{a.by}的{a.use}(对 {a.target})所附,{chars} 字,公布时不署名"
            n.trace("A2", said, (a.by,), a.manifesto or "")


def close_night(state: GameState, trace: Tracer | None = None) -> Night:
    n = Night(state=state, trace=trace)
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


__all__ = ["DAY", "NIGHT", "close_night", "due_phase"]
