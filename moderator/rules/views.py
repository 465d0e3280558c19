"""What a seat, the public and the 天神 may see of a state: computed here, once, by the rules (A1–A5, V5, D1–D5, T5).

Pages, the console and the announcements render these; none of them weighs a vote, applies D5 or decides what is
public on its own. Like a board-game framework's player view: the state goes in, only what the viewer may know
comes out.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from cards.catalogue import AMOEBA, ARSON_SAINT, DOOM_PARDON, PRIVILEGES
from moderator.game.settle import winners
from moderator.game.state import AMOEBA_CAP, DAY, NIGHT, CloseResult, GameState, SeatState
from moderator.rules.engine import end_phase


def phase_name(phase: tuple[str, int]) -> str:
    return f"第{phase[1]}{'夜' if phase[0] == NIGHT else '天'}"


def marks(state: GameState) -> list[int]:
    """O3: the loss counts (a third and two thirds of the cards dealt) that open a window to change orders."""
    third = state.dealt_total // 3
    return [m for m in (third, 2 * third) if third]


# --- the public ----------------------------------------------------------------------------------------------------


def public_tally(state: GameState) -> dict[str, Any]:
    """D1, D2: the day's votes so far, each weighted by the voter's cards (public); no post counts for oneself; a
    player saved last night has no vote (N7/N8); only the living are counted (D4). The N13 modifiers are left out:
    they stay secret until the dusk post (A3)."""
    ballots: list[dict[str, Any]] = []
    totals: defaultdict[str, int] = defaultdict(int)
    for seat in state.alive:
        if seat.name in state.saved:
            ballots.append({"voter": seat.name, "target": None, "weight": 0, "note": "昨夜被救,今天不能投票"})
            continue
        vote = state.votes.get(seat.name)
        target = vote.target if vote else seat.name
        note = "" if vote and not vote.changed else ("已改票" if vote else "未投票,按投自己计(D1)")
        ballots.append({"voter": seat.name, "target": target, "weight": len(seat.hand), "note": note})
        totals[target] += len(seat.hand)
    rows = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    return {"ballots": ballots, "totals": [{"name": n, "total": t} for n, t in rows]}


def win_clause(winner: str | None) -> str:
    """The clause a win is cited under: V1 the civilians, V2 the killer or werewolf camp, V3 the self-chosen alone,
    V4 a draw."""
    return {"平民": "V1", "杀手": "V2", "狼人": "V2", "自选": "V3", "平局": "V4"}.get(winner or "", "")


def public_view(state: GameState) -> dict[str, Any]:
    """A1–A5, V5: the living with their card counts, who may not vote today (announced at dawn), who was executed
    (announced at dusk), the live tally of an open day without the secret modifiers, the losses so far, the 默哀期
    and the winner. Never a card, an AP figure, a camp of a living player, or who used which privilege."""
    pending = state.pending_executions
    living = [
        {"name": s.name, "cards": len(s.hand), "no_vote": s.name in state.saved, "executed": s.name in pending}
        for s in state.alive
    ]
    day_open = state.phase_open and state.phase_kind == DAY
    return {
        "living": living,
        "tally": public_tally(state) if day_open else None,
        "lost_total": state.lost_total,
        "marks": marks(state),
        "silence": state.silence,
        "winner": state.winner,
        "winners": winners(state),
        "win_clause": win_clause(state.winner),
        "final": final_reveal(state) if state.winner else None,
    }


def final_reveal(state: GameState) -> list[dict[str, Any]]:
    """When the game is won, nothing is secret any more: every seat's camp (and S4 stance) and the cards it held."""
    return [
        {
            "name": s.name,
            "camp": s.camp,
            "side": s.side,
            "mode": s.mode,
            "alive": s.alive,
            "hand": [c.name for c in s.hand],
        }
        for s in state.seats
    ]


def revealed_camp(state: GameState | None, name: str, camp: str | None) -> str | None:
    """V5: a day death's camp as it is announced — a self-chosen player's with his S4 stance, as the final reveal
    gives it (自选(杀手·共赢)); an independent one's (no stance) as 自选."""
    if camp != "自选" or state is None:
        return camp
    seat = next((s for s in state.seats if s.name == name), None)
    if seat is None or not seat.side or not seat.mode:
        return camp
    return f"{camp}({seat.side}·{seat.mode})"


def public_deaths(result: CloseResult | dict[str, Any], state: GameState | None = None) -> list[dict[str, Any]]:
    """V5: who died at a close; the camp only where the close revealed it (day deaths, and a death by yesterday's
    execution announced at dawn), a self-chosen's with his stance when `state` is given (`revealed_camp`)."""
    events = result.events if isinstance(result, CloseResult) else result.get("events", [])
    return [
        {"name": e["player"], "camp": revealed_camp(state, e["player"], e.get("camp")), "day": e.get("day")}
        for e in events
        if e["type"] == "death"
    ]


# --- one seat ------------------------------------------------------------------------------------------------------


def _amoebas(me: SeatState) -> list[dict[str, Any]]:
    """M1–M4: each 阿米巴 still held — its form, what is left of its 4 AP, a transformation under way."""
    out = []
    for card in me.hand:
        if card.name != AMOEBA:
            continue
        a = me.amoebas.get(card.uid)
        form = a.form if a else None
        out.append(
            {
                "form": form,
                "spent": a.spent if a and form else 0,
                "left": AMOEBA_CAP - a.spent if a and form else None,
                "pending": a.pending if a else None,
                "done_at": phase_name(a.done_at) if a and a.done_at else "",
                "forms_used": list(a.forms_used) if a else [],
                "bottom": card.uid == me.hand[-1].uid,
            }
        )
    return out


def _once(me: SeatState) -> dict[str, Any]:
    """N11 绝杀 once per card, N14 圣人 once per game, N12 pardons per (card, target) and the one successful pardon."""
    able = {c.name for c in me.hand if c.name == DOOM_PARDON}
    able |= {c.name for c in me.hand if c.uid in me.amoebas and me.amoebas[c.uid].form == DOOM_PARDON}
    doom = [{"card": name, "used": name in me.doom_used} for name in sorted(able | me.doom_used)]
    return {
        "doom": doom,
        "saint": {"held": ARSON_SAINT in me.names, "done": me.saint_done},
        "pardons": sorted(me.pardons_given),
        "pardoned_once": me.pardoned_once,
    }


def uses_of(state: GameState, name: str) -> list[str]:
    """The privileges this seat's hand offers in the open phase (N1–N14, M1: an 阿米巴's 变形, and its form's uses
    once transformed; S4: the self-chosen's 立场 on night 1), in the table's order — what a menu should list."""
    me = state.seat(name)
    kinds: set[str] = set()
    for card in me.hand:
        kinds.add(card.name)
        a = me.amoebas.get(card.uid) if card.name == AMOEBA else None
        if a and a.form and a.spent < AMOEBA_CAP:
            kinds.add(a.form)
    night = state.phase_kind == NIGHT
    out = [p.use for p in PRIVILEGES if p.card in kinds and (p.night if night else p.day)]
    if me.camp == "自选" and state.phase == (NIGHT, 1):
        out.append("立场")
    return list(dict.fromkeys(out))


def independent(state: GameState, seat: SeatState) -> bool:
    """S4 ruling: a self-chosen player who chose no stance by the end of night 1 is independent (not "undecided")."""
    return seat.camp == "自选" and seat.mode is None and (state.phase != (NIGHT, 1) or not state.phase_open)


def seat_view(state: GameState, name: str) -> dict[str, Any]:
    """Everything one seat may know of itself, and nothing of any other seat (A: a player sees only their own hand)."""
    me = state.seat(name)
    pending = state.pending_executions.get(me.name)
    return {
        "name": me.name,
        "alive": me.alive,
        "camp": me.camp,
        "side": me.side,
        "mode": me.mode,
        "independent": independent(state, me),
        "hand": [{"pos": i + 1, "name": c.name, "bottom": i == len(me.hand) - 1} for i, c in enumerate(me.hand)],
        "pending_card": pending.card.name if pending else None,
        "ap": me.ap,
        "ledger": list(me.ledger),
        "ledger_sum": sum(r.delta for r in me.ledger),
        "amoebas": _amoebas(me),
        "once": _once(me),
        "orders_open": state.orders_open and state.phase_open,
        "bottoms_fixed": state.bottoms_fixed,
        "ordered": me.name in state.ordered or state.bottoms_fixed,  # O1: before it, no order and no 底牌 yet
        "saved": me.name in state.saved,
        "lost_total": state.lost_total,
        "marks": marks(state),
        "windows": state.windows,
        "outcome": outcome(state, me.name),
    }


def outcome(state: GameState, name: str) -> dict[str, Any] | None:
    """V1–V4 for one seat once the game is over: did this player win, alive or dead (V2 ruling: a 共赢 self-chosen
    wins with the camp, and the camp with them)."""
    if state.winner is None:
        return None
    mine = next((w for w in winners(state) if w["name"] == name), None)
    return {"winner": state.winner, "won": mine is not None, "co_win": bool(mine and mine["co_win"])}


# --- the 天神 -------------------------------------------------------------------------------------------------------


def not_acted(state: GameState) -> list[str]:
    """T5: the living players the 天神 is still waiting for — at night, no accepted action this phase; by day, no
    vote (a player saved last night has no vote, N7/N8 and D1, so nobody waits for them); nor for one who passed."""
    if not state.phase_open:
        return []
    waiting = [
        s for s in state.alive if s.name not in state.passed and (s.hand or s.name not in state.pending_executions)
    ]
    if state.phase_kind == NIGHT:
        return [s.name for s in waiting if not s.actions]
    return [s.name for s in waiting if s.name not in state.votes and s.name not in state.saved]


def orders_missing(state: GameState, hands_are_orders: bool = False) -> list[str]:
    """O1, T5: on night 1, the living players whose discard order has not arrived — at the night's end the system
    draws one for each of them. None when the hands were entered in discard order (a table taken over), or once
    the first 24 hours are over (O2)."""
    if hands_are_orders or state.bottoms_fixed or not state.phase_open or state.phase != (NIGHT, 1):
        return []
    return [s.name for s in state.alive if s.name not in state.ordered]


def alerts(state: GameState, dry_run: CloseResult | None) -> list[str]:
    """What the 天神 should know now: an O3 window, the 默哀期, pardons possible tonight (N12), what D5 makes of the
    tally as it stands (from a dry run of the close), and the end of the game."""
    out = []
    if state.phase_open and state.orders_open and state.phase != (NIGHT, 1):
        out.append("改顺序期(O3):本时段内活着的玩家可以寄新的丢牌顺序(底牌不能改)。")
    if state.silence:
        out.append("默哀期(T7)已经开始。")
    if state.pending_executions:
        out.append("昨天被处决、今夜可以被特赦的:" + "、".join(state.pending_executions) + "(N12)。")
        last = [n for n in state.pending_executions if not state.seat(n).hand and state.seat(n).alive]
        if last and state.phase_kind == NIGHT:
            out.append(
                "、".join(last) + "的最后一张牌在昨天的处决中丢掉:天亮公布之前仍然活着,照常得到今夜的 2 点,"
                "今夜到期的纵火照常生效(N14, D6)。"
            )
    if dry_run is not None and state.phase_kind == DAY and state.phase_open:
        totals = sorted(dry_run.tally.values(), reverse=True)
        if len(totals) > 1 and len(state.alive) == 2 and totals[0] == totals[1]:
            out.append("只剩两人且票数相同:按现在的票,今天没有人被处决(D5)。")
        elif len(totals) > 2 and totals[1] == totals[2]:
            out.append("第二名并列:按现在的票,将处决不止两人(D5)。")
    if state.winner:
        names = "、".join(w["name"] + ("(共赢的自选立场者)" if w["co_win"] else "") for w in winners(state))
        clause = win_clause(state.winner)
        out.append(f"游戏已经结束:{state.winner}。" + (f"获胜的玩家:{names}({clause}:生死不论)。" if names else ""))
    return out


# --- V4: the declared draw ----------------------------------------------------------------------------------------

# Card types with a privilege that can cost *another* player a card without an execution: the attacks (N1–N6),
# 束魂 and 巫医 (the two-night failure, N7/N8 — the seed lets them be used "以连续两夜空束/治疗的方式发动攻击") and
# 绝杀 (N11). Not 圣人 (N14): its losses need an execution, which a deadlocked count does not produce.
ATTACK_CARDS = frozenset({"杀手", "狼人", "狙击手", "束魂", "巫医", DOOM_PARDON})
COWIN_BARRED = frozenset({"狙击手", DOOM_PARDON})  # S4: a 共赢 self-chosen may not snipe nor 绝杀


def _attacks_with(seat: SeatState, card_type: str) -> bool:
    if card_type not in ATTACK_CARDS or (seat.co_win and card_type in COWIN_BARRED):
        return False
    return not (card_type == DOOM_PARDON and DOOM_PARDON in seat.doom_used)  # N11: once per card


def _holds_attack(seat: SeatState) -> bool:
    """The seat holds a card that is, or (阿米巴, M1–M3) can still become, one of ATTACK_CARDS it may use."""
    for i, card in enumerate(seat.hand):
        if card.name != AMOEBA:
            if _attacks_with(seat, card.name):
                return True
            continue
        a = seat.amoebas.get(card.uid)
        if a and a.form and a.spent < AMOEBA_CAP and _attacks_with(seat, a.form):
            return True
        used = set(a.forms_used) if a else set()
        if i == len(seat.hand) - 1 and used:
            continue  # M3: a bottom 阿米巴 transforms once only
        barred = {"杀手", "狼人"} if seat.co_win else set()  # S4: a 共赢 amoeba never becomes 杀手 or 狼人
        if any(_attacks_with(seat, t) for t in ATTACK_CARDS - seat.dealt_types - used - barred):  # M1
            return True
    return False


def _executed_nobody(result: CloseResult | dict[str, Any]) -> bool:
    executed = result.executed if isinstance(result, CloseResult) else result.get("executed", [])
    return not executed


def _is_day(result: CloseResult | dict[str, Any]) -> bool:
    phase = result.phase if isinstance(result, CloseResult) else result.get("phase", ())
    return bool(phase) and phase[0] == DAY


def deadlock(state: GameState, recent_results: list[CloseResult] | list[dict[str, Any]]) -> bool:
    """V4: the survivors cannot eliminate each other, so the 天神 may declare a draw. True exactly when

    1. the game is not over and at least two players are alive;
    2. no survivor holds an attack: no living player holds a 杀手, 狼人, 狙击手, 束魂, 巫医 or 绝杀/特赦 card (the
       last only while its 绝杀 is unused, N11; 狙击手 and 绝杀 not for a 共赢 self-chosen, S4), nor an 阿米巴 that
       works as one of these or can still become one (M1: a type it was not dealt and has not been; M3: a bottom
       阿米巴 already transformed cannot) — 圣人 does not count, its losses need an execution;
    3. the last two counts were deadlocked: the two most recent day closes among `recent_results` (closed phases'
       results, oldest first; CloseResult or the stored JSON) both exist and each executed nobody (D5: a tie between
       the last two, or all totals 0 — a day without any vote post is counted under D1, everyone for themself).

    The seed (§10.5): "剩下的几名游戏者手中都没有攻击性的牌、投票票数又完全相等的局面,就会形成平局"."""
    alive = state.alive
    if state.winner or len(alive) < 2:
        return False
    if any(_holds_attack(seat) for seat in alive):
        return False
    days = [r for r in recent_results if _is_day(r)][-2:]
    return len(days) == 2 and all(_executed_nobody(r) for r in days)


def sorted_tally(result: CloseResult | None) -> list[tuple[str, int]]:
    """D2: a count's totals, highest first (ties by name), as the 天神 reads a tally."""
    return sorted((result.tally or {}).items(), key=lambda kv: (-kv[1], kv[0])) if result else []


def executions_preview(state: GameState, closed: tuple[GameState, CloseResult] | None = None) -> list[dict[str, str]]:
    """D5, D6: who would be executed if the open day closed now, and the very card each would lose (taken out of
    the hand until the end of the next night; N12 may give it back). `closed`: that close (the state after it and
    its result), when the caller has resolved it already."""
    if not (state.phase_open and state.phase_kind == DAY):
        return []
    after, result = closed if closed is not None else end_phase(state)
    pending = after.pending_executions
    out = []
    for n in result.executed:
        if n in pending:
            card = pending[n].card.name
        else:  # D6: one who cannot be pardoned loses it at the close, announced then: the first card of his order
            hand = state.seat(n).hand
            card = hand[0].name if hand else "—"
        out.append({"name": n, "card": card})
    return out
