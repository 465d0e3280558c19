"""Page versions: one value per game in the shared cache, changed after every write that commits, so that
the public and private pages can be served from the cache without a database query while nothing has changed.

Writers call `bump_on_commit(game_id)` (every verb does, through `base.game_lock`, the close, and the model signals
below for any ORM save of what the pages show). It changes nothing at once: the game's version is replaced by a new
random value right after the transaction commits (`transaction.on_commit`), once per game and transaction whatever
the number of calls; a rolled-back transaction changes nothing. Readers (moderator.public.pagecache) take the current
version with `current(game_id)` *before* reading the database, so a page stored under a version is never older than
the version: a page built from a read that missed a commit is stored under the version that commit's bump replaces.

Versions are random, never counters: a version evicted from the cache and made again is a new value, so a page
cached under an old one can never be mistaken for current. `current` returns None — render from the database — when
the cache does not answer, and while this connection's own transaction has a write of the game not yet committed (its
view of the game is not everyone's: it must neither read nor fill the shared cache).
"""

from __future__ import annotations

import logging
import secrets

from django.conf import settings
from django.core.cache import caches
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models.signals import post_delete, post_save

_log = logging.getLogger(__name__)

VERSION_SECONDS = 7 * 24 * 3600  # an unused game's version leaves the cache after a week (then: a new one, a miss)


def cache():
    return caches[getattr(settings, "PAGES_CACHE", "default")]


def key(game_id: int) -> str:
    return f"pages:v:{game_id}"


def bump(*game_ids: int) -> None:
    """Give these games new versions now (after a commit: see `bump_on_commit`). A cache that does not answer is
    logged: its pages are then checked against the database within PAGES_REVALIDATE_SECONDS (pagecache)."""
    if not game_ids:
        return
    try:
        cache().set_many({key(g): secrets.token_hex(8) for g in game_ids}, VERSION_SECONDS)
    except Exception:
        _log.exception("page versions of games %s not changed: the cache did not answer", sorted(game_ids))


class _Bumps:
    """One on-commit callback per transaction: the games it wrote."""

    def __init__(self) -> None:
        self.games: set[int] = set()
        self.done = False

    def __call__(self) -> None:
        self.done = True
        bump(*sorted(self.games))


def _waiting(conn) -> _Bumps | None:
    for _sids, func, *_ in reversed(conn.run_on_commit):
        if isinstance(func, _Bumps) and not func.done:
            return func
    return None


def bump_on_commit(game_id: int | None, using: str = DEFAULT_DB_ALIAS) -> None:
    """The pages of this game change when this transaction commits (outside a transaction: now)."""
    if game_id is None:
        return
    conn = connections[using]
    if not conn.in_atomic_block:
        bump(game_id)
        return
    bumps = _waiting(conn)
    if bumps is None:
        bumps = _Bumps()
        transaction.on_commit(bumps, using=using, robust=True)
    bumps.games.add(game_id)


def pending(game_id: int, using: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether this connection's open transaction wrote this game (its bump still to come)."""
    conn = connections[using]
    if not conn.in_atomic_block:
        return False
    return any(isinstance(f, _Bumps) and not f.done and game_id in f.games for _s, f, *_ in conn.run_on_commit)


def current(game_id: int, known: str | None = None) -> str | None:
    """The game's version (`known`: as the caller just read it), made if the cache has none; None when the pages
    must come from the database (the cache does not answer, or this connection has an uncommitted write of the
    game)."""
    if pending(game_id):
        return None
    if known is not None:
        return known
    try:
        store = cache()
        version = store.get(key(game_id))
        if version is None:
            store.add(key(game_id), secrets.token_hex(8), VERSION_SECONDS)
            version = store.get(key(game_id))
        return version
    except Exception:
        _log.warning("page version of game %s unreadable: the cache did not answer", game_id, exc_info=True)
        return None


# --- every ORM save of what the pages show (the admin, set-up, import, rotation, drafts…) --------------------------


def _game_of(instance) -> int | None:
    from moderator.models import Game

    if isinstance(instance, Game):
        return instance.pk
    game_id = getattr(instance, "game_id", None)
    if game_id is not None:
        return game_id
    cached = instance._state.fields_cache  # a seat holder's seat, a void's input: only when already loaded
    for name in ("seat", "input"):
        related = cached.get(name)
        if related is not None:
            return getattr(related, "game_id", None)
    return None


def _changed(sender, instance, using=DEFAULT_DB_ALIAS, **kwargs) -> None:
    bump_on_commit(_game_of(instance), using=using)


def connect_signals() -> None:
    from moderator import models as m

    for model in (m.Game, m.Seat, m.SeatHolder, m.Phase, m.Input, m.InputVoid, m.Announcement, m.AuditLog):
        post_save.connect(_changed, sender=model, dispatch_uid=f"pages-version-save-{model.__name__}")
        post_delete.connect(_changed, sender=model, dispatch_uid=f"pages-version-delete-{model.__name__}")
