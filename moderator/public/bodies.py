"""The bodies of the public game page and of the players' private pages (templates/public/_game_body.html,
_seat_body.html): what each shows, read from the game.

What may be shown where (docs/rules.md A1–A5, V5):
- public: phases, countdown, living players and their card counts, the dead (camp only for day deaths, V5), the live
  weighted tally of an open day without the N13 modifiers (secret until the dusk post), the public announcements
  (dawn, dusk, vote posts — never the private drafts) and the card counts over the phases.
- private (one seat): everything about that seat and nothing about any other.
Never on a public page: a living player's card, any AP, a night death's camp, who used which privilege.

Both are built from a `Snapshot` (moderator.public.snapshot) and cached by the views under its fingerprint: the
replay and the rendering happen once per change of the game, not once per request.
"""

from __future__ import annotations

from moderator.models import Announcement, Game, Phase, Seat
from moderator.public.chart import Chart, card_chart
from moderator.public.snapshot import Snapshot
from moderator.rules import views
from moderator.services import selfentry
from moderator.services.closing import initial_state
from moderator.services.posts import span
from moderator.services.storage import closed_states, game_replay
from moderator.web.inputs import phase_rows

PUBLIC_KINDS = (
    Announcement.Kind.DAWN,
    Announcement.Kind.DUSK,
    Announcement.Kind.VOTE_POST,
    Announcement.Kind.NOTICE,
)  # never PRIVATE (A5)


# --- the public page -----------------------------------------------------------------------------------------------


def public_announcements(game: Game):
    """The announcement archive of the public page, newest first: what the 天神 marked posted on the forum (dawn,
    dusk, vote posts, notices — a substitution, a 更正公告, the final summary), a superseded one under its 〔已更正〕
    title. Every side door (the Atom feed) reads this and nothing else: an unposted draft is not public yet (A1–A5)."""
    return (
        Announcement.objects.filter(game=game, kind__in=PUBLIC_KINDS, posted_at__isnull=False)
        .only("game_id", "title", "text", "created_at")
        .order_by("-created_at", "-id")
    )


def _dead(phases: list[Phase], state=None) -> list[dict]:
    """V5: who died at which close, as the rules' public view of each stored result says (a self-chosen's stance
    from `state`, the state now: a dead seat's stance no longer changes)."""
    return [
        {**death, "phase": phase.label}
        for phase in phases
        if phase.status == Phase.Status.CLOSED
        for death in views.public_deaths(phase.result or {}, state)
    ]


def _chart(game: Game, phases: list[Phase], seats: list[Seat]) -> Chart:
    start = initial_state(game, seats)
    labels = ["开局"]
    series: dict[str, list[int | None]] = {s.name: [len(s.hand)] for s in start.seats}
    states = closed_states(game, phases, seats)
    for phase in phases:
        state = states.get(phase.pk)
        if state is None:
            continue
        labels.append(phase.label)
        for seat in state.seats:
            counts = series[seat.name]
            drawn_zero = counts and counts[-1] in (0, None) and not seat.alive
            counts.append(None if drawn_zero else len(seat.hand))
    return card_chart(labels, list(series.items()))


def game_body(snap: Snapshot) -> dict:
    """Everything the public page body shows (cached under the snapshot's key by the view): the rules' public view
    of the state now, labelled with seat numbers, and the public announcements."""
    game = snap.full_game
    seats = list(game.seats.order_by("number"))
    state = game_replay(game, seats=seats, phases=snap.phases).state
    view = views.public_view(state)
    number = {s.player_name: s.number for s in seats}
    for row in view["living"]:
        row["number"] = number[row["name"]]
    phase = snap.current
    if phase is None or phase.status != Phase.Status.OPEN:
        view["tally"] = None
    return {
        **view,
        "game": game,
        "phase": phase,
        "started": bool(snap.phases),
        "dead": _dead(snap.phases, state),
        "announcements": list(public_announcements(game)),
        "chart": _chart(game, snap.phases, seats) if snap.phases else None,
        "winner": game.winner or view["winner"],
    }


# --- a seat's private page -----------------------------------------------------------------------------------------


def seat_body(seat: Seat, snap: Snapshot) -> dict:
    """Everything one seat's private page body shows — the rules' view of this seat only, and this seat's inputs
    with their verdicts (cached under the seat and the snapshot key)."""
    game = snap.full_game
    seats = list(game.seats.order_by("number"))
    state = game_replay(game, seats=seats, phases=snap.phases).state
    names = {s.number: s.player_name for s in seats}
    phase = snap.current
    closed = [p for p in snap.phases if p.status == Phase.Status.CLOSED]
    earlier = closed[-1] if closed and phase is not None and closed[-1].pk != phase.pk else None
    view = views.seat_view(state, seat.player_name)
    return {
        **view,
        "seat": seat,
        "game": snap.game,
        "phase": phase,
        "me": state.seat(seat.player_name),
        "inputs": phase_rows(phase, names, seat) if phase else [],
        "earlier": earlier,
        "earlier_inputs": phase_rows(earlier, names, seat) if earlier else [],
        "orders_open": view["orders_open"] and phase is not None and phase.status == Phase.Status.OPEN,
        "ordered": view["ordered"] or game.hands_are_orders,
        "self_entry": game.self_entry,  # the link to the action page, and what is still missing
        "phase_span": span(game.phase_seconds),  # O1: the first phase's length, as the page says it
        "missing": selfentry.missing(game, seat, state) if game.self_entry and phase is not None else [],
    }
