"""POST /api/hints/, GET /api/hints/{id}/, POST /api/hints/{id}/cancel/ (docs/api.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from campaigns.models import Group
from solver import jobs, services
from solver.models import HintRequest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commit_at_once")]
Status = HintRequest.Status
COLOURS = "SSM/MMS/SMM/SSM"


def ask(client: APIClient, HTTP_ACCEPT_LANGUAGE: str = "en", **data: Any) -> Any:
    return client.post(
        "/api/hints/",
        {"clock": "1-1", "colours": COLOURS, **data},
        format="json",
        HTTP_ACCEPT_LANGUAGE=HTTP_ACCEPT_LANGUAGE,
    )


def test_asking_answers_202_with_the_id_and_url(
    api: Callable[[User], APIClient], alice: User, sent: list[int]
) -> None:
    response = ask(api(alice), face_up=5)
    assert response.status_code == 202
    body = response.json()
    hint = HintRequest.objects.get()
    assert body["id"] == hint.pk
    assert body["url"] == f"/api/hints/{hint.pk}/"
    assert response["Location"] == body["url"]
    assert body["page"] == f"/hints/{hint.pk}/"
    assert (body["status"], body["progress"], body["face_up"]) == ("queued", 0, 5)
    assert sent == [hint.pk]


def test_the_same_request_twice_is_one_job(
    api: Callable[[User], APIClient], alice: User, sent: list[int]
) -> None:
    client = api(alice)
    first = ask(client)
    second = ask(client)
    assert (first.status_code, second.status_code) == (202, 200)
    assert first.json()["id"] == second.json()["id"]
    assert len(sent) == 1


def test_a_clock_definition_is_accepted(
    api: Callable[[User], APIClient], alice: User, sent: list[int]
) -> None:
    clock = {
        "id": "1-1",
        "chapter": 1,
        "number": 1,
        "start": 1,
        "cap": 24,
        "rules": [{"kind": "card_count", "segment": 6, "count": 2}],
    }
    response = ask(api(alice), clock=clock)
    assert response.status_code == 202
    assert HintRequest.objects.get().clock_definition["cap"] == 24


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"clock": "11-1"}, "clock"),
        ({"clock": {"id": "1-1"}}, "clock"),
        ({"colours": "SSM/MMS/SMM"}, "colours"),
        ({"colours": "SSM/MMS/SMM/SSQ"}, "colours"),
        ({"face_up": 8}, "face_up"),
        ({"face_up": -1}, "face_up"),
        ({"face_up": "lots"}, "face_up"),
        ({"colours": None}, "colours"),
        ({"slip_rate": 0.51}, "slip_rate"),
        ({"slip_rate": -0.01}, "slip_rate"),
        ({"slip_rate": "often"}, "slip_rate"),
    ],
)
def test_bad_input_is_400_field_by_field(
    api: Callable[[User], APIClient], alice: User, data: dict[str, Any], field: str
) -> None:
    response = ask(api(alice), **data)
    assert response.status_code == 400
    assert list(response.json()) == [field]
    assert response.json()[field][0]
    assert not HintRequest.objects.exists()


def test_the_slip_rate_is_kept_with_the_job_and_defaults_to_one_in_twenty(
    api: Callable[[User], APIClient], alice: User, sent: list[int]
) -> None:
    client = api(alice)
    default = ask(client).json()
    assert default["slip_rate"] == 0.05
    clumsy = ask(client, slip_rate=0.2)
    assert clumsy.status_code == 202
    assert clumsy.json()["slip_rate"] == 0.2
    assert HintRequest.objects.get(pk=clumsy.json()["id"]).slip_rate == 0.2
    # Another slip rate is another job, not the same input.
    assert clumsy.json()["id"] != default["id"]
    careful = ask(client, slip_rate=0)
    assert careful.json()["slip_rate"] == 0.0
    reason = ask(client, slip_rate=0.7, HTTP_ACCEPT_LANGUAGE="nl").json()["slip_rate"][0]
    assert "0,05" in reason and "0.5" in reason


def test_the_reason_comes_in_the_callers_language(
    api: Callable[[User], APIClient], alice: User
) -> None:
    client = api(alice)
    english = ask(client, colours="SSM/MMS/SMM").json()["colours"][0]
    dutch = ask(client, colours="SSM/MMS/SMM", HTTP_ACCEPT_LANGUAGE="nl").json()["colours"][0]
    assert english.startswith("These colours are not a table:")
    assert dutch.startswith("Deze kleuren vormen geen tafel:")
    assert dutch.split(":", 1)[1] != english.split(":", 1)[1]  # the reason too


def test_an_untranscribed_clock_is_played_by_the_base_rules_and_says_so(
    api: Callable[[User], APIClient], alice: User, sent: list[int]
) -> None:
    # The best definition available for 3-2 without a group is the base rules: no tick needed.
    asks: list[dict[str, Any]] = [{}, {"base_rules": True}]
    for asked in asks:
        HintRequest.objects.all().delete()
        response = ask(api(alice), clock="3-2", **asked)
        assert response.status_code == 202
        assert response.json()["base_rules"] is True
        assert response.json()["definition_source"] == "base_rules"


def test_a_fourth_active_hint_is_429(
    api: Callable[[User], APIClient], alice: User, sent: list[int]
) -> None:
    client = api(alice)
    for face_up in (4, 5, 6):
        assert ask(client, face_up=face_up).status_code == 202
    response = ask(client, face_up=7)
    assert response.status_code == 429
    assert "3 hints in progress" in response.json()["detail"]


def test_the_thirty_first_hint_in_an_hour_is_429(
    api: Callable[[User], APIClient], alice: User, sent: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "MAX_PER_HOUR", 2)
    client = api(alice)
    assert ask(client, face_up=4).status_code == 202
    assert ask(client, face_up=5).status_code == 202
    response = ask(client, face_up=6)
    assert response.status_code == 429
    assert "last hour" in response.json()["detail"]


def test_status_progress_and_result(
    api: Callable[[User], APIClient], alice: User, sent: list[int]
) -> None:
    client = api(alice)
    hint_id = ask(client).json()["id"]
    jobs.claim(hint_id, "task-1")
    HintRequest.objects.filter(pk=hint_id).update(
        progress=37, stage="racing", stage_round=1, stage_of=4
    )
    body = client.get(f"/api/hints/{hint_id}/").json()
    assert (body["status"], body["progress"]) == ("running", 37)
    assert body["stage"] == "Racing plans, round 1 of 4"
    assert body["result"] is None


def test_group_members_may_read_a_group_hint(
    api: Callable[[User], APIClient], alice: User, bob: User, charlie: User, group: Group
) -> None:
    hint_id = ask(api(alice), group=group.pk).json()["id"]
    assert api(bob).get(f"/api/hints/{hint_id}/").status_code == 200
    assert api(charlie).get(f"/api/hints/{hint_id}/").status_code == 404


def test_outsiders_cannot_ask_for_someone_elses_group(
    api: Callable[[User], APIClient], charlie: User, group: Group
) -> None:
    assert ask(api(charlie), group=group.pk).status_code == 404


def test_other_peoples_hints_are_404(
    api: Callable[[User], APIClient], alice: User, bob: User, sent: list[int]
) -> None:
    hint_id = ask(api(alice)).json()["id"]
    assert api(bob).get(f"/api/hints/{hint_id}/").status_code == 404
    assert api(bob).post(f"/api/hints/{hint_id}/cancel/").status_code == 404
    assert api(bob).get("/api/hints/999999/").status_code == 404


def test_cancel(api: Callable[[User], APIClient], alice: User, sent: list[int]) -> None:
    client = api(alice)
    hint_id = ask(client).json()["id"]
    response = client.post(f"/api/hints/{hint_id}/cancel/")
    assert response.status_code == 200
    assert response.json()["status"] == "cancelled"
    assert HintRequest.objects.get(pk=hint_id).status == Status.CANCELLED


def test_only_the_asker_cancels_a_group_hint(
    api: Callable[[User], APIClient], alice: User, bob: User, group: Group, sent: list[int]
) -> None:
    hint_id = ask(api(alice), group=group.pk).json()["id"]
    assert api(bob).post(f"/api/hints/{hint_id}/cancel/").status_code == 403
    assert HintRequest.objects.get(pk=hint_id).status == Status.QUEUED


def test_anonymous_callers_are_refused() -> None:
    client = APIClient()
    assert client.post("/api/hints/", {}, format="json").status_code in (401, 403)
    assert client.get("/api/hints/1/").status_code in (401, 403)
    assert client.post("/api/hints/1/cancel/").status_code in (401, 403)


def test_wrong_methods_are_405(api: Callable[[User], APIClient], alice: User) -> None:
    client = api(alice)
    assert client.get("/api/hints/").status_code == 405
    assert client.delete("/api/hints/1/").status_code == 405
    assert client.get("/api/hints/1/cancel/").status_code == 405


def test_the_endpoints_are_in_the_openapi_schema(
    api: Callable[[User], APIClient], alice: User
) -> None:
    response = api(alice).get("/api/schema/", {"format": "json"})
    paths = response.json()["paths"]
    assert "post" in paths["/api/hints/"]
    assert "get" in paths["/api/hints/{hint_id}/"]
    assert "post" in paths["/api/hints/{hint_id}/cancel/"]
    assert "429" in paths["/api/hints/"]["post"]["responses"]


def test_the_alternatives_in_the_result_speak_to_the_names_in_the_readers_language(
    api: Callable[[User], APIClient], alice: User, sent: list[int]
) -> None:
    from rules.catalogue import get_clock
    from rules.seats import parse_colours
    from solver.core.search.search import recommend
    from solver.results import result_json

    client = api(alice)
    hint_id = ask(client, names=["Ann", "Bea", "Cas", "Dan"]).json()["id"]
    hint = HintRequest.objects.get(pk=hint_id)
    result = recommend(get_clock("1-1"), parse_colours(hint.colours), hint.face_up, effort=0.05,
                       compute_odds=False)  # fmt: skip
    HintRequest.objects.filter(pk=hint_id).update(
        status=HintRequest.Status.DONE, result=result_json(result, "en")
    )
    body = client.get(f"/api/hints/{hint_id}/", HTTP_ACCEPT_LANGUAGE="nl").json()["result"]
    assert body["alternatives"]
    for other, made in zip(body["alternatives"], result.alternatives, strict=True):
        assert other["plan"] == made.plan.to_json()
        assert other["words"] == other["words_all"]["nl"] != other["words_all"]["en"]
        assert "opens" not in other["words"]  # Dutch, not the stored English
    opener = body["alternatives"][0]["plan"]["opener"]
    assert ["Ann", "Bea", "Cas", "Dan"][opener - 1] in body["alternatives"][0]["words"]
