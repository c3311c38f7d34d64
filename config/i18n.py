"""The active language, named as the rules engine names it.

Every app asks for it (campaign services, hint pages, the API's error bodies), so it lives
here rather than in one of them.
"""

from django.utils.translation import get_language

from rules.i18n import LANGUAGES


def current_lang() -> str:
    """The active language as the rules engine names it: en, nl or ja."""
    lang = (get_language() or "en")[:2].lower()
    return lang if lang in LANGUAGES else "en"
