"""The one-time token a page would carry (moderator/services/once.py), for tests that post a form without fetching
its page first: signed for the client's signed-in account, or for a seat's private link."""

from types import SimpleNamespace

from moderator.models import Game
from moderator.services.once import issue, link_who, open_phase_id


def signed(client, kind: str, game=None, *, link: str | None = None) -> dict[str, str]:
    uid = client.session.get("_auth_user_id")
    return issue_for(kind, game, user=SimpleNamespace(pk=uid) if uid else None, link=link)


def issue_for(kind: str, game: Game | None = None, *, user=None, link: str | None = None) -> dict[str, str]:
    """The hidden fields a page would carry for this form (a test that posts without the page): signed for
    the seat whose private link is `link`, else for `user`."""
    if link:
        who = link_who(link)
    else:
        who = f"u:{user.pk}" if user is not None else "-"
    phase_id = open_phase_id(game)
    token = issue(kind=kind, game_id=getattr(game, "pk", None), phase_id=phase_id, who=who)
    return {"once": token, "phase": "" if phase_id is None else str(phase_id)}
