"""The history pages (campaigns.history.views): upload, import again, CSV export."""

from __future__ import annotations

import json

from django.core.files.uploadedfile import SimpleUploadedFile

from campaigns.models import Group
from tests.campaigns.shapes import AsRole, PageUrl, Tap


def test_the_history_round_trips_through_an_upload(
    group_url: PageUrl, tap: Tap, group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed", duration_min=5, notes="close")
    tap(client, group, "skip")
    tap(client, group, "passed", layout="")
    exported = client.get(group_url(group, "export.json")).content
    upload = SimpleUploadedFile("history.json", exported, content_type="application/json")
    response = client.post("/groups/import/", {"history": upload})
    copy = Group.objects.exclude(pk=group.pk).get()
    assert response.status_code == 302
    # the same name is taken by the original: the copy is told apart by "(2)"
    assert copy.name == f"{group.name} (2)"
    again = json.loads(client.get(group_url(copy, "export.json")).content)
    assert {**again, "name": group.name} == json.loads(exported)


def test_a_broken_history_upload_is_a_form_error(group: Group, as_role: AsRole) -> None:
    upload = SimpleUploadedFile("h.json", b'{"format": "other"}')
    response = as_role("owner").post("/groups/import/", {"history": upload}, follow=True)
    assert response.redirect_chain == [("/#import", 302)] and Group.objects.count() == 1
    html = response.content.decode()
    assert "The history was not imported" in html
    # the person's groups are still listed: not "You are not in a group yet"
    assert group.name in html and "not in a group yet" not in html


def test_importing_the_same_history_again_names_the_copy(
    group_url: PageUrl, group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    exported = client.get(group_url(group, "export.json")).content
    for _ in range(2):
        upload = SimpleUploadedFile("history.json", exported, content_type="application/json")
        assert client.post("/groups/import/", {"history": upload}).status_code == 302
    names = sorted(Group.objects.values_list("name", flat=True))
    assert names == sorted([group.name, f"{group.name} (2)", f"{group.name} (3)"])


def test_the_csv_export_has_a_row_per_attempt(
    group_url: PageUrl, tap: Tap, group: Group, as_role: AsRole
) -> None:
    client = as_role("owner")
    tap(client, group, "failed")
    tap(client, group, "passed")
    lines = client.get(group_url(group, "export.csv")).content.decode().strip().splitlines()
    assert len(lines) == 3 and lines[1].split(",")[3:5] == ["1-1", "failed"]
