"""What a group's statistics are made of: the dataclasses the page, the API and the CSV
read (``Statistics`` and its parts), the constants of the contract and the small sums they
share. The definitions are in ``campaigns.statistics.compute``."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta

from campaigns.models import Attempt
from campaigns.statistics.table_rate import TableRate
from rules.catalogue import CLOCK_IDS
from rules.clock import REBIRTH
from rules.game import BONUS_TOKENS, PLAYER_COUNTS

NUMBERED = tuple(c for c in CLOCK_IDS if c != REBIRTH)


TABLE_SIZES = tuple(PLAYER_COUNTS)


TOKENS_FACE_UP = tuple(range(BONUS_TOKENS + 1))  # Bonus tokens face up during an attempt


COMMUNITY_MIN_GROUPS = 5


HINT_MATCH_WINDOW = timedelta(hours=24)


HINT_BINS = 5  # of width 0.2


WILSON_Z = 1.959963984540054  # 95 %


PASSED = Attempt.Outcome.PASSED


FAILED = Attempt.Outcome.FAILED


class UnknownCampaign(LookupError):
    """The campaign asked for is not one of the group's (the outlets answer 404)."""


def wilson(passes: int, attempts: int) -> tuple[float, float] | None:
    """The Wilson score 95 % interval of a pass rate; None without attempts."""
    if attempts == 0:
        return None
    z2 = WILSON_Z**2
    rate = passes / attempts
    centre = (rate + z2 / (2 * attempts)) / (1 + z2 / attempts)
    half = (
        WILSON_Z
        * math.sqrt(rate * (1 - rate) / attempts + z2 / (4 * attempts**2))
        / (1 + z2 / attempts)
    )
    return (max(0.0, centre - half), min(1.0, centre + half))


def lower_median(values: Iterable[int]) -> int | None:
    ordered = sorted(values)
    return ordered[(len(ordered) - 1) // 2] if ordered else None


def histogram_lower_median(histogram: dict[int, int]) -> int | None:
    """The lower median of the values a {value: how many} histogram holds."""
    total = sum(n for n in histogram.values() if n > 0)
    if total == 0:
        return None
    wanted = (total - 1) // 2
    seen = 0
    for value in sorted(histogram):
        seen += max(histogram[value], 0)
        if seen > wanted:
            return value
    return None  # pragma: no cover - the loop always reaches the median


@dataclass(frozen=True)
class Tally:
    attempts: int = 0
    passes: int = 0

    @property
    def rate(self) -> float | None:
        return self.passes / self.attempts if self.attempts else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson(self.passes, self.attempts)

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.attempts + other.attempts, self.passes + other.passes)


@dataclass(frozen=True)
class Community:
    groups: int
    median_attempts_to_pass: int


@dataclass
class ClockFigures:
    clock: str
    chapter: int | None
    attempts: int = 0
    passes: int = 0
    skips: int = 0
    attempts_to_pass: int | None = None
    first_try: bool = False
    minutes: int | None = None
    community: Community | None = None
    opened: bool = False  # the group has opened its chapter (the page hides the rest)


@dataclass
class ChapterFigures:
    chapter: int
    attempts: int = 0
    passes: int = 0
    clocks_passed: int = 0
    opened: bool = False


@dataclass
class PlayerFigures:
    id: int
    name: str
    attempts: int
    passes: int
    opened: int
    opened_passes: int

    @property
    def rate(self) -> float | None:
        return Tally(self.attempts, self.passes).rate

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson(self.passes, self.attempts)


@dataclass
class SessionFigures:
    id: int
    campaign: int
    date: date
    attempts: int
    passes: int
    clocks_passed_after: int
    minutes: int | None


@dataclass(frozen=True)
class Run:
    outcome: str
    length: int


@dataclass
class Streaks:
    longest_pass: int = 0
    longest_fail: int = 0
    current: Run | None = None


@dataclass
class HintBin:
    start: float
    end: float
    hints: int = 0
    predicted: float | None = None
    actual: float | None = None


@dataclass
class TableCalibration:
    """The rated hints that have a pass curve, their predictions read off it at the table's
    own slip rate (``slip_rate``): the same bins and Brier score as ``HintFigures``, and
    ``brier_default``, the Brier score of the same hints read at the default 0.05."""

    slip_rate: float
    rated: int = 0
    predicted_mean: float | None = None
    actual_rate: float | None = None
    brier: float | None = None
    brier_default: float | None = None
    bins: list[HintBin] = field(default_factory=list)


@dataclass
class HintFigures:
    asked: int = 0
    rated: int = 0
    predicted_mean: float | None = None
    actual_rate: float | None = None
    brier: float | None = None
    bins: list[HintBin] = field(default_factory=list)
    # The predictions at the table's own rate; None while the table has no estimate.
    at_table: TableCalibration | None = None


@dataclass
class CampaignLine:
    """One campaign on the progress chart: clocks passed after each of its sessions."""

    id: int
    number: int  # 1 for the group's first campaign
    kind: str
    sessions: list[SessionFigures]


@dataclass
class Statistics:
    campaigns: list[int]  # the scope
    players_filter: int | None
    totals: dict[str, int | None]
    clocks: list[ClockFigures]
    chapters: list[ChapterFigures]
    players: list[PlayerFigures]
    by_players: dict[str, Tally]  # "2", "3", "4" (the API's keys)
    by_bonus_tokens: dict[str, Tally]  # "0" … "3": tokens face up during the attempt
    sessions: list[SessionFigures]
    streaks: Streaks
    hints: HintFigures
    table: TableRate  # the table's own slip rate, over all its campaigns and sizes
    # For the page: every campaign of the group (the filter and the progress chart) and the
    # Sleeve of Regrets (clocks put back on the stack).
    all_campaigns: list[CampaignLine]
    retrievals: int
    clocks_retrieved: int
    sharing: bool

    @property
    def empty(self) -> bool:
        return not self.totals["attempts"]
