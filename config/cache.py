"""The shared caches: Redis (``CACHE_URL=redis://…``), else the database.

The cache when CACHE_URL names a Redis server: Django's Redis cache, except that Redis
being down (stopped, restarting, unreachable) is not an error of the request.

The cache holds throttle counts only, never anything a page needs, so while Redis is away
each operation answers as if the cache were empty and writable: a read finds nothing, an
``add`` or ``incr`` counts one, a write is dropped. Throttles then let requests through
(they fail open for those seconds) instead of answering 500, and count again by
themselves once Redis is back.
"""

from __future__ import annotations

import base64
import logging
import pickle
from typing import Any

from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.redis import RedisCache
from django.db import connections, router, transaction
from django.utils.timezone import now as tz_now
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


def _unreachable(operation: str, error: Exception) -> None:
    log.warning("Cache (Redis) unreachable; %s skipped: %s", operation, error)


class ForgivingRedisCache(RedisCache):
    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except UNREACHABLE as error:
            _unreachable("get", error)
            return default

    def get_many(self, keys: Any, version: int | None = None) -> dict[str, Any]:
        try:
            return super().get_many(keys, version)
        except UNREACHABLE as error:
            _unreachable("get_many", error)
            return {}

    def has_key(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().has_key(key, version)
        except UNREACHABLE as error:
            _unreachable("has_key", error)
            return False

    def set(self, key: Any, value: Any, timeout: Any = 300, version: int | None = None) -> None:
        try:
            super().set(key, value, timeout, version)
        except UNREACHABLE as error:
            _unreachable("set", error)

    def set_many(self, data: Any, timeout: Any = 300, version: int | None = None) -> list[Any]:
        try:
            return super().set_many(data, timeout, version)
        except UNREACHABLE as error:
            _unreachable("set_many", error)
            return []

    def add(self, key: Any, value: Any, timeout: Any = 300, version: int | None = None) -> bool:
        try:
            return super().add(key, value, timeout, version)
        except UNREACHABLE as error:
            _unreachable("add", error)
            return True

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        try:
            return super().incr(key, delta, version)
        except UNREACHABLE as error:
            _unreachable("incr", error)
            return delta

    def touch(self, key: Any, timeout: Any = 300, version: int | None = None) -> bool:
        try:
            return super().touch(key, timeout, version)
        except UNREACHABLE as error:
            _unreachable("touch", error)
            return False

    def delete(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().delete(key, version)
        except UNREACHABLE as error:
            _unreachable("delete", error)
            return False

    def clear(self) -> None:
        try:
            super().clear()
        except UNREACHABLE as error:
            _unreachable("clear", error)


SHARED_TABLE = "timekeeper_cache"  # CACHE_URL=db://: made by every migrate (ops.apps)


class SharedDatabaseCache(DatabaseCache):
    """The cache when there is no Redis (``CACHE_URL=db://``, the default with DEBUG off, so
    `make serve`'s two gunicorn processes): Django's database cache, whose table every
    process shares, with an ``incr`` that is one atomic step.

    Django's own ``incr`` reads the value and writes it back (two processes both read 7 and
    both write 8: a throttle would let more through than its limit) and sets a new expiry
    (a window would restart at each request). Here the row is locked while it is read and
    rewritten: SQLite's transactions take the write lock as they begin (``transaction_mode``
    IMMEDIATE in the settings), PostgreSQL's ``SELECT … FOR UPDATE`` locks the row; its
    expiry is left alone. A file cache was the other candidate: its ``incr`` is a read and a
    write with no lock, so it loses counts the same way."""

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote_name = connection.ops.quote_name
        table, value, expires = (
            quote_name(name) for name in (self.cache_model_class._meta.db_table, "value", "expires")
        )
        lock = "" if connection.vendor == "sqlite" else " FOR UPDATE"
        now = tz_now().replace(microsecond=0, tzinfo=None)  # as DatabaseCache.has_key
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {value} FROM {table} WHERE {quote_name('cache_key')} = %s "
                f"AND {expires} > %s{lock}",
                [key, connection.ops.adapt_datetimefield_value(now)],
            )
            row = cursor.fetchone()
            if row is None:
                raise ValueError(f"Key '{key}' not found")
            stored = connection.ops.process_clob(row[0])
            number = pickle.loads(base64.b64decode(stored.encode())) + delta
            encoded = base64.b64encode(pickle.dumps(number, self.pickle_protocol)).decode("latin1")
            cursor.execute(
                f"UPDATE {table} SET {value} = %s WHERE {quote_name('cache_key')} = %s",
                [encoded, key],
            )
        return int(number)
