"""Services: verbs on nouns, keyword-only; they lock rows, load state, call the pure rules and save results."""

from moderator.services.errors import PlayError
from moderator.services.inputs import action_submit, current_order, order_submit, vote_submit
from moderator.services.play import default_orders_assign, phase_close
from moderator.services.setup import (
    SetupError,
    deal_pm,
    game_create,
    game_start,
    player_list_post,
    seat_sign_in,
    seat_substitute,
    table_create,
)
from moderator.services.storage import game_replay

__all__ = [
    "PlayError",
    "SetupError",
    "action_submit",
    "current_order",
    "deal_pm",
    "default_orders_assign",
    "game_create",
    "game_replay",
    "game_start",
    "order_submit",
    "phase_close",
    "player_list_post",
    "seat_sign_in",
    "seat_substitute",
    "table_create",
    "vote_submit",
]
