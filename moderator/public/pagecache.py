"""Pages served from the cache without a database query while their game has not changed (issue 25.4). Reading only:
the versions are changed by the writers (moderator.services.versions).

An entry is stored under the game's version (`versions.current`, taken before the database is read) with the
fingerprint of what it was built from (moderator.public.snapshot: the one query a page costs otherwise). A request:

1. reads the version and, in one round trip, the entry and its "checked" mark: both there and agreeing → the entry
   is served, no query;
2. otherwise runs the fingerprint query: the entry is served if it was built from the same fingerprint (and marked
   checked for PAGES_REVALIDATE_SECONDS), else the page is built from the database and stored.

The mark expires after PAGES_REVALIDATE_SECONDS, so even a write whose version change was lost (a process killed
between its commit and the change, a cache that did not answer then, an edit behind the application's back) is seen
within that time. With a per-process cache (LocMemCache, several processes) a version changed in another process is
not seen here: PAGES_REVALIDATE_SECONDS is then 0 and every request makes the fingerprint query (one query, as before).
Whatever the cache does — empty, evicted, unreachable — the page comes from the database, never stale.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings

from moderator.services import versions

log = logging.getLogger(__name__)

PAGE_SECONDS = 3600  # an entry of a game nobody changes lives this long (then: built again)


def revalidate_seconds() -> float:
    return float(getattr(settings, "PAGES_REVALIDATE_SECONDS", 0))


def _get_many(keys: list[str]) -> dict[str, Any]:
    try:
        return versions.cache().get_many(keys)
    except Exception:
        log.warning("page cache unreadable", exc_info=True)
        return {}


def _set_many(values: dict[str, Any], seconds: float) -> None:
    try:
        versions.cache().set_many(values, seconds)
    except Exception:
        log.warning("page cache not written", exc_info=True)


def token_key(token: str) -> str:
    """A private link's cache name: a digest, never the token itself (a cache is not a secret store)."""
    return hashlib.sha256(token.encode()).hexdigest()[:40]


def token_game(token: str) -> int | None:
    """The game of a private link seen before (a link never moves to another game; a rotated one finds no page)."""
    return _get_many([f"pages:token:{token_key(token)}"]).get(f"pages:token:{token_key(token)}")


def token_game_remember(token: str, game_id: int) -> None:
    _set_many({f"pages:token:{token_key(token)}": game_id}, versions.VERSION_SECONDS)


def page(
    game_id: int | None,
    name: str,
    fingerprint: Callable[[], tuple[str, Any] | None],
    build: Callable[[Any], Any],
) -> Any:
    """Page `name` of game `game_id` (None: not known yet — then nothing is stored), from the cache when it is
    current, else built. `fingerprint()` is the one query: (fingerprint, what `build` needs) or None (no such game
    or link: None is returned and nothing is stored). `build(snapshot)` renders from the database."""
    version = versions.current(game_id) if game_id is not None else None
    seconds = revalidate_seconds()
    entry = None
    if version is not None:
        key = f"pages:{game_id}:{version}:{name}"
        found = _get_many([key, key + ":ok"])
        entry = found.get(key)
        if entry is not None and seconds > 0 and found.get(key + ":ok") == entry[0]:
            return entry[1]  # current, and checked against the database less than `seconds` ago: no query
    loaded = fingerprint()
    if loaded is None:
        return None
    fp, snap = loaded
    if entry is not None and entry[0] == fp:
        value = entry[1]
        store = {}
    else:
        value = build(snap)
        store = {key: (fp, value)} if version is not None else {}
    if store:
        _set_many(store, PAGE_SECONDS)
    if version is not None:
        if seconds > 0:
            _set_many({key + ":ok": fp}, seconds)
    return value
