"""HintRequest: one request for a hint, from the colours on the table to a plan.

The row is the job: the Celery task claims it, writes progress to it and stores the result
on it. Celery's own result backend is not used (CELERY_TASK_IGNORE_RESULT), so the row is
the single source of truth the pages and the API read.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from campaigns.models import CommunityDefinition
from rules.clock import Clock
from rules.errors import RulesError
from rules.game import BONUS_TOKENS, PLAYER_COUNTS
from rules.hint_result import read as read_result
from rules.i18n import LANGUAGES
from rules.seats import Seats, parse_colours
from solver.core.table.plans import Plan
from solver.core.words import Speech, plan_speech, spoken_number


# Defined at module level because a CheckConstraint guards it: a model's Meta cannot see
# names defined in the model's own body.
class HintStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")
    CANCELLED = "cancelled", _("cancelled")


class SlipRateSource(models.TextChoices):
    REQUEST = "request", "request"  # the request gave the rate
    TABLE = "table", "table"  # the group's own rate (solver.hint_inputs.table_slip_rate)
    DEFAULT = "default", "default"  # 0.05, every table's


# Statuses in which a job still has to run.
ACTIVE_STATUSES = (HintStatus.QUEUED, HintStatus.RUNNING)


class HintRequest(models.Model):
    Status = HintStatus
    SlipRateSource = SlipRateSource

    class Failure(models.TextChoices):
        # What the player is told; `error` keeps the technical detail for the logs.
        TIME_LIMIT = "time_limit", _("The solver ran out of time before it found a plan.")
        WORKER_LOST = "worker_lost", _("The solver stopped while it was working on this hint.")
        CRASHED = "crashed", _("The solver hit an unexpected error.")
        BAD_INPUT = "bad_input", _("The solver could not use this clock or these colours.")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="hint_requests")
    # Optional context: members of the group may see the hint (the table asks together).
    group = models.ForeignKey(
        "campaigns.Group", models.SET_NULL, null=True, blank=True, related_name="hint_requests"
    )
    campaign = models.ForeignKey(
        "campaigns.Campaign",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="hint_requests",
    )
    attempt = models.ForeignKey(
        "campaigns.Attempt", models.SET_NULL, null=True, blank=True, related_name="hint_requests"
    )

    # Inputs. The clock is stored as its full definition (the catalogue's or the group's
    # transcription at request time), so the job solves exactly what the asker saw.
    clock_id = models.CharField(_("clock"), max_length=16)
    clock_definition = models.JSONField()
    base_rules = models.BooleanField(default=False)
    # Where the definition came from (campaigns.definitions.played.DefinitionChoice.source: own,
    # promoted, shipped, community; "given" for a definition sent with the request) and its
    # fingerprint, so a hint says which table's rules it used.
    definition_source = models.CharField(max_length=10, blank=True, default="")
    definition_fingerprint = models.CharField(max_length=16, blank=True, default="")
    colours = models.CharField(_("colours"), max_length=40)
    players = models.PositiveSmallIntegerField()
    # The players' names in seat (play) order, for the words ([]: "Seat 1", "Seat 2"…).
    # Not part of the input hash: a reused result is worded with the new asker's names.
    names = models.JSONField(default=list, blank=True)
    face_up = models.PositiveSmallIntegerField(_("face-up cards"))
    # Solver settings travel with the job, so any worker solves it the same way.
    effort = models.FloatField(default=1.0)
    odds_samples = models.PositiveIntegerField(null=True, blank=True)  # None: exact odds
    seed = models.PositiveIntegerField(default=0)
    # The chance that a decision slips in the simulated games (solver.core.table.agents.slip_of).
    slip_rate = models.FloatField(default=0.05)
    # Why that rate (``solver.hint_inputs.HintInput.slip_rate_source``).
    slip_rate_source = models.CharField(
        max_length=8, choices=SlipRateSource.choices, default=SlipRateSource.DEFAULT
    )
    # The clock's own prior the search starts from (``solver.clock_priors``: genes as
    # ``solver.core.search.clock_prior.genes_to_json`` writes them), as stored when it was asked;
    # None: the table size's prior.
    prior = models.JSONField(null=True, blank=True)
    lang = models.CharField(max_length=8, default="en")
    input_hash = models.CharField(max_length=64)

    # The job.
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0)
    # Where the running search is, as the solver core reports it (solver.core.search.search.Stage):
    # the stage's name, and step ``stage_round`` of ``stage_of`` inside it (0 of 0: none).
    stage = models.CharField(max_length=100, blank=True)
    stage_round = models.PositiveSmallIntegerField(default=0)
    stage_of = models.PositiveSmallIntegerField(default=0)
    # Fencing token: each claim increments it and every later write by that run is
    # conditioned on it, so a run that lost its claim (reaped, cancelled) writes nothing.
    runs = models.PositiveSmallIntegerField(default=0)
    task_id = models.CharField(max_length=64, blank=True)
    claimed_by = models.CharField(max_length=255, blank=True)  # "host:pid" of the run
    result = models.JSONField(null=True, blank=True)
    partial = models.BooleanField(default=False)
    failure = models.CharField(max_length=16, choices=Failure.choices, blank=True, default="")
    error = models.TextField(blank=True)
    reused_from = models.ForeignKey(
        "self", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The recommended plan's pass chance at each slip rate (``solver.pass_curves``:
    # {"rates": [...], "passes": [...]}), what the table's own slip rate is learned from;
    # {} where none can be computed (no plan, or a clock the compiled engine does not model);
    # None until it is computed (by the job, or by beat for a hint answered from the book).
    pass_curve = models.JSONField(null=True, blank=True)
    # Answered from the plan book (a result stored before, for this input or a pattern that
    # is the same game) rather than computed by a job for this row.
    from_plan_book = models.BooleanField(default=False)

    queued_at = models.DateTimeField(default=timezone.now)
    # None while the message has not reached the broker (it was down): the resender's work.
    sent_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    beat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-queued_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=HintStatus.values),
                name="hint_status_valid",
            ),
            models.CheckConstraint(condition=Q(progress__lte=100), name="hint_progress_0_to_100"),
            models.CheckConstraint(
                condition=Q(players__gte=PLAYER_COUNTS[0]) & Q(players__lte=PLAYER_COUNTS[-1]),
                name="hint_players_2_to_4",
            ),
            models.CheckConstraint(
                condition=Q(face_up__lte=models.F("players") + BONUS_TOKENS),
                name="hint_face_up_at_most_players_plus_3",
            ),
            models.CheckConstraint(
                condition=~Q(status="done") | Q(result__isnull=False),
                name="hint_done_has_result",
            ),
            # Double tap: one active job per user and input, whatever the race.
            models.UniqueConstraint(
                fields=["user", "input_hash"],
                condition=Q(status__in=ACTIVE_STATUSES),
                name="hint_one_active_per_user_and_input",
            ),
        ]
        indexes = [
            # Limits: a user's active hints (≤ 3) and hints of the last hour (≤ 30);
            # "my hints" lists a user's rows newest first.
            models.Index(fields=["user", "-queued_at"], name="hint_user_queued_idx"),
            # Reuse: a finished, complete result for the same input within a day.
            models.Index(
                fields=["input_hash", "-finished_at"],
                condition=Q(status="done", partial=False),
                name="hint_reusable_idx",
            ),
            # Reaper and resender: running rows by start, queued rows by queue time.
            models.Index(
                fields=["status", "started_at"],
                condition=Q(status__in=ACTIVE_STATUSES),
                name="hint_active_idx",
            ),
            # Cleanup of rows older than 30 days.
            models.Index(fields=["queued_at"], name="hint_queued_at_idx"),
        ]

    def __str__(self) -> str:
        return f"hint {self.pk} {self.clock_id} {self.colours} ({self.status})"

    # --- Reading the inputs back --------------------------------------------------------

    def clock(self) -> Clock:
        """The clock the job solves (base rules only when asked for)."""
        clock = Clock.from_json(self.clock_definition)
        if self.base_rules and not clock.transcribed:
            clock = clock.base_rules_only()
        return clock

    def seats(self) -> Seats:
        return parse_colours(self.colours)

    # --- What the pages show ------------------------------------------------------------

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_STATUSES

    @property
    def waiting_for_broker(self) -> bool:
        """Saved but not handed to the solver yet: the broker was down when it was asked."""
        return self.status == self.Status.QUEUED and self.sent_at is None

    @property
    def can_retry(self) -> bool:
        return self.status in (self.Status.FAILED, self.Status.CANCELLED)

    @property
    def answered(self) -> str | None:
        """How a finished hint was answered: "plan_book" (a result stored before) or
        "computed" (a job for this row); None until it is done."""
        if self.status != self.Status.DONE:
            return None
        return "plan_book" if self.from_plan_book else "computed"

    def stage_label(self) -> str:
        """Where the job is, in the reader's language."""
        if self.status == self.Status.QUEUED:
            return str(_("Waiting for a free solver"))
        if self.status == self.Status.DONE:
            return str(_("Done"))
        if self.status == self.Status.FAILED:
            return str(_("Failed"))
        if self.status == self.Status.CANCELLED:
            return str(_("Cancelled"))
        if self.stage == "racing" and self.stage_of:
            return str(
                _("Racing plans, round %(round)s of %(rounds)s")
                % {"round": self.stage_round, "rounds": self.stage_of}
            )
        if self.stage == "fine-tuning" and self.stage_round:
            return str(
                _("Fine-tuning the best plan, step %(step)s of %(steps)s")
                % {"step": self.stage_round, "steps": self.stage_of}
            )
        if self.stage == "choosing":
            return str(_("Comparing plans, clean and with slips"))
        if self.stage == "fresh deals" and self.stage_of:
            return str(
                _("Checking the plans on fresh deals, %(step)s of %(steps)s")
                % {"step": self.stage_round, "steps": self.stage_of}
            )
        if self.stage == "fresh deals":
            return str(_("Checking the best plan on fresh deals"))
        if self.stage == "odds":
            return str(_("Working out the odds"))
        return str(_("Starting") if self.stage in ("", "search") else _("Searching for a plan"))

    def speech(self, lang: str, plan: Any = None) -> Speech:
        """The result's plan (or ``plan``, a plan's JSON form) as the table says it: three
        lines and the fine print (``solver.core.words.plan_speech``), in ``lang`` and with
        this row's names. Worded when read, so a result reused for another table speaks to
        that table. A row whose plan cannot be read has the words it stored as its one line."""
        if not self.result:
            return Speech((), (), lang)
        parsed = self.read_plan(self.result.get("plan") if plan is None else plan)
        if parsed is not None:
            try:
                return plan_speech(
                    parsed, self.clock(), self.seats(), self.face_up, lang, self.names or None
                )
            except (RulesError, ValueError, TypeError):
                pass
        stored: dict[str, str] = self.result.get("words_all", {})
        words = stored.get(lang) or self.result.get("words", "")
        return Speech((words,) if words else (), (), lang)

    def read_plan(self, data: Any) -> Plan | None:
        """``data`` (a plan's JSON form, as this row's result keeps it) as a Plan for this
        table, or None where it cannot be read: a row stored without its plan, as
        ``seed_demo`` stores its hints, has nothing to say aloud or to vary."""
        try:
            return Plan.from_json(data, self.players)
        except (ValueError, TypeError):
            return None

    def words(self, lang: str, plan: Any = None) -> str:
        """What the table says aloud (``speech``'s lines as one text)."""
        return self.speech(lang, plan).said()

    def definition_words(self) -> str:
        """Which definition of the clock the hint played by, in the reader's language."""
        if self.base_rules or self.definition_source == "base_rules":
            return str(_("the base rules only: this clock's special rules are not known yet"))
        if self.definition_source == "own":
            return str(_("your table's transcription"))
        if self.definition_source == "promoted":
            return str(_("the rules chosen for every table"))
        if self.definition_source == "community":
            # Named by when another table first typed them, never by their hash.
            first = (
                CommunityDefinition.objects.filter(
                    clock_id=self.clock_id, fingerprint=self.definition_fingerprint
                )
                .values_list("created", flat=True)
                .first()
            )
            if first is None:
                return str(_("rules other tables transcribed"))
            return str(
                _("rules other tables transcribed, first typed on %(date)s")
                % {"date": date_format(timezone.localtime(first), "DATE_FORMAT")}
            )
        if self.definition_source == "shipped":
            return str(_("the rules that come with Timekeeper"))
        if self.definition_source == "given":
            return str(_("the clock definition sent with the request"))
        return ""

    def result_for(self, lang: str) -> dict[str, Any] | None:
        """The stored result with its words worded now, in ``lang`` and with this row's
        names: ``words`` (the lines said aloud, as one text), ``words_all``, ``lines`` and
        ``details`` (the fine print); and ``definition``, the rules it played by. What the
        API answers."""
        if not self.result:
            return self.result
        stored = read_result(self.result)  # an older row's result, upgraded
        speech = self.speech(lang)
        ignored = self.ignored_rules(lang)
        data = {
            **stored,
            "slip_rate_source": self.slip_rate_source,
            "ignored_rules": ignored,
            "odds_upper_bound": bool(ignored),
            "words": speech.said(),
            "words_all": {code: self.words(code) for code in LANGUAGES},
            **speech.to_json(),
            "definition": {
                "source": self.definition_source,
                "fingerprint": self.definition_fingerprint,
                "base_rules": self.base_rules,
                "words": self.definition_words(),
            },
        }
        # Each plan offered, worded the same way (its own plan, these names).
        data["alternatives"] = [
            {
                **other,
                "words": self.words(lang, other["plan"]),
                "words_all": {code: self.words(code, other["plan"]) for code in LANGUAGES},
            }
            for other in stored["alternatives"]
        ]
        return data

    def ignored_rules(self, lang: str) -> list[str]:
        """The words of the clock's rules the plan does not know (``described``)."""
        try:
            return list(self.clock().described_texts(lang))
        except (RulesError, ValueError, TypeError):
            return list(self.result.get("ignored_rules", [])) if self.result else []

    def targets(self) -> list[float]:
        if not self.result:
            return []
        return list(self.result.get("plan", {}).get("targets", []))

    def spoken_targets(self) -> list[int]:
        """The targets as the table says them (whole numbers, as in the plan's words)."""
        return [spoken_number(target) for target in self.targets()]


class Seating(models.Model):
    """Who sat where the last time a group asked for a hint with names (``solver.seating``):
    the hint form starts from it."""

    group = models.OneToOneField("campaigns.Group", models.CASCADE, related_name="+")
    names = models.JSONField(default=list)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return " / ".join(self.names)


class PlanBookEntry(models.Model):
    """One answer of the plan book (``solver.plan_book``): the result of a hint for a class
    of colour patterns that are the same game (``solver.core.search.symmetry``), on one clock
    definition, budget and solver settings. Written by every complete hint job and by the
    prefill; read by every new hint, which takes it, worded for its own table, instead of a
    job. ``key`` holds the engine's version (``solver.core.version``): a new engine finds
    none of the old entries. ``search_version`` is the search that found it: an entry of an
    older search still answers, and the prefill searches its class again, the most
    ``asked`` first."""

    class Source(models.TextChoices):
        HINT = "hint", "hint"
        PREFILL = "prefill", "prefill"

    key = models.CharField(max_length=64, unique=True)
    engine_version = models.PositiveIntegerField()
    search_version = models.PositiveIntegerField()
    clock_id = models.CharField(max_length=16)
    clock_definition = models.JSONField()
    base_rules = models.BooleanField(default=False)
    # The pattern the result was computed for (the asker's, or the class's name for the
    # prefill): a table asking with another pattern of the class gets it mapped onto its own.
    colours = models.CharField(max_length=40)
    pattern = models.CharField(max_length=40)  # the class's name (symmetry.canonical)
    players = models.PositiveSmallIntegerField()
    face_up = models.PositiveSmallIntegerField()
    effort = models.FloatField()
    seed = models.PositiveIntegerField(default=0)
    odds_samples = models.PositiveIntegerField(null=True, blank=True)
    slip_rate = models.FloatField()
    result = models.JSONField()  # as a hint's row stores it (solver.results.result_json)
    source = models.CharField(max_length=8, choices=Source.choices)
    hint = models.ForeignKey(HintRequest, models.SET_NULL, null=True, blank=True, related_name="+")
    seconds = models.FloatField(default=0.0)  # how long computing it took
    asked = models.PositiveIntegerField(default=0)  # tables it answered (plan_book.asked)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            # The prefill's refresh: entries of an older search, the most asked first.
            models.Index(fields=["search_version", "-asked"], name="plan_book_stale_idx"),
        ]

    def __str__(self) -> str:
        return f"plan book {self.clock_id} {self.pattern} face-up {self.face_up}"


class ClockPrior(models.Model):
    """A clock's own prior at one table size (``solver.clock_priors``): where a few long
    searches on the clock's rules ended. Computed once per clock definition, table size and
    engine version, by the prefill (before that clock's patterns, a search at a time); every
    hint on the clock asked once it is complete starts from it. ``key`` holds what it
    depends on (``clock_priors.prior_key``)."""

    key = models.CharField(max_length=64, unique=True)
    engine_version = models.PositiveIntegerField()  # in the key too (clock_priors.prior_key)
    search_version = models.PositiveIntegerField()  # the searches' (kept after a new one)
    clock_id = models.CharField(max_length=16)
    players = models.PositiveSmallIntegerField()
    # Each long search's genes as it ends (None where it recommended the baseline plan):
    # a prefill slice stopped for a hint loses only the search it was in.
    searches = models.JSONField(default=list)
    complete = models.BooleanField(default=False)  # every search done, ``genes`` chosen
    # As ``solver.core.search.clock_prior.genes_to_json`` writes them; None: not complete, or the
    # searches found no plan of their own (the clock's hints start from the table size's).
    genes = models.JSONField(null=True, blank=True)
    seconds = models.FloatField(default=0.0)  # how long computing it took, all searches
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"clock prior {self.clock_id} at {self.players} players"
