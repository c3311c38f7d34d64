"""The pages that take a group's history out (JSON, CSV, a session for BG Stats) and bring
one in (an upload; a long one is imported by the worker, its progress polled by htmx).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, HttpResponseStopPolling

from campaigns.access import get_group_for_user
from campaigns.errors import CampaignError
from campaigns.forms import ImportForm
from campaigns.history import exports, import_jobs
from campaigns.models import HistoryImport, Session
from config.http import AuthenticatedHttpRequest, attachment
from rules import jsontext

# --- imports --------------------------------------------------------------------------------------


@login_required
@require_POST
def group_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    """An uploaded history: a new group, or its import under way. Every answer is a redirect
    (a reload never posts the file again, a language switch finds a page): a refusal goes
    back to My groups with the reason as a message."""
    form = ImportForm(request.POST, request.FILES)
    reason = ""
    if form.is_valid():
        try:
            data = jsontext.loads(form.cleaned_data["history"].read().decode("utf-8"))
            started = import_jobs.start_import(request.user, data)
        except (ValueError, UnicodeDecodeError):
            reason = _("The file is not JSON.")
        except CampaignError as error:
            reason = error.message
        else:
            if isinstance(started, HistoryImport):  # a long history: the worker imports it
                return redirect("campaigns:import_progress", started.pk)
            messages.success(request, _("History imported."))
            return redirect("campaigns:group", started.pk)
    else:
        reason = " ".join(str(e) for errors in form.errors.values() for e in errors)
    messages.error(request, _("The history was not imported: %(reason)s") % {"reason": reason})
    return redirect(reverse("dashboard") + "#import")


@login_required
@require_GET
@vary_on_headers("HX-Request")
def import_progress(request: AuthenticatedHttpRequest, import_id: int) -> HttpResponse:
    """A long import under way: its progress, polled by htmx (a refresh without JavaScript);
    the group page once it is done. Only the person who started it sees it."""
    job = get_object_or_404(HistoryImport, pk=import_id, owner=request.user)
    if job.status == HistoryImport.Status.DONE and job.group_id is not None:
        messages.success(request, _("History imported."))
        url = reverse("campaigns:group", args=[job.group_id])
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    if request.htmx:
        html = render_to_string("campaigns/import.html#progress", {"job": job}, request=request)
        return HttpResponseStopPolling(html) if job.ended else HttpResponse(html)
    return render(request, "campaigns/import.html", {"job": job})


# --- exports ---------------------------------------------------------------------------


@login_required
@require_GET
def export_json(request: AuthenticatedHttpRequest, group_id: int) -> JsonResponse:
    group, membership = get_group_for_user(request.user, group_id)
    response = JsonResponse(exports.export_history(group), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="timekeeper-{group.pk}.json"'
    return response


@login_required
@require_GET
def export_csv(request: AuthenticatedHttpRequest, group_id: int) -> HttpResponse:
    group, _membership = get_group_for_user(request.user, group_id)
    return attachment(
        exports.attempts_csv(group), "text/csv; charset=utf-8", exports.attempts_csv_name(group)
    )


@login_required
@require_GET
def export_bgstats(
    request: AuthenticatedHttpRequest, group_id: int, session_id: int
) -> JsonResponse:
    group, membership = get_group_for_user(request.user, group_id)
    session = get_object_or_404(Session, pk=session_id, campaign__group=group)
    response = JsonResponse(exports.bgstats_play(session))
    response["Content-Disposition"] = f'attachment; filename="bgstats-{session.pk}.json"'
    return response
