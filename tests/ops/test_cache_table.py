"""migrate makes the shared cache's table whatever cache the migrating process uses itself:
the suite migrates with a per-process cache, then serves the same database from processes
with production's settings (CACHE_URL=db://), which read and write that table."""

from __future__ import annotations

import pytest
from django.db import connection

from config.cache import SHARED_TABLE

pytestmark = pytest.mark.django_db


def test_a_migrated_database_has_the_shared_cache_table() -> None:
    assert SHARED_TABLE in connection.introspection.table_names()
