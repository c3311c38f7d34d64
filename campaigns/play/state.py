"""Where a campaign stands, computed from its progress rows: the stack, the Sleeve, the open
chapters, Rebirth (docs/game.md, "After an attempt", "End of the game")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from campaigns.models import Campaign, ClockProgress
from rules.catalogue import CLOCK_IDS
from rules.clock import REBIRTH
from rules.game import CHAPTERS, CLOCKS_PER_CHAPTER, chapter_of

NUMBERED_CLOCKS: tuple[str, ...] = tuple(c for c in CLOCK_IDS if c != REBIRTH)
Status = ClockProgress.Status


@dataclass
class CampaignState:
    """What the table needs to know, computed from the progress rows (one query)."""

    campaign: Campaign
    rows: list[ClockProgress]
    by_id: dict[str, ClockProgress] = field(init=False)

    def __post_init__(self) -> None:
        self.by_id = {row.clock_id: row for row in self.rows}

    @property
    def bonus_tokens(self) -> int:
        return self.campaign.bonus_tokens

    def stack(self) -> list[str]:
        """Clocks still to play, in order: those put back on top, then the stack."""
        top = [c for c in self.campaign.stack_top if self.by_id[c].status == Status.UPCOMING]
        rest = [
            r.clock_id for r in self.rows if r.status == Status.UPCOMING and r.clock_id not in top
        ]
        return top + rest

    @property
    def next_clock(self) -> str | None:
        stack = self.stack()
        return stack[0] if stack else None

    @property
    def passed(self) -> list[str]:
        return [r.clock_id for r in self.rows if r.status == Status.PASSED]

    @property
    def sleeve(self) -> list[str]:
        return [r.clock_id for r in self.rows if r.status == Status.SLEEVE]

    @property
    def attempted(self) -> int:
        """Numbered clocks attempted (passed, or played at least once)."""
        return sum(1 for r in self.rows if r.clock_id != REBIRTH and r.attempted)

    @property
    def attempts(self) -> int:
        return sum(r.attempts for r in self.rows)

    @property
    def completed(self) -> bool:
        return all(r.status == Status.PASSED for r in self.rows)

    @property
    def rebirth_unlocked(self) -> bool:
        return self.attempted == len(NUMBERED_CLOCKS)

    def chapter_open(self, chapter: int) -> bool:
        """A chapter opens once every clock of the chapters before it is passed or skipped."""
        return all(
            self.by_id[f"{c}-{n}"].status != Status.UPCOMING
            for c in range(CHAPTERS[0], chapter)
            for n in range(1, CLOCKS_PER_CHAPTER + 1)
        )

    def clock_open(self, clock_id: str) -> bool:
        """May the group see ``clock_id``? The spoiler rule, decided here only (pages, API,
        community and hints ask this): a numbered clock once its chapter is open; the
        Rebirth clock in a Rebirth campaign, or once Rebirth is unlocked."""
        chapter = chapter_of(clock_id)
        if chapter is None:
            return self.campaign.kind == Campaign.Kind.REBIRTH or self.rebirth_unlocked
        return self.chapter_open(chapter)

    @property
    def chapter(self) -> int:
        """The chapter the group has reached (the highest open one)."""
        return max(c for c in CHAPTERS if self.chapter_open(c))

    def face_up(self, players: int) -> int:
        return players + self.bonus_tokens

    def to_json(self) -> dict[str, Any]:
        """The public ``GET /api/groups/{id}/progress/`` object (docs/api.md)."""
        return {
            "campaign": self.campaign.pk,
            "kind": self.campaign.kind,
            "chapter": self.chapter,
            "clock": self.next_clock,
            "bonus_tokens": self.bonus_tokens,
            "passed": self.passed,
            "sleeve": self.sleeve,
            "attempted": self.attempted,
            "attempts": self.attempts,
            "completed": self.completed,
            "rebirth_unlocked": self.rebirth_unlocked,
            "version": campaign_version(self.campaign),
        }


def campaign_state(campaign: Campaign) -> CampaignState:
    return CampaignState(campaign, list(campaign.progress.order_by("position")))


def clock_ids(kind: str) -> list[str]:
    return [*NUMBERED_CLOCKS, REBIRTH] if kind == Campaign.Kind.REBIRTH else list(NUMBERED_CLOCKS)


def lock_campaign(campaign_id: int) -> Campaign:
    """The campaign row, locked until the transaction ends: every change of a campaign takes
    this lock first, so two phones at one table never interleave."""
    return Campaign.objects.select_for_update().get(pk=campaign_id)


def campaign_version(campaign: Campaign) -> int:
    """The campaign's version: the id of its last event (undos included), 0 before any."""
    return campaign.events.order_by("-id").values_list("id", flat=True).first() or 0
