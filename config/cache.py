"""The cache when CACHE_URL names a Redis server: Django's Redis cache, except that Redis
being down (stopped, restarting, unreachable) is not an error of the request.

The cache holds throttle counts only, never anything a page needs, so while Redis is away
each operation answers as if the cache were empty and writable: a read finds nothing, an
``add`` or ``incr`` counts one, a write is dropped. Throttles then let requests through
(they fail open for those seconds) instead of answering 500, and count again by
themselves once Redis is back.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache.backends.redis import RedisCache
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
