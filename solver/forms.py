"""The hint request form: the clock, the player count, who sits at each seat and each seat's
cards as the table sees their backs (a tap toggles Sun/Moon; a plain checkbox underneath, so
it works without JavaScript), or the same in the colour notation, and the face-up budget."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from campaigns.definitions.played import DefinitionChoice, played_definition
from campaigns.models import ClockTranscription, Group
from rules.catalogue import CLOCK_IDS, get_clock
from rules.errors import RulesError
from rules.game import PLAYER_COUNTS
from rules.layout import SEGMENTS
from rules.seats import SEAT_SIZES, most_face_up, parse_colours
from solver.errors import HintError
from solver.hint_inputs import HintInput, parse_input


def player_choices() -> list[tuple[int, str]]:
    """ "2 players", "3 players"…, worded when a form is drawn, in the reader's language (a
    list built at import time would stay in the language the server started in)."""
    return [(n, ngettext("%(n)d player", "%(n)d players", n) % {"n": n}) for n in PLAYER_COUNTS]


def seat_slots(players: int) -> list[dict[str, Any]]:
    """Per seat: its number and the keys of its card slots (hand, then set of 2)."""
    hand, extra = SEAT_SIZES[players]
    return [
        {
            "number": seat,
            "hand": [f"{seat}.{i}" for i in range(hand)],
            "extra": [f"{seat}.{i}" for i in range(hand, hand + extra)],
        }
        for seat in range(1, players + 1)
    ]


def colours_from_slots(players: int, moons: set[str]) -> str:
    """The colour notation for the tapped cards: a slot is a Moon when its key is in ``moons``."""
    groups = []
    for seat in seat_slots(players):
        hand = "".join("M" if key in moons else "S" for key in seat["hand"])
        extra = "".join("M" if key in moons else "S" for key in seat["extra"])
        groups.append(f"{hand}+{extra}" if extra else hand)
    return "/".join(groups)


def slots_from_colours(colours: str) -> tuple[int, set[str]] | None:
    """The player count and Moon slots of a colour text, or None if it is not a table."""
    try:
        seats = parse_colours(colours)
    except RulesError:
        return None
    moons = set()
    for number, seat in enumerate(seats.seats, start=1):
        for i, letter in enumerate(seat.hand + seat.extra):
            if letter == "M":
                moons.add(f"{number}.{i}")
    return seats.players, moons


def clock_choices(group: Group | None = None) -> list[tuple[str, str]]:
    """Every clock; those whose special rules are unknown (to this group) say so."""
    transcribed: set[str] = set()
    if group is not None:
        transcribed = set(
            ClockTranscription.objects.filter(group=group).values_list("clock_id", flat=True)
        )
    choices = []
    for clock_id in CLOCK_IDS:
        clock = get_clock(clock_id)
        label = _("Rebirth") if clock_id == "rebirth" else clock.name
        if not clock.transcribed and clock_id not in transcribed:
            label = _("%(clock)s (not transcribed)") % {"clock": label}
        choices.append((clock_id, str(label)))
    return choices


class HintForm(forms.Form):
    clock = forms.ChoiceField(label=_("Clock"), choices=())
    players = forms.TypedChoiceField(
        label=_("Players"), choices=player_choices, coerce=int, widget=forms.RadioSelect
    )
    moon = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)
    # One text box per seat, all named "names", in seat order (the template draws them):
    # all empty, the words say "Seat 1"…; otherwise one name per seat (solver.hint_inputs).
    names = forms.Field(required=False, widget=forms.MultipleHiddenInput)
    colours = forms.CharField(
        label=_("Or type the colours"),
        required=False,
        max_length=40,
        help_text=_(
            "One group per seat in seating order, S for Sun and M for Moon, like SSMM/MMSS/SMSM; "
            "with 2 players a set of 4 and a set of 2: SSMM+SM/SMMM+SS. Wins over the taps."
        ),
    )
    face_up = forms.IntegerField(
        label=_("Face-up cards allowed"), min_value=0, max_value=most_face_up(PLAYER_COUNTS[-1])
    )
    community = forms.BooleanField(
        label=_("Where our table has no transcription, use the rules other tables confirmed"),
        required=False,
        initial=True,
    )

    def __init__(self, *args: Any, group: Group | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.group = group
        self.hint_input: HintInput | None = None
        if group is None:
            del self.fields["community"]
        self.community_offer, self.base_rules_note = self._definition_notes()
        cast(forms.ChoiceField, self.fields["clock"]).choices = clock_choices(group)
        players = self._players()
        slots = [key for seat in seat_slots(players) for key in seat["hand"] + seat["extra"]]
        cast(forms.ChoiceField, self.fields["moon"]).choices = [(key, key) for key in slots]

    def _definition_notes(self) -> tuple[DefinitionChoice | None, str]:
        """What the hint would play the clock shown by, when the table has no rules of its
        own for it (the page says so next to the clock): the confirmed definition of other
        tables, or, when nobody's rules are known, the clock's name (the base rules)."""
        clock_id = self.data.get("clock") if self.is_bound else self.initial.get("clock")
        if not isinstance(clock_id, str):
            return None, ""
        try:
            clock = get_clock(clock_id)
            if self.group is None:
                return None, "" if clock.transcribed else clock.name
            choice = played_definition(self.group, clock.id, community=True)
        except RulesError:
            return None, ""
        if choice.source == DefinitionChoice.COMMUNITY:
            return choice, ""
        return None, "" if choice.clock.transcribed else clock.name

    def _players(self) -> int:
        raw = self.data.get("players") if self.is_bound else self.initial.get("players")
        try:
            players = int(str(raw))
        except ValueError:
            return 3
        return players if players in PLAYER_COUNTS else 3

    def seats(self) -> list[dict[str, Any]]:
        """Seat slots with each slot's state and the name typed for the seat, for the
        template."""
        if self.is_bound:
            moons = set(self.data.getlist("moon")) if hasattr(self.data, "getlist") else set()
        else:
            moons = set(self.initial.get("moon", ()))
        names = self._typed_names() if self.is_bound else list(self.initial.get("names", ()))
        seats = seat_slots(self._players())
        for seat in seats:
            seat["hand"] = [{"key": k, "moon": k in moons} for k in seat["hand"]]
            seat["extra"] = [{"key": k, "moon": k in moons} for k in seat["extra"]]
            seat["name"] = names[seat["number"] - 1] if seat["number"] <= len(names) else ""
        return seats

    def _typed_names(self) -> list[str]:
        if not hasattr(self.data, "getlist"):
            return []
        return [str(name) for name in self.data.getlist("names")]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        colours = (data.get("colours") or "").strip()
        if not colours:
            colours = colours_from_slots(data["players"], set(data.get("moon") or ()))
        names: list[str] | None = [name.strip() for name in self._typed_names()]
        if not any(names or ()):
            names = None  # no names at all: the words say "Seat 1", "Seat 2"…
        try:
            self.hint_input = parse_input(
                data["clock"],
                colours,
                data["face_up"],
                False,
                self.group,
                community=bool(data.get("community")),
                names=names,
            )
        except HintError as error:
            field = error.field if error.field in self.fields else None
            self.add_error(field, error.message)
            return data
        if self.hint_input.seats.players != data["players"] and data.get("colours"):
            # The typed colours decide the player count.
            data["players"] = self.hint_input.seats.players
        return data


class WhatIfForm(forms.Form):
    """The plan's six targets (and who opens), edited by the group, to simulate."""

    opener = forms.TypedChoiceField(label=_("Who opens"), coerce=int, required=False)
    # Which of the hint's offered plans the targets vary (0: the recommended one).
    plan = forms.IntegerField(min_value=0, max_value=9, required=False, widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        players: int,
        targets: Sequence[float],
        names: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        for segment in SEGMENTS:
            initial = targets[segment - 1] if len(targets) >= segment else None
            self.fields[f"target_{segment}"] = forms.FloatField(
                label=_("Segment %(n)s") % {"n": segment},
                min_value=0,
                max_value=100,
                initial=initial,
            )
        # Seats by the table's names where it gave them, as the plan's words call them.
        cast(forms.ChoiceField, self.fields["opener"]).choices = [
            (
                seat,
                names[seat - 1]
                if seat <= len(names) and names[seat - 1]
                else _("Seat %(n)s") % {"n": seat},
            )
            for seat in range(1, players + 1)
        ]

    def targets(self) -> list[float]:
        return [self.cleaned_data[f"target_{segment}"] for segment in SEGMENTS]

    def target_fields(self) -> list[forms.BoundField]:
        return [self[f"target_{segment}"] for segment in SEGMENTS]
