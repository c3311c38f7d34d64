"""Each pytest-xdist worker gets resources of its own, before Django reads its settings.

Loaded with ``-p tests.per_worker`` (pyproject's addopts), so it runs in every worker
process before pytest-django imports ``config.settings``. Under xdist (``make test`` runs
``pytest -n 2``) it sets, in the worker's environment, which its subprocesses inherit too:

- ``TIMEKEEPER_VAR_DIR``: ``<var dir>/gw0``, ``gw1``…: the SQLite files, the filesystem
  broker's queue, backups and static files of one worker never meet another's;
- ``CELERY_BROKER_URL``: on Redis, database ``n + i`` for worker ``gwi`` (CI's db 9 and 10):
  the live Celery worker of one pytest process never takes a task the other sent, whose
  rows are in the other's test database.

PostgreSQL needs nothing here: pytest-django names each worker's test database
``test_<name>_gw0``, ``test_<name>_gw1``… by itself. Outside xdist nothing changes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# redis://host:port/9 (the database number last, as settings and .ci/run write it).
REDIS_DB = re.compile(r"^(rediss?://[^/?#]*)(?:/(\d*))?$")


def worker_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The variables to change for the xdist worker ``environ`` names (none outside xdist)."""
    worker = environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return {}
    index = int(worker.removeprefix("gw"))
    var = Path(environ.get("TIMEKEEPER_VAR_DIR") or ROOT / "var") / worker
    changes = {"TIMEKEEPER_VAR_DIR": str(var)}
    broker = REDIS_DB.match(environ.get("CELERY_BROKER_URL", ""))
    if broker:
        changes["CELERY_BROKER_URL"] = f"{broker[1]}/{int(broker[2] or 0) + index}"
    return changes


os.environ.update(worker_environment(os.environ))
