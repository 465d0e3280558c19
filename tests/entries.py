"""Inputs as the tests enter them: one item of one seat through the one input path (`inputs.write`), returning the
stored input and its verdict. The site itself enters every input as an `inputs.Entry`."""

from moderator.services import inputs
from moderator.services.inputs import Entry
from moderator.services.storage import game_replay


def action_submit(*, game, seat, payload: dict, forum_at, message=None, entered_by=None):
    """A privilege use (or the S4 stance) in the scenario vocabulary."""
    return inputs.write(game, Entry(seat, [payload], forum_at, message, entered_by)).first


def vote_submit(
    *, game, seat, target, change: bool, forum_at, edited: bool = False, entered_by=None, once=None, seen=None
):
    """A vote post (D1–D3): an original vote or a change post, or an edited post whose target is lost."""
    entry = Entry(seat, [inputs.vote_item(target, change=change, edited=edited)], forum_at, entered_by=entered_by)
    return inputs.write(game, entry, once=once, seen=seen).first


def order_submit(*, game, seat, order: list[str], forum_at, message=None):
    """A discard order (O1–O3)."""
    return inputs.write(game, Entry(seat, [{"order": list(order)}], forum_at, message)).first


def current_order(seat) -> list[str]:
    """The seat's discard order as the rules hold it now (O1–O3)."""
    return list(game_replay(seat.game).state.seat(seat.player_name).names)
