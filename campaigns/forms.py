"""Forms of the campaign pages. They check the shape of input; the rules of the game are
checked by the services (campaigns.*.services), whose CampaignError lands on the field it names."""

from __future__ import annotations

import uuid
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from campaigns.errors import CampaignError
from campaigns.models import (
    INVITE_DAYS_DEFAULT,
    MAX_PLAYERS_LISTED,
    NAME_LENGTH,
    NOTES_LENGTH,
    Campaign,
    Group,
    Membership,
    Player,
)
from config.errors import refusal_text
from config.ids import parse_id
from config.parsers import MAX_BODY_BYTES
from rules import jsontext
from rules.catalogue import CLOCK_IDS
from rules.errors import RulesError
from rules.game import CHAPTERS, PLAYER_COUNTS
from rules.layout import SEGMENTS

# The example in the layout field: a whole layout of 12 cards that passes clock 1-1, so a
# player who copies its shape gets a verdict, not a parse error.
LAYOUT_EXAMPLE = "S3 | M5 | S2 M3 | M9 | S6 S8 S1 M2 | M12 S9 M1"


def add_service_error(form: forms.Form, error: CampaignError | RulesError) -> None:
    """Show a service's refusal at the field it names (or above the form)."""
    field = (error.field or "").split(".")[0].split("[")[0]
    form.add_error(field if field in form.fields else None, refusal_text(error))


class GroupForm(forms.Form):
    name = forms.CharField(label=_("Group name"), max_length=NAME_LENGTH)
    players = forms.CharField(
        label=_("Players"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One name per line; people at the table need no account."),
    )

    def clean_players(self) -> list[str]:
        names = [n.strip() for n in self.cleaned_data["players"].splitlines() if n.strip()]
        if len(names) > MAX_PLAYERS_LISTED:
            raise forms.ValidationError(_("List at most 12 players."))
        for name in names:
            if len(name) > NAME_LENGTH:
                raise forms.ValidationError(
                    _("Names have at most %(max)d characters.") % {"max": NAME_LENGTH}
                )
        return names


class AttemptForm(forms.Form):
    """The one-tap form of the group page: the button pressed says what happened."""

    ACTIONS = ("passed", "failed", "skip")

    clock = forms.CharField(widget=forms.HiddenInput, max_length=20)
    request_key = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)
    players = forms.TypedChoiceField(
        label=_("Players at the table"),
        choices=[(n, str(n)) for n in PLAYER_COUNTS],
        coerce=int,
        widget=forms.RadioSelect,
    )
    layout = forms.CharField(
        label=_("Layout (optional)"),
        required=False,
        max_length=400,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": LAYOUT_EXAMPLE}),
        help_text=_("Segments 1–6 separated by |, or cards in play order like S3@1 M5@2 …"),
    )
    opener = forms.ModelChoiceField(
        label=_("Who opened"), queryset=Player.objects.none(), required=False, empty_label="—"
    )
    duration_min = forms.IntegerField(
        label=_("Minutes"), min_value=0, max_value=24 * 60, required=False
    )
    notes = forms.CharField(
        label=_("Notes"),
        required=False,
        max_length=NOTES_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, group: Group, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["opener"]).queryset = group.players.all()
        if not self.is_bound:
            self.initial.setdefault("request_key", uuid.uuid4().hex)


class LayoutCheckForm(forms.Form):
    clock = forms.CharField(max_length=20)
    layout = forms.CharField(max_length=1000, required=False)


class PlayerChoices(forms.ModelMultipleChoiceField):
    """Players by id; an id no database integer can hold is an invalid choice (the
    database would otherwise refuse the query with a server error)."""

    def clean(self, value: Any) -> Any:
        for pk in value or ():
            if parse_id(pk) is None:
                raise forms.ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": pk},
                )
        return super().clean(value)


class SessionForm(forms.Form):
    # A date input takes ISO dates whatever the language (Dutch or Japanese formats would
    # leave it empty and the session could not be saved).
    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})
    )
    players = PlayerChoices(
        label=_("Who was there"),
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    notes = forms.CharField(
        label=_("Notes"),
        required=False,
        max_length=NOTES_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, group: Group, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(PlayerChoices, self.fields["players"]).queryset = group.players.all()


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("New player"), max_length=NAME_LENGTH)


class MemberForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(
        label=_("Role"),
        choices=Membership.Role.choices,
        initial=Membership.Role.MEMBER,
        required=False,
    )

    def clean_role(self) -> str:
        return self.cleaned_data["role"] or Membership.Role.MEMBER


class InviteForm(forms.Form):
    """A new invite link (the old one stops working) and how long it stays open."""

    days = forms.TypedChoiceField(
        label=_("Open for"),
        choices=[(1, _("1 day")), (7, _("7 days")), (30, _("30 days"))],
        coerce=int,
        initial=INVITE_DAYS_DEFAULT,
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices)


class CampaignForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Kind"), choices=Campaign.Kind.choices, initial=Campaign.Kind.NORMAL
    )
    start_chapter = forms.TypedChoiceField(
        label=_("Start at chapter"),
        choices=[(c, str(c)) for c in CHAPTERS],
        coerce=int,
        initial=1,
        help_text=_("Already further in your box? The clocks of earlier chapters count as passed."),
    )
    passed = forms.MultipleChoiceField(
        label=_("Also passed already"),
        choices=[(c, c) for c in CLOCK_IDS if c != "rebirth"],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Clocks of the start chapter (or later) your table has already passed."),
    )
    confirm = forms.BooleanField(
        label=_("Yes, stop playing the current campaign"),
        required=False,
        help_text=_("It stays in the history, but the Undo button cannot bring it back."),
    )


class TranscriptionForm(forms.Form):
    """The clock editor: the hand, the 24 limit, and the special rules as JSON objects,
    one per line (the public clock-definition format, docs/api.md)."""

    start = forms.TypedChoiceField(
        label=_("Clock hand points to segment"),
        choices=[(s, str(s)) for s in SEGMENTS],
        coerce=int,
        initial=1,
    )
    cap_lifted = forms.BooleanField(label=_("Values may exceed 24"), required=False)
    rules = forms.CharField(
        label=_("Special rules"),
        required=False,
        max_length=8000,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
        help_text=_(
            'One rule per line, e.g. {"kind": "card_count", "segment": 6, "count": 3}. '
            "A rule without a segment applies to the whole clock (centre)."
        ),
    )

    def clean_rules(self) -> list[dict[str, Any]]:
        rules = []
        for number, line in enumerate(self.cleaned_data["rules"].splitlines(), start=1):
            if not line.strip():
                continue
            try:
                rule = jsontext.loads(line)
            except ValueError:  # not JSON, or nested deeper than any rule
                raise forms.ValidationError(
                    _("Line %(n)d is not a JSON object.") % {"n": number}
                ) from None
            if not isinstance(rule, dict):
                raise forms.ValidationError(_("Line %(n)d is not a JSON object.") % {"n": number})
            rules.append(rule)
        return rules

    def definition(self, clock_id: str) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "id": clock_id,
            "start": data["start"],
            "cap": None if data["cap_lifted"] else 24,
            "rules": data["rules"],
        }


class ImportForm(forms.Form):
    history = forms.FileField(label=_("History file (JSON)"))

    def clean_history(self) -> Any:
        upload = self.cleaned_data["history"]
        if upload.size > MAX_BODY_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(mb)d MB.") % {"mb": MAX_BODY_BYTES // 2**20}
            )
        return upload


class StatisticsFilterForm(forms.Form):
    """The scope of the statistics page, API and CSV (query parameters): a campaign of the
    group or ``all`` (default: the current campaign), and optionally one table size."""

    campaign = forms.CharField(required=False, max_length=40)
    players = forms.TypedChoiceField(
        required=False,
        choices=[("", "")] + [(str(n), str(n)) for n in (2, 3, 4)],
        coerce=int,
        empty_value=None,
        error_messages={
            "invalid_choice": _("Choose 2, 3 or 4 players, or nothing for every table size.")
        },
    )

    def clean_campaign(self) -> int | str | None:
        value = self.cleaned_data["campaign"].strip()
        if value in ("", "all"):
            return value or None
        if not (value.isascii() and value.isdigit()):
            raise forms.ValidationError(_("Give a campaign id of this group, or all."))
        return int(value)
