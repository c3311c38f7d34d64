"""The vocabulary of special rules: one module per kind, found automatically.

``RULE_KINDS`` maps each kind's JSON name to its class; ``rule_from_json`` builds a rule from
its clock-definition object.

How to add a kind (nothing else changes):
1. Create ``rules/kinds/<name>.py`` with a frozen dataclass subclass of ``Rule`` decorated
   with ``@register``; set ``kind`` (its JSON name), ``icon``, ``wording`` (en/nl/ja).
   A kind that bounds the number of cards at one segment subclasses ``CardsAtSegment``.
2. Its fields are its JSON parameters; type them with ``Segment``, ``Count``, ``Value``,
   ``Total``, ``tuple[...]`` or ``ColourLetter | None`` (optional) — missing, extra and
   out-of-range parameters are then rejected for you. Put checks that relate parameters in
   ``check_params``.
3. Implement ``holds`` (and ``explain`` for the failure sentence), ``label``; placement kinds
   also set ``restricts_placement = True`` and implement ``check_move``.
4. Add its tests to ``tests/rules/test_rule_kinds.py``.
The modules of this package are imported below, so a new file is registered on import.
"""

from __future__ import annotations

import importlib
import pkgutil

from rules.kinds.base import RULE_KINDS, Resolution, Rule, register, rule_from_json

for _module in pkgutil.iter_modules(__path__):
    if _module.name != "base":
        importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["RULE_KINDS", "Resolution", "Rule", "register", "rule_from_json"]
