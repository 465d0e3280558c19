"""Until services/setup.py imports it from its new home: the verb lives in moderator.services.seats."""

from moderator.services.seats import seat_token_rotate as seat_token_rotate
