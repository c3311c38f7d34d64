"""Celery tasks of campaigns: the periodic refresh of the community figures.

Statistics read other tables' figures from ``CommunityClock`` rows; this task rewrites them
(``campaigns.statistics.refresh_community``) so no request ever scans every group's history.
It is registered with beat here (``on_after_finalize``), as the solver's periodic tasks are;
``make run`` runs beat inside its worker.
"""

from __future__ import annotations

from typing import Any

from celery import Celery

from campaigns.statistics import refresh_community
from config.celery import app

REFRESH_COMMUNITY_EVERY = 15 * 60.0  # seconds: other tables' medians move slowly


@app.task(name="campaigns.refresh_community")
def refresh_community_figures() -> int:
    return refresh_community()


def setup_periodic_tasks(sender: Celery, **kwargs: Any) -> None:
    sender.add_periodic_task(
        REFRESH_COMMUNITY_EVERY, refresh_community_figures.s(), name="statistics: community"
    )


app.on_after_finalize.connect(setup_periodic_tasks)
if app.finalized:  # type: ignore[attr-defined]
    # this module was imported (autodiscovery) after the app was finalized
    setup_periodic_tasks(app)
