"""The recap's PNG, for members of the group only (404 for anyone else, as every page)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from campaigns.access import get_group_for_user
from campaigns.models import Session
from campaigns.recap import card
from campaigns.recap.compute import session_recap
from config.http import AuthenticatedHttpRequest


def png_name(session: Session) -> str:
    """The shared file's name: the date only, nothing about who played."""
    return f"timekeeper-recap-{session.date.isoformat()}.png"


@login_required
@require_GET
def recap_png(request: AuthenticatedHttpRequest, group_id: int, session_id: int) -> HttpResponse:
    """The session's recap card as a PNG, in the reader's language (the page's)."""
    group, _membership = get_group_for_user(request.user, group_id)
    session = get_object_or_404(Session, pk=session_id, campaign__group=group)
    response = HttpResponse(card.png(session_recap(session)), content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="{png_name(session)}"'
    response["Cache-Control"] = "private, no-cache"  # a redo or a new attempt changes it
    return response
