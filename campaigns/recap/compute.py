"""What an evening adds up to, from the session's attempts, the campaign's skips that day and
the hints asked that day. Read-only; worded in the active language by ``recap_rows``."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.models import Attempt, Event, Session
from rules.game import chapter_of
from rules.hint_result import read as read_result


@dataclass
class HintOutcome:
    clock: str
    predicted: float | None  # the hint's simulated pass rate
    passed: bool | None  # the attempt it was followed by that evening, if any


@dataclass
class Recap:
    group: str
    date: str
    players: list[str]
    passed: int = 0
    failed: int = 0
    chapter: int | None = None
    bonus_tokens: int = 0  # the face-up cards the flipped tokens gave, over the evening
    sleeve: list[str] = field(default_factory=list)  # clocks skipped into it that evening
    hardest: str | None = None
    hardest_failures: int = 0
    hardest_passed: bool = False
    openers: list[tuple[str, int]] = field(default_factory=list)
    hints: list[HintOutcome] = field(default_factory=list)


def session_recap(session: Session) -> Recap:
    """The recap of ``session``: three queries for its attempts, the day's skips and hints."""
    campaign = session.campaign
    attempts = list(session.attempts.select_related("opener").order_by("id"))
    recap = Recap(
        group=campaign.group.name,
        date=session.date.isoformat(),
        players=[p.name for p in session.players.all()],
        passed=sum(a.outcome == Attempt.Outcome.PASSED for a in attempts),
        failed=sum(a.outcome == Attempt.Outcome.FAILED for a in attempts),
        bonus_tokens=sum(a.bonus_tokens for a in attempts),
    )
    chapters = [c for c in (chapter_of(a.clock_id) for a in attempts) if c is not None]
    recap.chapter = max(chapters, default=None)
    failures = Counter(a.clock_id for a in attempts if a.outcome == Attempt.Outcome.FAILED)
    if failures:
        # Most failures; on a tie, the clock met first that evening.
        order = {a.clock_id: i for i, a in reversed(list(enumerate(attempts)))}
        clock = min(failures, key=lambda c: (-failures[c], order[c]))
        recap.hardest, recap.hardest_failures = clock, failures[clock]
        recap.hardest_passed = any(
            a.clock_id == clock and a.outcome == Attempt.Outcome.PASSED for a in attempts
        )
    openers = Counter(a.opener.name for a in attempts if a.opener is not None)
    recap.openers = openers.most_common()
    skips = campaign.events.filter(
        kind=Event.Kind.SKIPPED, undone__isnull=True, created__date=session.date
    ).order_by("id")
    recap.sleeve = [e.clock_id for e in skips]
    recap.hints = _hints(session, attempts)
    return recap


def _hints(session: Session, attempts: list[Attempt]) -> list[HintOutcome]:
    """The finished hints asked for this campaign on the session's day, each with the
    outcome of the attempt it was asked for, else the evening's next attempt at its clock.
    Read through the campaign's reverse relation: campaigns imports nothing from the solver."""
    hints = session.campaign.hint_requests
    done = hints.model.Status.DONE
    rows = hints.filter(queued_at__date=session.date, status=done).order_by("queued_at")
    by_id = {a.pk: a for a in attempts}
    outcomes = []
    for hint in rows:
        linked = by_id.get(hint.attempt_id) if hint.attempt_id is not None else None
        attempt = linked or next(
            (
                a
                for a in attempts
                if a.clock_id == hint.clock_id and a.created >= (hint.finished_at or hint.queued_at)
            ),
            None,
        )
        rate = read_result(hint.result)["pass_rate"] if hint.result else None
        outcomes.append(
            HintOutcome(
                clock=hint.clock_id,
                predicted=float(rate) if isinstance(rate, int | float) else None,
                passed=None if attempt is None else attempt.outcome == Attempt.Outcome.PASSED,
            )
        )
    return outcomes


@dataclass
class Row:
    label: str
    value: str


def recap_rows(recap: Recap) -> list[Row]:
    """The recap in words, in the active language: what the card shows, row by row."""
    rows = [
        Row(
            _("Clocks"),
            _("%(passed)s passed · %(failed)s failed")
            % {"passed": recap.passed, "failed": recap.failed},
        ),
        Row(
            _("Chapter reached"),
            str(recap.chapter) if recap.chapter is not None else "—",
        ),
        Row(_("Bonus tokens used"), str(recap.bonus_tokens)),
        Row(_("Into the Sleeve"), ", ".join(recap.sleeve) if recap.sleeve else _("none")),
    ]
    if recap.hardest is None:
        hardest = _("none: no clock failed")
    elif recap.hardest_passed:
        hardest = ngettext(
            "%(clock)s, passed after %(n)s failure",
            "%(clock)s, passed after %(n)s failures",
            recap.hardest_failures,
        ) % {"clock": recap.hardest, "n": recap.hardest_failures}
    else:
        hardest = ngettext(
            "%(clock)s, %(n)s failure",
            "%(clock)s, %(n)s failures",
            recap.hardest_failures,
        ) % {"clock": recap.hardest, "n": recap.hardest_failures}
    rows.append(Row(_("Hardest clock"), hardest))
    opened = ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in recap.openers)
    rows.append(Row(_("Who opened"), opened or _("not recorded")))
    rows.append(Row(_("Hints"), _hints_text(recap.hints)))
    return rows


def _hints_text(hints: list[HintOutcome]) -> str:
    if not hints:
        return _("none asked")
    followed = [h for h in hints if h.passed is not None]
    asked = ngettext("%(n)s asked", "%(n)s asked", len(hints)) % {"n": len(hints)}
    if not followed:
        return asked
    passed = sum(bool(h.passed) for h in followed)
    rates = [h.predicted for h in followed if h.predicted is not None]
    text = _("%(asked)s · %(passed)s of %(tried)s passed") % {
        "asked": asked,
        "passed": passed,
        "tried": len(followed),
    }
    if rates:
        foretold = round(100 * sum(rates) / len(rates))
        text += " " + _("(foretold %(rate)s%%)") % {"rate": foretold}
    return text


def recap_heading(recap: Recap) -> tuple[str, str]:
    """The card's title and its second line: the group's name and the evening's date."""
    when = date_format(date.fromisoformat(recap.date), "DATE_FORMAT")
    return _("Our evening of Take Time"), f"{recap.group} · {when}"
