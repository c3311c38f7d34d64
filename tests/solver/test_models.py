"""HintRequest: where a job is, in the reader's words."""

from __future__ import annotations

from django.utils import translation

from solver.core.search.search import STAGES
from solver.models import HintRequest

Status = HintRequest.Status


def running(stage: str, round: int = 0, of: int = 0) -> HintRequest:
    return HintRequest(status=Status.RUNNING, stage=stage, stage_round=round, stage_of=of)


def test_stage_labels_are_translated_words() -> None:
    assert running("racing", 2, 4).stage_label() == "Racing plans, round 2 of 4"
    assert running("fine-tuning", 3, 56).stage_label() == "Fine-tuning the best plan, step 3 of 56"
    assert running("choosing").stage_label() == "Comparing plans, clean and with slips"
    assert running("fresh deals", 2, 4).stage_label() == "Checking the plans on fresh deals, 2 of 4"
    assert running("fresh deals").stage_label() == "Checking the best plan on fresh deals"
    assert running("odds").stage_label() == "Working out the odds"
    assert running("something new").stage_label() == "Searching for a plan"
    assert running("search").stage_label() == "Starting"
    with translation.override("nl"):
        dutch = running("racing", 2, 4).stage_label()
    assert dutch != "Racing plans, round 2 of 4"
    assert "2" in dutch and "4" in dutch


def test_every_stage_the_core_reports_has_a_label_of_its_own() -> None:
    fallback = running("something new").stage_label()
    labels = {stage: running(stage, 1, 2).stage_label() for stage in STAGES}
    assert all(label != fallback for stage, label in labels.items() if stage != "done")
    assert len(set(labels.values())) == len(STAGES)


def test_a_finished_or_waiting_job_is_labelled_by_its_status() -> None:
    labels = {
        status: HintRequest(status=status, stage="racing", stage_round=1, stage_of=4)
        for status in (Status.QUEUED, Status.DONE, Status.FAILED, Status.CANCELLED)
    }
    assert [hint.stage_label() for hint in labels.values()] == [
        "Waiting for a free solver",
        "Done",
        "Failed",
        "Cancelled",
    ]
