"""Celery tasks of campaigns: the periodic refresh of the community figures, and long
history imports (``campaigns.history.import_jobs``) with the periodic resend of stalled ones.

Statistics read other tables' figures from ``CommunityClock`` rows; this task rewrites them
(``campaigns.statistics.community.refresh_community``) so no request ever scans every group's
history.
It is registered with beat here (``on_after_finalize``), as the solver's periodic tasks are;
``make run`` runs beat inside its worker.
"""

from __future__ import annotations

from typing import Any

from celery import Celery

from campaigns.history import import_jobs
from campaigns.statistics.community import refresh_community
from config.celery import app

REFRESH_COMMUNITY_EVERY = 15 * 60.0  # seconds: other tables' medians move slowly


@app.task(name="campaigns.refresh_community")
def refresh_community_figures() -> int:
    return refresh_community()


# --- long imports (``campaigns.history.import_jobs``) -------------------------------------------

RESUME_IMPORTS_EVERY = 30.0  # seconds: a stalled import is sent again within 90 s


@app.task(name="campaigns.import_history", soft_time_limit=3600, time_limit=3660)
def import_history(job_id: int) -> str:
    return import_jobs.run(job_id)


@app.task(name="campaigns.resume_imports")
def resume_imports() -> int:
    return import_jobs.resume_stalled()


def setup_periodic_tasks(sender: Celery, **kwargs: Any) -> None:
    sender.add_periodic_task(
        REFRESH_COMMUNITY_EVERY, refresh_community_figures.s(), name="statistics: community"
    )
    sender.add_periodic_task(RESUME_IMPORTS_EVERY, resume_imports.s(), name="imports: resume")


app.on_after_finalize.connect(setup_periodic_tasks)
if app.finalized:  # type: ignore[attr-defined]
    # this module was imported (autodiscovery) after the app was finalized
    setup_periodic_tasks(app)
