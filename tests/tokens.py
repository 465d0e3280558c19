"""The one-time token a page would carry (moderator/services/once.py), for tests that post a form without fetching
its page first: signed for the client's signed-in account, or for a seat's private link."""

from types import SimpleNamespace

from moderator.services.once import issue_for


def signed(client, kind: str, game=None, *, link: str | None = None) -> dict[str, str]:
    uid = client.session.get("_auth_user_id")
    return issue_for(kind, game, user=SimpleNamespace(pk=uid) if uid else None, link=link)
