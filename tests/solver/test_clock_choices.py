"""The hint form's clock list speaks the reader's language for every clock."""

from __future__ import annotations

import pytest
from django.utils import translation

from solver.forms import clock_choices

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("lang", "rebirth"), [("nl", "Wedergeboorte"), ("ja", "リバース")])
def test_the_rebirth_clock_is_named_in_the_reader_s_language(lang: str, rebirth: str) -> None:
    with translation.override(lang):
        labels = dict(clock_choices())
    assert labels["rebirth"].startswith(rebirth), labels["rebirth"]
