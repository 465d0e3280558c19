"""The refusal every verb raises: the message says what would be accepted (the pages show it as it is)."""


class PlayError(ValueError):
    """A refused request about play (no open phase, unknown seat …); the message says what would be accepted."""
