"""Reads for the public game page and the players' private pages.

What may be shown where (RULES A1–A5, V5):
- public: phases, countdown, living players and their card counts, the dead (camp only for day deaths, V5), the live
  weighted tally of an open day without the N13 modifiers (secret until the dusk post), the public announcements
  (dawn, dusk, vote posts — never the private drafts) and the card counts over the phases.
- private (one seat): everything about that seat and nothing about any other.
Never on a public page: a living player's card, any AP, a night death's camp, who used which privilege.

Both are built from a `Snapshot` (moderator.public.snapshot) and cached by the views under its fingerprint: the
replay and the rendering happen once per change of the game, not once per request.
"""

from __future__ import annotations

from collections import defaultdict

from cards.catalogue import AMOEBA, ARSON_SAINT, DOOM_PARDON
from moderator.models import Announcement, Game, Phase, Seat
from moderator.public.chart import Chart, card_chart
from moderator.public.replay import Loaded, game_load
from moderator.public.snapshot import Snapshot
from moderator.rules.state import AMOEBA_CAP, GameState
from moderator.services.play import initial_state

PUBLIC_KINDS = (Announcement.Kind.DAWN, Announcement.Kind.DUSK, Announcement.Kind.VOTE_POST)  # never PRIVATE (A5)


# --- the public page -----------------------------------------------------------------------------------------------


def _dead(loaded: Loaded) -> list[dict]:
    """V5: who died at which close; the camp only where the close revealed it (day deaths, and a death by
    yesterday's execution announced at dawn)."""
    dead = []
    for phase in loaded.phases:
        closed = loaded.replay.closed.get(phase.pk)
        if closed is None:
            continue
        for e in closed[1].events:
            if e["type"] == "death":
                dead.append({"name": e["player"], "phase": phase.label, "camp": e.get("camp"), "day": e.get("day")})
    return dead


def _tally(state: GameState) -> dict:
    """D1, D2: the day's votes so far, each weighted by the voter's cards (public); no post counts for oneself;
    a player saved last night has no vote (N7/N8). N13 modifiers are left out: they stay secret until dusk."""
    ballots, totals = [], defaultdict(int)
    for seat in state.alive:
        if seat.name in state.saved:
            ballots.append({"voter": seat.name, "target": None, "weight": 0, "note": "昨夜被救,今天不能投票"})
            continue
        vote = state.votes.get(seat.name)
        target = vote.target if vote else seat.name
        note = "" if vote and not vote.changed else ("已改票" if vote else "未投票,按投自己计(D1)")
        ballots.append({"voter": seat.name, "target": target, "weight": len(seat.hand), "note": note})
        totals[target] += len(seat.hand)
    rows = sorted(totals.items(), key=lambda kv: -kv[1])
    return {"ballots": ballots, "totals": [{"name": n, "total": t} for n, t in rows]}


def _chart(game: Game, loaded: Loaded) -> Chart:
    start = initial_state(game, loaded.seats)
    labels = ["开局"]
    series = {s.name: [len(s.hand)] for s in start.seats}
    for phase in loaded.phases:
        closed = loaded.replay.closed.get(phase.pk)
        if closed is None:
            continue
        labels.append(phase.label)
        for seat in closed[0].seats:
            counts = series[seat.name]
            drawn_zero = counts and counts[-1] in (0, None) and not seat.alive
            counts.append(None if drawn_zero else len(seat.hand))
    return card_chart(labels, list(series.items()))


def public_view(snap: Snapshot) -> dict:
    """Everything the public page body shows (cached under the snapshot's key by the view)."""
    game = snap.full_game
    loaded = game_load(game, snap.phases)
    state = loaded.replay.state
    pending = state.pending_executions
    living = []
    for seat in loaded.seats:
        now = state.seat(seat.player_name)
        if now.alive:
            living.append(
                {
                    "number": seat.number,
                    "name": now.name,
                    "cards": len(now.hand),
                    "no_vote": now.name in state.saved,  # announced at dawn (A2)
                    "executed": now.name in pending,  # announced at dusk (A3); the card's type at dawn (D6)
                }
            )
    phase = snap.current
    day_open = phase is not None and phase.kind == Phase.Kind.DAY and phase.status == Phase.Status.OPEN
    third = state.dealt_total // 3
    announcements = Announcement.objects.filter(game=game, kind__in=PUBLIC_KINDS).only("title", "text", "created_at")
    return {
        "game": game,
        "phase": phase,
        "started": bool(snap.phases),
        "living": living,
        "dead": _dead(loaded),
        "tally": _tally(state) if day_open else None,
        "announcements": list(announcements.order_by("-created_at", "-id")),
        "chart": _chart(game, loaded) if snap.phases else None,
        "lost_total": state.lost_total,
        "marks": [m for m in (third, 2 * third) if third],
        "silence": state.silence,
        "winner": game.winner or state.winner,
    }


# --- a seat's private page -----------------------------------------------------------------------------------------

STATUS_LABELS = {"accepted": "已接受", "refused": "已拒绝", "voided": "已作废"}


def describe_input(kind: str, rec, names: dict[int, str]) -> str:
    if kind == "vote":
        return f"{'改票为' if rec.change else '投票给'} {names[rec.target_id]}" + ("(原帖被编辑)" if rec.edited else "")
    if kind == "order":
        return "丢牌顺序:" + " → ".join(rec.order)
    if rec.use == "立场":
        return f"立场:{rec.side} {rec.mode}"
    text = rec.use + (f"({rec.card})" if rec.card else "")
    if rec.change:
        text = f"更换对象:{text}"
    if rec.target_id:
        text += f" → {names[rec.target_id]}"
    if rec.position:
        text += f",{'第' if rec.position > 0 else '倒数第'}{abs(rec.position)}张"
    if rec.into:
        text += f",变成{rec.into}"
    return text


def _inputs(loaded: Loaded, seat: Seat, phase: Phase) -> list[dict]:
    """This seat's inputs of one phase and what became of them: accepted (with the cost), refused and why, voided."""
    names = {s.pk: s.player_name for s in loaded.seats}
    rows = []
    for rec in loaded.inputs.get(phase.pk, []):
        if rec.seat_id != seat.pk:
            continue
        kind = loaded.kind(rec)
        verdict = loaded.replay.verdicts.get((kind, rec.pk))
        if rec.status == rec.Status.VOIDED or verdict is None:
            status, reason, cost = "voided", rec.reason, 0
        else:
            status, reason, cost = ("accepted" if verdict.accepted else "refused"), verdict.reason, verdict.cost
        rows.append(
            {
                "at": rec.forum_at,
                "what": describe_input(kind, rec, names),
                "status": status,
                "status_label": STATUS_LABELS[status],
                "reason": reason,
                "cost": cost,
            }
        )
    return rows


def _amoebas(me) -> list[dict]:
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
                "done_at": _phase_name(a.done_at) if a and a.done_at else "",
                "forms_used": list(a.forms_used) if a else [],
                "bottom": card.uid == me.hand[-1].uid,
            }
        )
    return out


def _phase_name(phase: tuple[str, int]) -> str:
    return f"第{phase[1]}{'夜' if phase[0] == 'night' else '天'}"


def _once(me) -> dict:
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


def seat_view(seat: Seat, snap: Snapshot) -> dict:
    """Everything one seat's private page body shows — this seat only (cached under the seat and the snapshot key)."""
    loaded = game_load(snap.full_game, snap.phases)
    state = loaded.replay.state
    me = state.seat(seat.player_name)
    phase = snap.current
    closed = [p for p in snap.phases if p.status == Phase.Status.CLOSED]
    earlier = closed[-1] if closed and phase is not None and closed[-1].pk != phase.pk else None
    pending = state.pending_executions.get(me.name)
    return {
        "seat": seat,
        "game": snap.game,
        "phase": phase,
        "me": me,
        "alive": me.alive,
        "camp": me.camp,
        "hand": [{"pos": i + 1, "name": c.name, "bottom": i == len(me.hand) - 1} for i, c in enumerate(me.hand)],
        "pending_card": pending.card.name if pending else None,
        "ap": me.ap,
        "ledger": list(me.ledger),
        "ledger_sum": sum(r.delta for r in me.ledger),
        "inputs": _inputs(loaded, seat, phase) if phase else [],
        "earlier": earlier,
        "earlier_inputs": _inputs(loaded, seat, earlier) if earlier else [],
        "amoebas": _amoebas(me),
        "once": _once(me),
        "orders_open": state.orders_open and phase is not None and phase.status == Phase.Status.OPEN,
        "bottoms_fixed": state.bottoms_fixed,
        "saved": me.name in state.saved,
        "lost_total": state.lost_total,
        "marks": [m for m in (state.dealt_total // 3, 2 * (state.dealt_total // 3)) if m],
        "windows": state.windows,
    }
