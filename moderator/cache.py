"""Django's Redis cache, keeping its Redis client (a cached page costs a cache round trip or two).

Django's RedisCacheClient makes a new `redis.Redis` for every operation, and redis-py's constructor fills its table
of ~170 response callbacks each time: measured here, that was most of the client's CPU for one `get_many` of a cached
page. This one makes one client per connection pool (a client only borrows connections from its pool, so sharing it
is what redis-py intends) — the same commands, the same pools, the same options.
"""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class _KeptClient(RedisCacheClient):
    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        clients = self.__dict__.setdefault("_clients", {})
        client = clients.get(id(pool))
        if client is None:
            client = clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _KeptClient
