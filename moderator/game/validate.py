"""Validating one input at the moment it was sent (AP4, AP5, T3, N-table limits, S4, M1–M3, B3, D1–D3, O1–O3).

Each check returns the reason in Chinese — what was wrong and what would be accepted — or records the input.
"""

from __future__ import annotations

from functools import lru_cache

from cards.catalogue import AMOEBA, AMOEBA_FORMS, CAMP_SELF, USES, privilege
from moderator.game.ledger import charge
from moderator.game.state import (
    AMOEBA_CAP,
    DAY,
    NIGHT,
    Action,
    Amoeba,
    GameState,
    Pass,
    SeatState,
    Verdict,
    Vote,
    VoteState,
    evolve,
)

ATTACKS = ("普通攻击", "一击必杀", "普通狙击", "瞄准狙击")
ONCE_PER_PHASE = ("圣人", "防弹衣", "狼毒", "反狙击")  # AP5
CO_WIN_FORBIDDEN = ("普通狙击", "瞄准狙击", "绝杀", "圣人")  # S4
CHANGE_CUTOFF = 10  # T3: minutes before the end of the phase
VOTE_CHANGE_CUTOFF = 60  # D3
MANIFESTO_CHARS = 100  # N-kill
WIN_MODES = {"共赢": "共赢", "独赢": "独赢", "一山不容二虎": "独赢"}


class InputRefused(Exception):
    pass


@lru_cache(maxsize=4096)
def manifesto_length(text: str | None) -> int:
    """N-kill: characters, not counting whitespace."""
    return sum(1 for ch in text or "" if not ch.isspace())


def join_manifestos(*texts: str | None) -> str | None:
    """N-kill: several 杀人宣言 counted together (each kept whole, one per line); None when there is none."""
    kept = [t for t in texts if t]
    return "\n".join(kept) if kept else None


def living_seat(state: GameState, name: str | None, what: str = "目标") -> SeatState:
    if not name or not state.has(name):
        raise InputRefused(f"没有叫“{name}”的玩家")
    seat = state.seat(name)
    if not seat.alive:
        raise InputRefused(f"{what}“{name}”已经死亡")
    return seat


def check_time(state: GameState, at: float) -> None:
    if state.winner:  # V1–V4: the game is over, even if a phase were opened after the close that declared it
        outcome = {"平局": "平局", "自选": "自选立场者获胜"}.get(state.winner, f"{state.winner}阵营获胜")
        raise InputRefused(f"游戏已经结束({outcome}),不再接受任何输入")
    if not state.phase_open:
        raise InputRefused("当前没有进行中的时段")
    if at < 0 or at > state.phase_minutes:
        raise InputRefused(f"{state.phase_label}已经结束:这条消息的时间在截止时间之后(T3)")


def _form(seat: SeatState, card: str) -> tuple[str, int | None]:
    """The type a card works as: itself, or an 阿米巴's current form (M2)."""
    if card != AMOEBA:
        return card, None
    uid = next(c.uid for c in seat.hand if c.name == AMOEBA)
    amoeba = seat.amoebas.get(uid)
    return (amoeba.form if amoeba and amoeba.form else AMOEBA), uid


def _card_for(seat: SeatState, use: str, card: str | None) -> str:
    if card is not None:
        if card not in seat.names:
            raise InputRefused(f"你手里没有“{card}”牌")
        return card
    options = sorted({c for c in seat.names if privilege(_form(seat, c)[0], use) or (use == "变形" and c == AMOEBA)})
    if len(options) != 1:
        raise InputRefused(
            f"“{use}”要用哪张牌?" + (f"可能是:{'、'.join(options)}" if options else "你手里没有能这样用的牌")
        )
    return options[0]


def submit_action(state: GameState, act: Action) -> tuple[GameState, Verdict]:
    try:
        check_time(state, act.at)
        seat = living_seat(state, act.by, "发送者")
        if act.use not in USES:
            raise InputRefused(f"不认识的特权“{act.use}”;可用的有:{'、'.join(USES)}")
        if act.use == "立场":
            return _stance(state, seat, act)
        if act.change:
            return _change(state, seat, act)
        return _new_action(state, seat, act)
    except InputRefused as exc:
        return state, Verdict.refuse(str(exc))


def _stance(state: GameState, seat: SeatState, act: Action) -> tuple[GameState, Verdict]:
    """S4: the self-chosen player's night-1 choice of side and mode."""
    if seat.camp != CAMP_SELF:
        raise InputRefused("只有自选立场者才能选择立场(S4)")
    if state.phase != (NIGHT, 1):
        raise InputRefused("立场只能在第1夜选择(S4);第1夜没有选择的默认独立")
    if act.side not in ("杀手", "狼人") or act.mode not in WIN_MODES:
        raise InputRefused("立场要写明杀手或狼人,以及共赢或一山不容二虎(独赢)(S4)")
    seat = evolve(seat, side=act.side, mode=WIN_MODES[act.mode])
    return state.with_action(seat, act), Verdict(True)


def _change(state: GameState, seat: SeatState, act: Action) -> tuple[GameState, Verdict]:
    """T3: a new target for an earlier action of the same card and use; it moves the action, not its cost (AP4)."""
    if act.at > state.phase_minutes - CHANGE_CUTOFF:
        raise InputRefused("距本时段结束已不足 10 分钟,不能再更换特权对象(T3);新的特权仍可提交")
    earlier = [a for a in seat.actions if a.use == act.use and (act.card in (None, a.card))]
    if not earlier:
        raise InputRefused(f"本时段你还没有用过“{act.use}”,没有可以更换的对象")
    old = earlier[-1]
    manifesto = join_manifestos(old.manifesto, act.manifesto)  # N-kill ruling: a change keeps what was counted
    new = evolve(old, target=act.target, position=act.position, at=act.at, manifesto=manifesto)
    new = _check_target(state, seat, new, privilege(old.form or "", act.use), replacing=old)
    if new.use == "特赦":  # N12: each card pardons each player once, success or not — a changed target too
        if (new.card, new.target) in seat.pardons_given:
            raise InputRefused(f"这张牌已经特赦过“{new.target}”,每张特赦牌对每人只能用一次(N12)")
        seat = evolve(seat, pardons_given=seat.pardons_given | {(new.card or "", new.target or "")})
    seat = evolve(seat, actions=tuple(new if a is old else a for a in seat.actions))
    return state.with_seat(seat), Verdict(True, "已更换对象,行动点数不重复扣除(T3, AP4)")


def _new_action(state: GameState, seat: SeatState, act: Action) -> tuple[GameState, Verdict]:
    card = _card_for(seat, act.use, act.card)
    form, amoeba_uid = _form(seat, card)
    if act.use == "变形":
        return _transform(state, seat, evolve(act, card=card), amoeba_uid)
    priv = privilege(form, act.use)
    if priv is None:
        if card == AMOEBA:
            raise InputRefused(
                f"你手里没有能用“{act.use}”的牌;这张阿米巴还没有完成变形,也不能用它(M1)"
                if form == AMOEBA
                else f"这张阿米巴现在是“{form}”,没有“{act.use}”这个特权(M2)"
            )
        raise InputRefused(f"“{card}”牌没有“{act.use}”这个特权")
    if state.phase_kind == NIGHT and not priv.night:
        raise InputRefused(f"“{act.use}”只能在白天使用")
    if state.phase_kind == DAY and not priv.day:
        raise InputRefused(f"“{act.use}”只能在夜里使用")
    if seat.co_win and act.use in CO_WIN_FORBIDDEN:
        raise InputRefused(f"选择共赢的自选立场者不能使用“{act.use}”(S4)")
    banked = state.manifesto_bank.get(seat.name) if act.use in ATTACKS else None
    act = evolve(
        act, card=card, form=form, manifesto=join_manifestos(banked, act.manifesto) if banked else act.manifesto
    )
    if act.use in ONCE_PER_PHASE and any(a.use == act.use for a in seat.actions):
        return state, Verdict(True, f"“{act.use}”本时段已经用过,只生效一次、只扣一次点数(AP5)")
    act = _check_target(state, seat, act, priv)
    cost = priv.cost if priv.cost is not None else 0  # N14: 纵火 costs nothing now; it spends the next phase's AP
    if amoeba_uid is not None:
        amoeba = seat.amoebas[amoeba_uid]
        if amoeba.spent + cost > AMOEBA_CAP:
            raise InputRefused(f"这张阿米巴变成的“{form}”已经用了 {amoeba.spent} 点,再用 {cost} 点就超过 4 点上限(M2)")
    if seat.ap < cost:
        raise InputRefused(f"行动点数不足:“{act.use}”需要 {cost} 点,你现在只有 {seat.ap} 点(AP4)")
    _limits(state, seat, act)
    state = charge(state, seat.name, -cost, f"{act.use}({card})")
    seat = state.seat(seat.name)
    if amoeba_uid is not None:
        amoeba = seat.amoebas[amoeba_uid]
        seat = evolve(seat, amoebas={**seat.amoebas, amoeba_uid: evolve(amoeba, spent=amoeba.spent + cost)})
    if act.use == "绝杀":
        seat = evolve(seat, doom_used=seat.doom_used | {card})
    if act.use == "特赦":
        seat = evolve(seat, pardons_given=seat.pardons_given | {(card, act.target or "")})
    if banked:  # N-kill: the banked 宣言 now rides with this accepted attack
        state = evolve(state, manifesto_bank={k: v for k, v in state.manifesto_bank.items() if k != seat.name})
    return state.with_action(seat, evolve(act, cost=cost)), Verdict(True, cost=cost)


def _check_target(state: GameState, seat: SeatState, act: Action, priv, replacing: Action | None = None) -> Action:
    if priv is None or not priv.target:
        if act.target not in (None, seat.name):
            raise InputRefused(f"“{act.use}”只能对自己使用,不用写对象")
        return evolve(act, target=None)
    target = living_seat(state, act.target)
    if act.use in ATTACKS:
        _manifesto(state, act, replacing)
    if act.use == "瞄准狙击":
        act = evolve(act, aimed_uid=_aim(target, act.position))
    if act.use == "特赦":
        _pardonable(state, target)
    return act


def _aim(target: SeatState, position: int | None) -> int:
    """B3: a position in the target's order as it stands now, from the front (2) or the back (-2)."""
    n = len(target.hand)
    if position is None or position == 0 or abs(position) > n:
        raise InputRefused(f"瞄准狙击要写明位置:第1到第{n}张,或倒数第1到第{n}张(B3)")
    index = position - 1 if position > 0 else n + position
    if index == n - 1 and n > 1:
        raise InputRefused("底牌不能被瞄准狙击,除非对方只剩这一张牌(B3)")
    return target.hand[index].uid


def _manifesto(state: GameState, act: Action, replacing: Action | None = None) -> None:
    """N-kill: n attacks tonight need 100·n characters in all; a target change (T3) is the same attack, not one more."""
    mine = [a for a in state.seat(act.by).actions if a.use in ATTACKS and a is not replacing]
    total = sum(manifesto_length(a.manifesto) for a in mine) + manifesto_length(act.manifesto)
    need = MANIFESTO_CHARS * (len(mine) + 1)
    if total < need:
        raise InputRefused(
            f"杀人宣言不够:今夜 {len(mine) + 1} 次攻击需要合计至少 {need} 字,现在只有 {total} 字(N-kill);"
            "同一条短消息里的攻击按书写顺序接受到宣言够为止(每次 100 字)"
        )


def _pardonable(state: GameState, target: SeatState) -> None:
    """N12 ruling: a pardon that cannot succeed when it is sent is refused with the reason and costs nothing — the
    target was not executed yesterday, was pardoned successfully before, or their 圣人 took effect (N14)."""
    if target.name in state.unpardonable:
        raise InputRefused(f"“{target.name}”的圣人特权昨天已经生效,今夜不能被特赦(N12, N14);不扣行动点数")
    if target.pardoned_once:
        raise InputRefused(f"“{target.name}”本局已经被成功特赦过一次,每人只能被成功特赦一次(N12);不扣行动点数")
    if target.name not in state.pending_executions:
        raise InputRefused(f"“{target.name}”昨天没有被处决,只能特赦昨天被处决的人(N12);不扣行动点数")


def _phase_name(phase: tuple[str, int]) -> str:
    return f"第{phase[1]}{'夜' if phase[0] == NIGHT else '天'}"


def _limits(state: GameState, seat: SeatState, act: Action) -> None:
    if act.use == "绝杀" and act.card in seat.doom_used:
        raise InputRefused("这张牌的绝杀在本局已经用过了,每张牌只能用一次(N11)")
    if act.use == "特赦" and (act.card, act.target) in seat.pardons_given:
        raise InputRefused(f"这张牌已经特赦过“{act.target}”,每张特赦牌对每人只能用一次(N12)")
    if act.use == "圣人" and seat.saint_done:
        raise InputRefused("圣人特权在本局已经生效过一次,不能再用(N14)")


def _transform(state: GameState, seat: SeatState, act: Action, uid: int | None) -> tuple[GameState, Verdict]:
    """M1–M4: 变形 (2 AP, never stopped by 禁锢) into a type not held at the deal and not been before."""
    if uid is None:
        raise InputRefused("只有阿米巴牌才能变形(M1)")
    amoeba = seat.amoebas.get(uid)
    if amoeba and amoeba.pending:  # M2 ruling: one transformation at a time
        done = _phase_name(amoeba.done_at) if amoeba.done_at else "下一时段"
        raise InputRefused(
            f"这张阿米巴正在变成“{amoeba.pending}”,{done}结束时完成;一次只能有一个变形,完成之后才能再下变形指令(M2)"
        )
    into = act.into
    if into not in AMOEBA_FORMS:
        raise InputRefused(f"阿米巴只能变成这些牌型之一:{'、'.join(AMOEBA_FORMS)}(M1)")
    if into in seat.dealt_types:
        raise InputRefused(f"开局时你拿到过“{into}”牌,阿米巴不能变成它(M1)")
    if amoeba and into in amoeba.forms_used:
        raise InputRefused(f"这张阿米巴已经变过“{into}”,不能再变(M1)")
    if amoeba and amoeba.forms_used and seat.hand[-1].uid == uid:
        raise InputRefused("作为底牌的阿米巴只能变形一次(M3)")
    if seat.co_win and into in ("杀手", "狼人"):
        raise InputRefused("选择共赢的自选立场者不能把阿米巴变成杀手或狼人(S4)")
    if seat.ap < 2:
        raise InputRefused(f"行动点数不足:变形需要 2 点,你现在只有 {seat.ap} 点(AP4)")
    state = charge(state, seat.name, -2, f"变形成{into}(阿米巴)")
    seat = state.seat(seat.name)
    base = seat.amoebas.get(uid) or Amoeba()
    done_at = (state.phase_kind, state.phase_no + 1)
    new = evolve(base, pending=into, done_at=done_at, forms_used=(*base.forms_used, into))
    seat = evolve(seat, amoebas={**seat.amoebas, uid: new})
    return state.with_action(seat, evolve(act, form=AMOEBA, cost=2)), Verdict(True, cost=2)


# --- votes (D1–D3) ------------------------------------------------------------------------------------------------


def submit_pass(state: GameState, inp: Pass) -> tuple[GameState, Verdict]:
    """T5: a living player's "空过" is noted; it costs nothing and changes nothing else."""
    try:
        check_time(state, inp.at)
        seat = living_seat(state, inp.by, "发送者")
        return evolve(state, passed=state.passed | {seat.name}), Verdict(True)
    except InputRefused as exc:
        return state, Verdict.refuse(str(exc))


def submit_vote(state: GameState, vote: Vote) -> tuple[GameState, Verdict]:
    try:
        check_time(state, vote.at)
        if state.phase_kind != DAY:
            raise InputRefused("只有白天才能投票")
        voter = living_seat(state, vote.by, "投票者")
        if voter.name in state.saved:
            raise InputRefused(f"“{voter.name}”昨夜被救活(束魂/治疗),今天可以发言但不能投票(N7/N8, D1)")
        if vote.change is None:
            return _original_vote(state, voter, vote)
        return _change_vote(state, voter, vote)
    except InputRefused as exc:
        return state, Verdict.refuse(str(exc))


def _original_vote(state: GameState, voter: SeatState, vote: Vote) -> tuple[GameState, Verdict]:
    if voter.name in state.votes:
        if vote.edited:
            return _edited_original(state, voter)
        return _second_post(state, voter, vote)
    if vote.edited and vote.target is None:  # D3: the original target can no longer be known
        votes = {**state.votes, voter.name: VoteState(voter.name, vote.at, edited=True)}
        reason = f"原投票帖被编辑过、原投票对象无法得知:按投自己(→ {voter.name})计票,改票权作废(D3)"
        return evolve(state, votes=votes, vote_changed=state.vote_changed | {voter.name}), Verdict(True, reason)
    target = living_seat(state, vote.target, "投票对象")
    votes = {**state.votes, voter.name: VoteState(target.name, vote.at, edited=vote.edited)}
    forfeited = state.vote_changed | ({voter.name} if vote.edited else set())
    return evolve(state, votes=votes, vote_changed=frozenset(forfeited)), Verdict(True)


def _second_post(state: GameState, voter: SeatState, vote: Vote) -> tuple[GameState, Verdict]:
    """D3: a separate later post with a new vote ("再想想,我投C") is the one change a player may make — when a change
    is still allowed. The same target again changes nothing (the change right is kept); otherwise it is judged as a
    change post, refused with the change's own reason (already changed, original edited, the last hour)."""
    original = state.votes[voter.name]
    if vote.target == original.target and not original.changed:
        raise InputRefused(f"你已经投过{original.target}了:这个帖子和原投票相同,不算改票,改票权保留(D3)")
    try:
        state, _ = _change_vote(state, voter, evolve(vote, target=None, change=vote.target))
    except InputRefused as exc:
        raise InputRefused(f"另发的投票帖按改票处理:{exc}") from None
    return state, Verdict(True, f"已投过票,另发的投票帖按改票处理(→ {vote.target},改票只能一次,D3)")


def _edited_original(state: GameState, voter: SeatState) -> tuple[GameState, Verdict]:
    """D3: the player edited the original vote post instead of posting a change: the original vote (as first entered)
    stands and the change right is forfeited."""
    original = state.votes[voter.name]
    if original.changed:
        raise InputRefused("他已经用改票帖改过票了:编辑原投票帖不再改变计票(D3)")
    votes = {**state.votes, voter.name: evolve(original, edited=True)}
    reason = f"原投票帖被编辑过:按原投票(→ {original.target})计票,改票权作废(D3)"
    return evolve(state, votes=votes, vote_changed=state.vote_changed | {voter.name}), Verdict(True, reason)


def _change_vote(state: GameState, voter: SeatState, vote: Vote) -> tuple[GameState, Verdict]:
    if vote.edited:
        raise InputRefused("一个帖子不能既是改票帖又是被编辑过的原投票帖:请只选其中一种(D3)")
    original = state.votes.get(voter.name)
    if original is None:
        raise InputRefused("你还没有投票,不能改票;请先发投票帖(D3)")
    if original.edited:
        raise InputRefused("你编辑了原投票帖,改票无效,按原投票计票,且不能再改票(D3)")
    if voter.name in state.vote_changed:
        raise InputRefused("改票只能一次,你已经改过票了(D3)")
    if vote.at > state.phase_minutes - VOTE_CHANGE_CUTOFF:
        raise InputRefused("投票截止前最后一小时不能改票(D3)")
    target = living_seat(state, vote.change, "改投对象")
    votes = {**state.votes, voter.name: evolve(original, target=target.name, changed=True)}
    return evolve(state, votes=votes, vote_changed=state.vote_changed | {voter.name}), Verdict(True)
