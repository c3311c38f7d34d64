"""Each finished hint's pass curve (``solver.core.table.slip_rate.pass_curve``), computed
once and kept on its row, so the table's own slip rate (``campaigns.statistics.table_rate``)
is read from the database and no statistics request runs the engine.

The hint job computes its curve right after storing the result; hints answered from the plan
book (no job) and hints older than the curves are filled by beat, a few at a time.
"""

from __future__ import annotations

import logging

from rules.errors import RulesError
from solver.core.table.slip_rate import GRID, pass_curve
from solver.models import HintRequest

log = logging.getLogger(__name__)

FILL_EVERY = 60.0  # seconds between beat's rounds
FILL_BATCH = 20  # hints per round: about a second of CPU each


def curve_of(hint: HintRequest) -> dict[str, list[float]]:
    """The hint's recommended plan replayed at every rate, on its colours and budget; {}
    where there is none to compute."""
    plan = hint.read_plan((hint.result or {}).get("plan"))
    if plan is None:
        return {}
    try:
        passes = pass_curve(hint.clock().known_rules(), hint.seats(), plan, hint.face_up)
    except (RulesError, ValueError) as error:
        log.warning("Hint %s: no pass curve (%s)", hint.pk, error)
        return {}
    return {} if passes is None else {"rates": list(GRID), "passes": passes}


def fill(hint_id: int) -> bool:
    """Compute and keep the curve of a finished hint that has none; False if it had one
    already or is not done. Written only where still missing: two fillers write once."""
    hint = HintRequest.objects.filter(
        pk=hint_id, status=HintRequest.Status.DONE, pass_curve__isnull=True
    ).first()
    if hint is None:
        return False
    curve = curve_of(hint)
    return bool(
        HintRequest.objects.filter(pk=hint_id, pass_curve__isnull=True).update(pass_curve=curve)
    )


def fill_missing(limit: int = FILL_BATCH) -> int:
    """Fill the curves of up to ``limit`` finished hints asked for a group, newest first
    (the ones a table's rate reads first)."""
    ids = HintRequest.objects.filter(
        status=HintRequest.Status.DONE, group__isnull=False, pass_curve__isnull=True
    ).values_list("pk", flat=True)[:limit]
    return sum(fill(hint_id) for hint_id in ids)
