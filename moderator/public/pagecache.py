"""Pages served from the cache without a database query while their game has not changed. Reading only: the versions
are changed by the writers (moderator.services.versions).

An entry is stored with the game's version (`versions.current`, taken before the database is read) and the
fingerprint of what it was built from (moderator.public.snapshot: the one query a page costs otherwise). A request:

1. reads, in one round trip, the entry, its "checked" mark and the game's version (a private link: the entry names
   its game, the version is a second round trip): the entry's version is the game's and the mark agrees → the entry
   is served, no query;
2. otherwise runs the fingerprint query: the entry of the current version is served if it was built from the same
   fingerprint (and marked checked for PAGES_REVALIDATE_SECONDS), else the page is built from the database and
   stored with the version read before.

Each web process also keeps the entries it served in its own memory (the last LOCAL_PAGES of them): a request
whose entry is there reads only the game's version and the "checked" mark from the shared cache, two short values in
one round trip, instead of the whole page (≈ 15–20 kB to receive and unpickle: about half of what a cached page cost
the web process). It is served under the conditions of step 1, checked against its own copy: its version is the game's
and the mark agrees with its fingerprint (a page built from the database state the mark was last checked against);
otherwise the request goes on as above.

An entry of another version is never served. The mark expires after PAGES_REVALIDATE_SECONDS, so even a write whose
version change was lost (a process killed between its commit and the change, a cache that did not answer then, an
edit behind the application's back) is seen within that time. With a per-process cache (LocMemCache, several
processes) a version changed in another process is not seen here: PAGES_REVALIDATE_SECONDS is then 0 and every
request makes the fingerprint query (one query, as before). Whatever the cache does — empty, evicted, unreachable —
the page comes from the database, never stale.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.conf import settings

from moderator.services import versions

_log = logging.getLogger(__name__)

PAGE_SECONDS = 3600  # an entry of a game nobody changes lives this long (then: built again)


LOCAL_PAGES = 256  # entries a web process keeps in its own memory, the least recently served dropped first

_local: OrderedDict[str, tuple] = OrderedDict()  # name → (game id, version, fingerprint, value), as stored
_local_lock = threading.Lock()


def _mine(key: str) -> tuple | None:
    with _local_lock:
        entry = _local.get(key)
        if entry is not None:
            _local.move_to_end(key)
        return entry


def _keep(key: str, entry: tuple | None) -> None:
    """Remember the entry this process serves under `key` (None: forget it)."""
    with _local_lock:
        if entry is None:
            _local.pop(key, None)
            return
        _local[key] = entry
        _local.move_to_end(key)
        while len(_local) > LOCAL_PAGES:
            _local.popitem(last=False)


def _current_here(key: str, ok_key: str, game_id: int | None) -> tuple | None:
    """This process's entry if step 1 would serve it (one round trip for the version and the mark), else None."""
    mine = _mine(key)
    if mine is None:
        return None
    game_id = mine[0] if game_id is None else game_id
    version_key = versions.key(game_id)
    found = _get_many([ok_key, version_key])
    version = found.get(version_key)
    if version is None or version != mine[1] or found.get(ok_key) != mine[2]:
        return None
    if versions.pending(game_id):  # this connection has the game's write uncommitted: its view is not everyone's
        return None
    return mine


def revalidate_seconds() -> float:
    return float(getattr(settings, "PAGES_REVALIDATE_SECONDS", 0))


def _get_many(keys: list[str]) -> dict[str, Any]:
    try:
        return versions.cache().get_many(keys)
    except Exception:
        _log.warning("page cache unreadable", exc_info=True)
        return {}


def _set_many(values: dict[str, Any], seconds: float) -> None:
    try:
        versions.cache().set_many(values, seconds)
    except Exception:
        _log.warning("page cache not written", exc_info=True)


def token_key(token: str) -> str:
    """A private link's cache name: a digest, never the token itself (a cache is not a secret store)."""
    return hashlib.sha256(token.encode()).hexdigest()[:40]


def page(
    name: str,
    game: int | Callable[[Any], int],
    fingerprint: Callable[[], tuple[str, Any] | None],
    build: Callable[[Any], Any],
) -> Any:
    """Page `name` of a game, from the cache when it is current, else built. `game`: the game's id, or a function
    giving it from what `fingerprint` loaded (a private link, whose entry names its game once stored).
    `fingerprint()` is the one query: (fingerprint, what `build` needs) or None (no such game or link: None is
    returned, nothing stored). `build(snapshot)` renders from the database."""
    key, ok_key = f"pages:{name}", f"pages:{name}:ok"
    game_id = game if isinstance(game, int) else None
    seconds = revalidate_seconds()
    if seconds > 0 and (mine := _current_here(key, ok_key, game_id)) is not None:
        return mine[3]  # the value may itself be None (a game without a phase yet: the feed's newest phase)
    found = _get_many([key, ok_key] if game_id is None else [key, ok_key, versions.key(game_id)])
    entry = found.get(key)  # (game id, version, fingerprint, value)
    loaded = None
    if game_id is None:
        if entry is not None:
            game_id = entry[0]
        else:  # a link not seen yet: its game from the database
            loaded = fingerprint()
            if loaded is None:
                return None
            game_id = game(loaded[1])  # type: ignore[operator]
        version = versions.current(game_id)
        if version is not None:
            loaded = None  # to be stored: read again, after the version
    else:
        version = versions.current(game_id, known=found.get(versions.key(game_id)))
    if entry is None or version is None or entry[1] != version:
        entry = None  # another version's page is never served
    elif seconds > 0 and found.get(ok_key) == entry[2]:
        _keep(key, entry)
        return entry[3]  # current, and checked against the database less than `seconds` ago: no query
    loaded = loaded or fingerprint()
    if loaded is None:
        _keep(key, None)
        return None
    fp, snap = loaded
    if entry is not None and entry[2] == fp:
        value = entry[3]
    else:
        value = build(snap)
        if version is not None:
            entry = (game_id, version, fp, value)
            _set_many({key: entry}, PAGE_SECONDS)
    if version is not None and seconds > 0:
        _set_many({ok_key: fp}, seconds)
        _keep(key, entry)
    return value
