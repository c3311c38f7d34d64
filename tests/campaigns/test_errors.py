"""A refusal's words (config.errors.refusal_text), as the campaigns' services raise them."""

from __future__ import annotations

import pytest
from django.utils import translation

from campaigns.errors import CampaignError
from config.errors import refusal_text
from rules.catalogue import get_clock
from rules.errors import RulesError


def test_refusal_text_normalises_the_language() -> None:
    with pytest.raises(Exception) as error:
        get_clock("11-1")
    assert isinstance(error.value, RulesError)
    with translation.override("ja"):
        assert refusal_text(error.value).startswith("不明な時計盤")
    with translation.override("de"):
        assert refusal_text(error.value) == error.value.message
    assert refusal_text(CampaignError("Al gezegd.")) == "Al gezegd."
