"""Who may see a hint: its asker, and the members of the group it was asked for. Everyone
else gets 404, so an outsider learns nothing, not even that the hint exists."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404

from solver.models import HintRequest


def visible_hints(user: Any) -> QuerySet[HintRequest]:
    """Hints the user may see: their own, and those of groups they belong to."""
    if not getattr(user, "is_authenticated", False):
        return HintRequest.objects.none()
    return HintRequest.objects.filter(Q(user=user) | Q(group__memberships__user=user)).distinct()


def get_hint_for_user(user: Any, hint_id: int) -> HintRequest:
    """The hint if the user may see it, else Http404."""
    hint = visible_hints(user).filter(pk=hint_id).first()
    if hint is None:
        raise Http404
    return hint
