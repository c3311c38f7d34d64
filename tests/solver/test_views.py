"""The hint pages: ask, watch (htmx polling and the JS-free refresh), read, what if, cancel,
retry, my hints — with permission and wrong-method tests. The broker is replaced by a
list of sent ids; the solver core is not run here (see test_tasks_on_a_worker.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from kombu.exceptions import OperationalError

from campaigns.models import Group
from rules.catalogue import get_clock
from rules.clock import Clock
from rules.seats import parse_colours
from solver import jobs, services
from solver.core.search.search import Alternative, HintResult
from solver.core.table.plans import baseline_plan, h_plan
from solver.core.words import all_words, spoken_number
from solver.hint_inputs import parse_input
from solver.models import HintRequest
from solver.results import result_json

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commit_at_once")]
Status = HintRequest.Status
COLOURS = "SSM/MMS/SMM/SSM"


def make_hint(user: User, group: Group | None = None, face_up: int = 4) -> HintRequest:
    hint_input = parse_input("1-1", COLOURS, face_up)
    hint, _ = services.request_hint(user, hint_input, group=group)
    return hint


def finish(hint: HintRequest) -> HintRequest:
    clock, seats = get_clock("1-1"), parse_colours(COLOURS)
    result = HintResult(
        plan=baseline_plan(clock, seats, 4),
        pass_rate=0.6123,
        interval=(0.58, 0.64),
        baseline_rate=0.41,
        odds=0.97,
        games=4000,
        words=all_words(baseline_plan(clock, seats, 4), clock, seats, 4),
        partial=False,
    )
    HintRequest.objects.filter(pk=hint.pk).update(
        status=Status.DONE,
        progress=100,
        result=result_json(result, "en"),
        finished_at=timezone.now(),
    )
    hint.refresh_from_db()
    return hint


def taps(colours: str) -> dict[str, Any]:
    """The POST data the tap cards send for these colours."""
    moons = []
    for number, seat in enumerate(colours.split("/"), start=1):
        cards = seat.replace("+", "")
        moons += [f"{number}.{i}" for i, letter in enumerate(cards) if letter == "M"]
    return {"moon": moons, "players": len(colours.split("/"))}


# --- asking ---------------------------------------------------------------------------------


def test_the_form_shows_three_seats_of_four_by_default(
    login: Callable[[User], Client], alice: User
) -> None:
    response = login(alice).get("/hints/new/")
    assert response.status_code == 200
    assert response.content.decode().count('name="moon"') == 12
    assert b'name="colours"' in response.content  # the typed fallback


def test_two_players_get_sets_of_four_and_two(login: Callable[[User], Client], alice: User) -> None:
    response = login(alice).get("/hints/new/?players=2")
    assert response.context["form"].seats()[0]["extra"]
    assert len(response.context["form"].seats()[0]["hand"]) == 4
    assert b'class="set-of-two"' in response.content
    assert response.context["form"]["face_up"].value() == 2


def test_htmx_redraws_only_the_seats(login: Callable[[User], Client], alice: User) -> None:
    response = login(alice).get(
        "/hints/new/?players=4&partial=seats", headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert html.startswith('<div id="seats">') or html.lstrip().startswith('<div id="seats">')
    assert html.count('name="moon"') == 12
    assert "<html" not in html


def test_a_group_fills_in_its_next_clock_and_face_up_budget(
    login: Callable[[User], Client], bob: User, group: Group
) -> None:
    campaign = group.current_campaign()
    campaign.bonus_tokens = 2
    campaign.save()
    response = login(bob).get(f"/hints/new/?group={group.pk}&players=3")
    form = response.context["form"]
    assert form["clock"].value() == "1-1"
    assert form["face_up"].value() == 5


def test_a_group_of_four_starts_with_four_seats(
    login: Callable[[User], Client], alice: User, group: Group
) -> None:
    group.players.create(name="Dee")
    form = login(alice).get(f"/hints/new/?group={group.pk}").context["form"]
    assert form["players"].value() == 4
    assert len(form.seats()) == 4
    assert form["face_up"].value() == 4


def test_outsiders_cannot_ask_for_a_group(
    login: Callable[[User], Client], charlie: User, group: Group
) -> None:
    assert login(charlie).get(f"/hints/new/?group={group.pk}").status_code == 404


def test_tapping_the_cards_asks_for_a_hint(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    data = {"clock": "1-1", "face_up": 4, **taps(COLOURS)}
    response = login(alice).post("/hints/new/", data)
    hint = HintRequest.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/hints/{hint.pk}/"
    assert hint.colours == COLOURS
    assert sent == [hint.pk]


def test_the_typed_colours_win_over_the_taps(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    data = {"clock": "1-1", "face_up": 2, "players": 3, "colours": "ssmm+sm/smmm+ss"}
    assert login(alice).post("/hints/new/", data).status_code == 302
    assert HintRequest.objects.get().colours == "SSMM+SM/SMMM+SS"


def test_a_double_tap_on_the_form_makes_one_job(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    client = login(alice)
    data = {"clock": "1-1", "face_up": 4, **taps(COLOURS)}
    first = client.post("/hints/new/", data)
    second = client.post("/hints/new/", data)
    assert first["Location"] == second["Location"]
    assert HintRequest.objects.count() == 1
    assert len(sent) == 1


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"clock": "9-9", "face_up": 4}, "clock"),
        ({"clock": "1-1", "face_up": 8}, "face_up"),
        ({"clock": "1-1", "face_up": 4, "colours": "SSM/MM"}, "colours"),
    ],
)
def test_bad_input_is_shown_at_its_field(
    login: Callable[[User], Client], alice: User, data: dict[str, Any], field: str
) -> None:
    response = login(alice).post("/hints/new/", {**taps(COLOURS), **data})
    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert not HintRequest.objects.exists()


def test_the_limit_is_a_form_error_with_429(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    client = login(alice)
    for face_up in (4, 5, 6):
        client.post("/hints/new/", {"clock": "1-1", "face_up": face_up, **taps(COLOURS)})
    response = client.post("/hints/new/", {"clock": "1-1", "face_up": 7, **taps(COLOURS)})
    assert response.status_code == 429
    assert "3 hints in progress" in response.content.decode()


def test_anonymous_visitors_are_sent_to_log_in(client: Client) -> None:
    for url in ("/hints/new/", "/hints/", "/hints/1/"):
        response = client.get(url)
        assert response.status_code == 302
        assert "/accounts/login/" in response["Location"]


def test_the_request_page_refuses_other_methods(
    login: Callable[[User], Client], alice: User
) -> None:
    assert login(alice).put("/hints/new/").status_code == 405


# --- watching ----------------------------------------------------------------------------------


def test_a_running_hint_shows_a_progress_bar_that_polls(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = make_hint(alice)
    jobs.claim(hint.pk, "task-1")
    HintRequest.objects.filter(pk=hint.pk).update(
        progress=42, stage="racing", stage_round=2, stage_of=4
    )
    html = login(alice).get(f"/hints/{hint.pk}/").content.decode()
    assert 'aria-valuenow="42"' in html
    assert 'hx-trigger="every 1s"' in html
    assert '<meta http-equiv="refresh"' in html  # without JavaScript
    assert "Racing plans, round 2 of 4" in html


def test_the_poll_gets_the_partial_while_running(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = make_hint(alice)
    response = login(alice).get(f"/hints/{hint.pk}/?partial=status", headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="status"')
    assert "<html" not in html


def test_the_poll_stops_when_the_hint_is_done_and_shows_the_result(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = finish(make_hint(alice))
    response = login(alice).get(f"/hints/{hint.pk}/?partial=status", headers={"HX-Request": "true"})
    assert response.status_code == 286  # django-htmx's HttpResponseStopPolling
    html = response.content.decode()
    assert "hx-trigger" not in html.split(">", 1)[0]
    assert "Aim for about 4, 8, 12, 16, 20 and 24." in html
    assert "61%" in html


def test_the_result_shows_the_clock_plan_and_numbers(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = finish(make_hint(alice))
    html = login(alice).get(f"/hints/{hint.pk}/").content.decode()
    assert 'class="clock-face"' in html
    assert "Aim for about 4, 8, 12, 16, 20 and 24." in html
    assert "61%" in html and "58.0%" in html and "64.0%" in html  # rate and its interval
    assert "41%" in html  # baseline
    assert "97%" in html  # odds
    assert f'action="/hints/{hint.pk}/what-if/"' in html
    assert "meta http-equiv" not in html


def test_the_result_shows_targets_as_whole_numbers_and_a_tight_interval_with_a_decimal(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = finish(make_hint(alice))
    result = dict(hint.result or {})
    result["plan"] = {**result["plan"], "targets": [3.6, 6.3, 8.9, 16.8, 21.1, 25.5]}
    result["interval"] = [0.606, 0.614]
    HintRequest.objects.filter(pk=hint.pk).update(result=result)
    html = login(alice).get(f"/hints/{hint.pk}/").content.decode()
    assert "60.6%" in html and "61.4%" in html
    assert 'value="4"' in html and 'value="26"' in html  # the what-if form
    assert "3.6" not in html and "25.5" not in html  # neither form nor clock face
    assert "targets to aim for" in html


@pytest.mark.parametrize(
    ("lang", "rate", "interval", "baseline"),
    [("en", "0.2%", "0.1%–0.4%", "&lt;0.1%"), ("nl", "0,2%", "0,1%–0,4%", "&lt;0,1%")],
)
def test_a_rate_silent_play_seldom_reaches_is_not_shown_as_zero(
    login: Callable[[User], Client],
    alice: User,
    sent: list[int],
    lang: str,
    rate: str,
    interval: str,
    baseline: str,
) -> None:
    # A clock whose one late segment caps the rest: the best plan passes about 1 game in 450.
    hint = finish(make_hint(alice))
    result = dict(hint.result or {})
    result.update(pass_rate=0.0022, interval=[0.0013, 0.0037], baseline_rate=0.0004, odds=0.0925)
    HintRequest.objects.filter(pk=hint.pk).update(result=result)
    client = login(alice)
    client.cookies["django_language"] = lang
    html = client.get(f"/hints/{hint.pk}/").content.decode()
    rate_cell = html.split('class="rate"', 1)[1].split("</strong>", 1)[0]
    assert rate_cell == f">{rate}"
    assert interval in html
    assert f"<dd>{baseline}</dd>" in html  # the baseline, under a tenth of a percent
    odds = "9.2%" if lang == "en" else "9,2%"
    assert f"<dd>{odds}</dd>" in html  # the odds: under 10%, a decimal too
    listed = client.get("/hints/").content.decode()
    assert rate in listed and "0%<" not in listed


def test_the_words_follow_the_readers_language(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = finish(make_hint(alice))
    client = login(alice)
    client.cookies["django_language"] = "nl"
    html = client.get(f"/hints/{hint.pk}/").content.decode()
    assert "Mik op ongeveer 4, 8, 12, 16, 20 en 24." in html
    assert "Zeg dit hardop" in html


def test_broker_down_says_the_solver_is_unavailable(
    login: Callable[[User], Client], alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr("solver.jobs.app.send_task", down)  # the broker is down
    hint = make_hint(alice)
    html = login(alice).get(f"/hints/{hint.pk}/").content.decode()
    assert "The solver is unavailable right now" in html


def test_a_queued_hint_says_the_solver_is_starting_while_the_worker_warms_up(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    from ops.heartbeat import beat

    hint = make_hint(alice)
    client = login(alice)
    starting = "The solver is starting (about a minute the first time)"
    assert starting not in client.get(f"/hints/{hint.pk}/").content.decode()  # no worker
    beat("celery@warming", ready=False)
    assert starting in client.get(f"/hints/{hint.pk}/").content.decode()
    status = client.get(f"/hints/{hint.pk}/?partial=status", headers={"HX-Request": "true"})
    assert starting in status.content.decode()
    beat("celery@warming")  # ready: it takes the job now
    assert starting not in client.get(f"/hints/{hint.pk}/").content.decode()


@pytest.mark.parametrize(
    ("lang", "words", "no_figure"),
    [
        ("en", "The solver is starting: about 20 s left.", "about a minute the first time"),
        ("nl", "De oplosser start op: nog ongeveer 20 s.", "de eerste keer ongeveer een minuut"),
        ("ja", "ソルバーを起動しています。あと約20秒です。", "初回は1分ほど"),
    ],
)
def test_the_starting_solver_says_how_long_is_left_from_the_warm_up_progress(
    login: Callable[[User], Client],
    alice: User,
    sent: list[int],
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
    words: str,
    no_figure: str,
) -> None:
    from ops.heartbeat import Warming, beat
    from solver.core.warm import WarmProgress

    hint = make_hint(alice)
    client = login(alice)
    now = timezone.now()
    monkeypatch.setattr("django.utils.timezone.now", lambda: now)  # the page reads at once
    url = f"/hints/{hint.pk}/?partial=status"

    def status() -> str:
        headers = {"HX-Request": "true"}
        return client.get(url, headers=headers, HTTP_ACCEPT_LANGUAGE=lang).content.decode()

    def at(seconds: int) -> None:
        monkeypatch.setattr("django.utils.timezone.now", lambda: now + timedelta(seconds=seconds))

    beat("celery@warming", ready=False, warming=Warming.after(0, 5, None))
    assert no_figure in status()  # no step done yet: no rate, no figure
    progress = WarmProgress(done=2, total=5, elapsed=40 / 3)  # 3 steps left at 20/3 s each
    warming = Warming.after(progress.done, progress.total, progress.seconds_left)
    beat("celery@warming", ready=False, warming=warming)
    assert words in status() and no_figure not in status()
    # The beats until the next step repeat its progress: the page counts down.
    at(10)
    beat("celery@warming", ready=False, warming=warming)
    assert words.replace("20", "10") in status()
    # Past its estimate and still loading: no figure rather than a wrong one.
    at(21)
    beat("celery@warming", ready=False, warming=warming)
    assert no_figure in status()
    beat("celery@warming")  # ready: it takes the job now
    assert no_figure not in status() and words not in status()


def test_a_failed_hint_offers_a_retry(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = make_hint(alice)
    jobs.fail(hint.pk, HintRequest.Failure.WORKER_LOST, "lost")
    client = login(alice)
    html = client.get(f"/hints/{hint.pk}/").content.decode()
    assert "The solver stopped while it was working on this hint." in html
    assert f'action="/hints/{hint.pk}/retry/"' in html
    response = client.post(f"/hints/{hint.pk}/retry/")
    new = HintRequest.objects.exclude(pk=hint.pk).get()
    assert response["Location"] == f"/hints/{new.pk}/"
    assert (new.status, new.colours, new.face_up) == (Status.QUEUED, hint.colours, hint.face_up)


# --- who sees what -----------------------------------------------------------------------------


def test_group_members_see_a_group_hint_and_outsiders_get_404(
    login: Callable[[User], Client], alice: User, bob: User, charlie: User, group: Group
) -> None:
    hint = make_hint(alice, group=group)
    assert login(alice).get(f"/hints/{hint.pk}/").status_code == 200
    assert login(bob).get(f"/hints/{hint.pk}/").status_code == 200
    assert login(charlie).get(f"/hints/{hint.pk}/").status_code == 404


def test_a_private_hint_is_404_to_everyone_else(
    login: Callable[[User], Client], alice: User, bob: User
) -> None:
    hint = make_hint(alice)
    assert login(bob).get(f"/hints/{hint.pk}/").status_code == 404
    assert login(bob).post(f"/hints/{hint.pk}/cancel/").status_code == 404
    assert login(bob).post(f"/hints/{hint.pk}/retry/").status_code == 404
    assert login(bob).post(f"/hints/{hint.pk}/what-if/").status_code == 404


def test_only_the_asker_cancels(
    login: Callable[[User], Client], alice: User, bob: User, group: Group
) -> None:
    hint = make_hint(alice, group=group)
    assert login(bob).post(f"/hints/{hint.pk}/cancel/").status_code == 403
    response = login(alice).post(f"/hints/{hint.pk}/cancel/")
    assert response.status_code == 302
    hint.refresh_from_db()
    assert hint.status == Status.CANCELLED


@pytest.mark.parametrize("action", ["cancel", "retry", "what-if"])
def test_post_only_actions_refuse_get(
    login: Callable[[User], Client], alice: User, action: str
) -> None:
    hint = make_hint(alice)
    assert login(alice).get(f"/hints/{hint.pk}/{action}/").status_code == 405


@pytest.mark.parametrize("action", ["cancel", "retry", "what-if"])
def test_post_only_actions_need_a_login(client: Client, alice: User, action: str) -> None:
    hint = make_hint(alice)
    response = client.post(f"/hints/{hint.pk}/{action}/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
    hint.refresh_from_db()
    assert hint.status == Status.QUEUED


def test_the_detail_page_refuses_post(login: Callable[[User], Client], alice: User) -> None:
    hint = make_hint(alice)
    assert login(alice).post(f"/hints/{hint.pk}/").status_code == 405


def test_my_hints_lists_only_mine(login: Callable[[User], Client], alice: User, bob: User) -> None:
    mine = make_hint(alice)
    make_hint(bob, face_up=5)
    response = login(alice).get("/hints/")
    assert [h.pk for h in response.context["page"].object_list] == [mine.pk]


def test_my_hints_shows_the_pass_rate_as_a_percentage(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    finish(make_hint(alice))
    html = login(alice).get("/hints/").content.decode()
    assert "pass rate 61%" in html and "0.61" not in html


# --- what if -----------------------------------------------------------------------------------


def test_what_if_simulates_the_groups_targets(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = finish(make_hint(alice))
    data = {f"target_{i}": t for i, t in enumerate([3, 6, 9, 12, 15, 30], start=1)}
    response = login(alice).post(f"/hints/{hint.pk}/what-if/", {**data, "opener": 2})
    assert response.status_code == 200
    outcome = response.context["what_if"]
    assert outcome.mine.games == outcome.suggested.games > 0
    assert 0 <= outcome.mine.pass_rate <= 1
    assert outcome.mine.pass_rate != outcome.suggested.pass_rate  # a very different plan
    assert "Your version passes" in response.content.decode()
    assert "the suggested plan passes" in response.content.decode()


def finish_with_choices(hint: HintRequest) -> HintRequest:
    """A finished hint that offers two plans: the recommended (and simplest) one and a bold
    one with other targets, words and rates."""
    clock, seats = get_clock("1-1"), parse_colours(COLOURS)
    plan = baseline_plan(clock, seats, 4)
    bold_plan = plan.with_(targets=(2, 6, 10, 14, 18, 22), opener=2)
    words = all_words(plan, clock, seats, 4)
    bold_words = all_words(bold_plan, clock, seats, 4)
    recommended = Alternative(
        ("recommended", "simplest"), plan, 0.80, (0.78, 0.82), 0.74, (0.72, 0.76), words, 9, 90
    )
    bold = Alternative(
        ("bold",), bold_plan, 0.83, (0.81, 0.85), 0.69, (0.67, 0.71), bold_words, 10, 99
    )
    result = HintResult(
        plan=plan,
        pass_rate=0.80,
        interval=(0.78, 0.82),
        baseline_rate=0.41,
        odds=0.97,
        games=4000,
        words=words,
        partial=False,
        slip_rate=0.05,
        pass_rate_with_slips=0.74,
        interval_with_slips=(0.72, 0.76),
        alternatives=(recommended, bold),
    )
    HintRequest.objects.filter(pk=hint.pk).update(
        status=Status.DONE,
        progress=100,
        result=result_json(result, "en"),
        finished_at=timezone.now(),
    )
    hint.refresh_from_db()
    return hint


def test_the_result_says_the_rate_clean_and_with_slips_in_plain_words(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = finish_with_choices(make_hint(alice))
    client = login(alice)
    html = client.get(f"/hints/{hint.pk}/").content.decode()
    assert "80% if everyone plays it as said; 74% with a slip every 20 moves" in html
    client.cookies["django_language"] = "nl"
    dutch = client.get(f"/hints/{hint.pk}/", headers={"Accept-Language": "nl"}).content.decode()
    assert "80% als iedereen het speelt zoals afgesproken; 74% met een vergissing per 20" in dutch


def test_the_plans_offered_are_tabs_and_each_shows_its_own_words_and_rates(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = finish_with_choices(make_hint(alice))
    client = login(alice)
    html = client.get(f"/hints/{hint.pk}/").content.decode()
    assert 'class="plan-tabs"' in html
    assert "Recommended · Simplest" in html and "Bold" in html
    assert 'href="?plan=1"' in html and 'aria-current="page"' in html
    own, other = "Aim for about 4, 8, 12, 16, 20 and 24.", "Aim for about 2, 6, 10, 14, 18 and 22."
    assert own in html and other not in html
    assert "10 sentences" in html  # the bold tab's size
    bold = client.get(f"/hints/{hint.pk}/?plan=1").content.decode()
    assert other in bold and own not in bold
    assert "Seat 2 opens." in bold  # the bold plan's own opener
    assert "83% if everyone plays it as said; 69% with a slip every 20 moves" in bold
    assert 'name="plan" value="1"' in bold  # What if varies the bold plan
    # An index that is not a plan shows the recommended one.
    assert own in client.get(f"/hints/{hint.pk}/?plan=7").content.decode()


def test_what_if_works_on_each_plan_offered(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = finish_with_choices(make_hint(alice))
    client = login(alice)
    bold_targets = {f"target_{i}": t for i, t in enumerate([2, 6, 10, 14, 18, 22], start=1)}
    # The bold plan's own targets and opener, asked on the bold tab: the same plan, so the
    # same games pass; asked against the recommended plan, a different one.
    on_bold = client.post(
        f"/hints/{hint.pk}/what-if/", {**bold_targets, "opener": 2, "plan": 1}
    ).context["what_if"]
    assert on_bold.mine == on_bold.suggested
    on_recommended = client.post(
        f"/hints/{hint.pk}/what-if/", {**bold_targets, "opener": 2, "plan": 0}
    ).context["what_if"]
    assert on_recommended.mine == on_bold.mine
    assert on_recommended.suggested != on_bold.suggested


@pytest.mark.parametrize(("lang", "said"), [("en", "without its plan"), ("nl", "zonder zijn plan")])
def test_a_hint_stored_without_a_plan_says_so_and_offers_nothing_to_vary(
    login: Callable[[User], Client], alice: User, sent: list[int], lang: str, said: str
) -> None:
    # As `manage.py seed_demo` stores its hints: rates, no plan, no words.
    hint = finish(make_hint(alice))
    result = dict(hint.result or {})
    result.update(plan={}, words="", words_all={}, alternatives=[])
    HintRequest.objects.filter(pk=hint.pk).update(result=result)
    client = login(alice)
    client.cookies["django_language"] = lang
    page = client.get(f"/hints/{hint.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert said in html and '<ol class="words"></ol>' not in html
    assert 'id="what-if"' in html and 'name="target_1"' not in html  # the card, no form
    if lang == "en":
        assert "targets to aim for" not in html  # the face has no targets to point at
    data = {f"target_{i}": t for i, t in enumerate([3, 6, 9, 12, 15, 30], start=1)}
    for headers in ({}, {"HX-Request": "true"}):
        answer = client.post(f"/hints/{hint.pk}/what-if/", {**data, "opener": 1}, headers=headers)
        assert answer.status_code == (200 if headers else 400)
        assert said in answer.content.decode()


def test_what_if_with_htmx_swaps_its_own_card(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = finish(make_hint(alice))
    data = {f"target_{i}": t for i, t in enumerate([3, 6, 9, 12, 15, 30], start=1)}
    response = login(alice).post(
        f"/hints/{hint.pk}/what-if/", {**data, "opener": 1}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div class="card" id="what-if">')


def test_what_if_refuses_a_missing_target(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = finish(make_hint(alice))
    response = login(alice).post(f"/hints/{hint.pk}/what-if/", {"target_1": 3, "opener": 1})
    assert response.status_code == 400
    assert response.context["what_if_form"].errors["target_2"]


def test_what_if_names_the_seats_as_the_table_did(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = finish(make_hint(alice))
    HintRequest.objects.filter(pk=hint.pk).update(names=["Ann", "Bea", "Cas", "Dirk"])
    html = login(alice).get(f"/hints/{hint.pk}/").content.decode()
    assert '<option value="2">Bea</option>' in html and "Seat 2" not in html
    # Without names the seats keep their numbers.
    other = finish(make_hint(alice, face_up=3))
    assert (
        '<option value="2">Seat 2</option>'
        in login(alice).get(f"/hints/{other.pk}/").content.decode()
    )


def test_what_if_says_why_its_suggested_figure_differs_from_the_headline(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = finish(make_hint(alice))  # the headline: 61%, from 4000 games
    data = {f"target_{i}": t for i, t in enumerate([3, 6, 9, 12, 15, 30], start=1)}
    response = login(alice).post(f"/hints/{hint.pk}/what-if/", {**data, "opener": 2})
    outcome = response.context["what_if"]
    html = response.content.decode()
    assert round(outcome.suggested.pass_rate * 100) != 61  # the stub's figure is not the plan's
    assert (
        "That is not the 61% above" in html
        and f"{outcome.suggested.games} games against the 4000" in html
    )


def test_each_tab_says_in_one_line_why_to_pick_it(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    hint = finish_with_choices(make_hint(alice))
    client = login(alice)
    html = client.get(f"/hints/{hint.pk}/").content.decode()
    assert "best when someone slips now and then; easiest to remember" in html
    assert "best if nobody slips" in html
    client.cookies["django_language"] = "ja"
    japanese = client.get(f"/hints/{hint.pk}/", headers={"Accept-Language": "ja"}).content.decode()
    assert "誰もミスをしなければ一番よい" in japanese


def test_an_exactly_twelve_plan_shows_what_each_segment_ends_at_and_varies_only_the_opener(
    login: Callable[[User], Client], alice: User, sent: list[int]
) -> None:
    # A clock whose last segment takes one Sun: the plan follows the exactly-twelve
    # convention (Plan.exact), which ignores its targets.
    hint = finish(make_hint(alice))
    clock = Clock.from_json(
        {"id": "1-1", "rules": [{"kind": "colours", "segment": 6, "sun": 1, "moon": 0}]}
    )
    seats = parse_colours(COLOURS)
    plan = replace(h_plan(clock, seats), exact=True)
    result = HintResult(
        plan=plan,
        pass_rate=0.0224,
        interval=(0.0199, 0.0251),
        baseline_rate=0.0,
        odds=0.0925,
        games=12_500,
        words=all_words(plan, clock, seats, 4),
        partial=False,
        slip_rate=0.05,
        pass_rate_with_slips=0.0183,
        interval_with_slips=(0.016, 0.021),
    )
    HintRequest.objects.filter(pk=hint.pk).update(
        clock_definition=clock.to_json(), result=result_json(result, "en")
    )
    client = login(alice)
    html = client.get(f"/hints/{hint.pk}/").content.decode()
    assert "Segments 2, 3, 4 and 5 each end at exactly 12" in html
    face = html.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert face.count("target 12") == 5 and face.count("target ") == 5  # segment 1: the rest
    # Under 10%, a decimal: clean and with slips do not both read "2%".
    assert "2.2% if everyone plays it as said; 1.8% with a slip every 20 moves" in html
    assert "whatever the targets: choose who opens" in html
    assert 'type="number" name="target_' not in html  # the targets travel unchanged, hidden
    targets = {f"target_{s}": t for s, t in enumerate((spoken_number(t) for t in plan.targets), 1)}
    for name, value in targets.items():
        assert f'type="hidden" name="{name}" value="{value}"' in html
    answer = client.post(f"/hints/{hint.pk}/what-if/", {**targets, "opener": 2, "plan": 0})
    assert answer.status_code == 200
    assert "Your version passes" in answer.content.decode()
    assert 'type="number" name="target_' not in answer.content.decode()
