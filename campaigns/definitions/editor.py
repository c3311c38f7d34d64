"""Inputs for one special rule of the clock editor, generated from the rule kind's own
parameter types (rules/kinds): a segment becomes a choice of 1–6, a bounded number a number
field, a list a comma-separated field, an optional colour a choice. A new kind in rules/
appears in the editor with no change here.

Below them, the editor's state machine: one request is one ``EditorStep`` (``start_editing``
for a GET, ``edit`` for a POST and the button it names)."""

from __future__ import annotations

import json
import types
from dataclasses import dataclass, fields
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.definitions import described
from campaigns.forms import TranscriptionForm, add_service_error
from config.errors import refusal_text
from config.ids import parse_natural
from rules.clock import Clock
from rules.errors import RulesError
from rules.kinds import RULE_KINDS, Rule, rule_from_json
from rules.kinds.base import Length

# What a player reads in the editor instead of the engine's identifiers. A kind or parameter
# missing here (a new kind added to rules/) shows its identifier until it is named here.
KIND_NAMES = {
    "card_count": gettext_lazy("Exact number of cards on a segment"),
    "colours": gettext_lazy("Exact Sun and Moon cards on a segment"),
    "equal_neighbours": gettext_lazy("Equal values on neighbouring segments"),
    "first_cards": gettext_lazy("The first cards go to these segments"),
    "forbidden_values": gettext_lazy("Forbidden values on a segment"),
    "max_cards": gettext_lazy("At most this many cards on a segment"),
    "min_cards": gettext_lazy("At least this many cards on a segment"),
    "single_colour": gettext_lazy("A single colour on a segment"),
    "strictly_rising": gettext_lazy("Values strictly rising (no ties)"),
    "value_range": gettext_lazy("A segment's value between two numbers"),
    "described": gettext_lazy("A rule Timekeeper doesn't know yet"),
}
# Offered last, after the kinds Timekeeper can check: the way to transcribe any other rule.
FALLBACK_KIND = "described"
PARAM_NAMES = {
    "segment": gettext_lazy("Segment"),
    "segments": gettext_lazy("Segments"),
    "count": gettext_lazy("Number of cards"),
    "sun": gettext_lazy("Sun cards"),
    "moon": gettext_lazy("Moon cards"),
    "values": gettext_lazy("Values"),
    "colour": gettext_lazy("Colour"),
    "min": gettext_lazy("Lowest value"),
    "max": gettext_lazy("Highest value"),
    "text": gettext_lazy("The rule in your own words"),
}
CHOICE_NAMES = {"S": gettext_lazy("Sun"), "M": gettext_lazy("Moon")}


def kind_name(kind: str) -> str:
    return str(KIND_NAMES.get(kind, kind))


@dataclass(frozen=True)
class ParamInput:
    name: str  # the rule's JSON parameter
    kind: str  # "segment", "number", "list", "choice", "text"
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    optional: bool = False
    value: str = ""  # what the player typed, shown again when the rule is refused

    @property
    def field(self) -> str:
        """The name of the HTML input."""
        return f"p_{self.name}"

    @property
    def label(self) -> str:
        return str(PARAM_NAMES.get(self.name, self.name))

    @property
    def choice_labels(self) -> list[tuple[str, str]]:
        return [(value, str(CHOICE_NAMES.get(value, label))) for value, label in self.choices]


def _bounds(hint: Any) -> tuple[int, int, str] | None:
    if get_origin(hint) is Annotated:
        bounds = get_args(hint)[1]
        if isinstance(bounds, Length):
            return bounds.low, bounds.high, "text"
        return bounds.low, bounds.high, bounds.noun
    return None


def kinds_offered() -> list[tuple[str, str]]:
    """(name, kind) for the editor's choice: the kinds Timekeeper checks by name, then the
    rule in the table's own words for anything else."""
    known = sorted((kind_name(k), k) for k in RULE_KINDS if k != FALLBACK_KIND)
    return [*known, (kind_name(FALLBACK_KIND), FALLBACK_KIND)]


def param_inputs(kind: str) -> list[ParamInput]:
    cls = RULE_KINDS[kind]
    hints = get_type_hints(cls, include_extras=True)
    inputs = []
    for f in fields(cls):
        hint = hints[f.name]
        optional = get_origin(hint) in (Union, types.UnionType) and type(None) in get_args(hint)
        if optional:
            hint = next(arg for arg in get_args(hint) if arg is not type(None))
        bounds = _bounds(hint)
        if bounds is not None:
            low, high, noun = bounds
            kind = noun if noun in ("segment", "text") else "number"
            inputs.append(ParamInput(f.name, kind, low, high, optional=optional))
        elif get_origin(hint) is tuple:
            inner = _bounds(get_args(hint)[0])
            inputs.append(
                ParamInput(f.name, "list", inner[0], inner[1])
                if inner
                else ParamInput(f.name, "list")
            )
        elif get_origin(hint) is Literal:
            choices = tuple((str(a), str(a)) for a in get_args(hint))
            inputs.append(ParamInput(f.name, "choice", choices=choices, optional=optional))
        else:
            inputs.append(ParamInput(f.name, "number"))
    return inputs


def _whole(raw: str, param: ParamInput) -> int:
    try:
        return int(raw)
    except ValueError:
        raise RulesError(
            _("%(name)s: give a whole number.") % {"name": param.label}, "new_rule"
        ) from None


def rule_from_params(kind: str, data: Any) -> Rule:
    """The rule of ``kind`` with the parameters typed into the editor; RulesError (field
    ``new_rule``) with the engine's reason when they do not make a rule."""
    if kind not in RULE_KINDS:
        raise RulesError(_("Choose a kind of rule."), "new_rule")
    rule: dict[str, Any] = {"kind": kind}
    for param in param_inputs(kind):
        raw = str(data.get(param.field, "")).strip()
        if param.kind == "list":
            parts = [p for p in raw.replace(";", ",").replace(" ", ",").split(",") if p]
            try:
                rule[param.name] = [int(p) for p in parts]
            except ValueError:
                raise RulesError(
                    _("%(name)s: whole numbers separated by commas.") % {"name": param.label},
                    "new_rule",
                ) from None
        elif param.kind == "text":
            rule[param.name] = raw
        elif param.kind in ("choice", "segment") and param.optional:
            if raw:
                rule[param.name] = raw if param.kind == "choice" else _whole(raw, param)
        elif param.kind == "choice":
            if raw:
                rule[param.name] = raw
        else:
            rule[param.name] = _whole(raw, param)
    try:
        return rule_from_json(rule)
    except RulesError as error:
        raise error.with_field("new_rule") from None


# --- The editor's state machine -------------------------------------------------------------
# One request to the clock editor is one step: GET starts from the definition played, a POST
# applies the button it names to the rules the form holds. The view checks access, reads
# the request, runs the step and renders or saves what it gives.


@dataclass(frozen=True)
class EditorStep:
    """The editor after one request: its form, the clock as the form stands (None while the
    form has errors), the kind in "Add a rule" ("" once added) and why that rule was
    refused, if it was; ``save`` when the request asked to save a draft that is ready."""

    form: TranscriptionForm
    draft: Clock | None
    new_kind: str = ""
    new_rule_error: str | None = None
    save: bool = False

    @property
    def status(self) -> int:
        return 400 if self.form.errors or self.new_rule_error else 200


def _rules_text(rules: list[dict[str, Any]]) -> str:
    return "\n".join(json.dumps(rule, ensure_ascii=False) for rule in rules)


def start_editing(clock: Clock) -> EditorStep:
    """The editor opened on ``clock`` (the definition the group plays)."""
    form = TranscriptionForm(
        initial={
            "start": clock.start,
            "cap_lifted": clock.cap is None,
            "rules": _rules_text([r.to_json() for r in clock.rules]),
        }
    )
    return EditorStep(form, clock)


def _press(
    rules: list[dict[str, Any]], post: QueryDict, new_kind: str
) -> tuple[list[dict[str, Any]], str, str | None]:
    """The rules after the button ``post`` names: ``remove`` (an index), ``replace`` (an
    index: a described rule by the kind staff marked), ``add`` — and ``save`` with a rule
    still in "Add a rule" adds it too, rather than drop it. Returns the rules, the kind
    left in "Add a rule" and why the new rule was refused."""
    rules = list(rules)
    action = post.get("action")
    if "remove" in post:
        index = parse_natural(post.get("remove", ""), len(rules) - 1)
        if index is not None:
            rules.pop(index)
    elif "replace" in post:
        index = parse_natural(post.get("replace", ""), len(rules) - 1)
        if index is not None:
            rules = described.replaced(rules, index)
    elif action == "add" or (action == "save" and new_kind in RULE_KINDS):
        try:
            rules.append(rule_from_params(new_kind, post).to_json())
        except RulesError as error:
            return rules, new_kind, refusal_text(error)
        new_kind = ""
    return rules, new_kind, None


def edit(clock_id: str, post: QueryDict) -> EditorStep:
    """The editor after a POST: the button pressed applied to the rules the form holds."""
    new_kind = post.get("new_kind", "")
    new_rule_error = None
    data = post.copy()
    form = TranscriptionForm(data)
    if form.is_valid():
        rules, new_kind, new_rule_error = _press(form.cleaned_data["rules"], post, new_kind)
        data["rules"] = _rules_text(rules)
        form = TranscriptionForm(data)
    draft = None
    if form.is_valid():
        try:
            draft = Clock.from_json(form.definition(clock_id))
        except RulesError as error:
            add_service_error(form, error)
    save = post.get("action") == "save" and draft is not None and new_rule_error is None
    return EditorStep(form, draft, new_kind, new_rule_error, save)
