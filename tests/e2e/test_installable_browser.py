"""The installable app in Chromium: the service worker takes control, and offline the app
shows its offline page instead of the browser's error."""

from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _controlled(page: Any) -> None:
    page.wait_for_function(
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null"
    )


def test_the_service_worker_takes_control_of_the_site(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == f"{live_server.url}/"
    page.reload()
    _controlled(page)
    cached = page.evaluate(
        "caches.keys().then(names => Promise.all(names.map(n => caches.open(n)"
        ".then(c => c.keys())))).then(lists => lists.flat().map(r => new URL(r.url).pathname))"
    )
    assert "/offline/" in cached
    assert "/static/css/timekeeper.css" in cached


def test_offline_a_page_shows_the_offline_page(
    page: Any, live_server: Any, screenshot: Any
) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    _controlled(page)
    page.context.set_offline(True)
    try:
        page.goto(f"{live_server.url}/accounts/signup/")
        assert page.get_by_role("heading", name="You are offline").is_visible()
        # Styles come from the cache too: the top bar keeps its colour.
        colour = page.eval_on_selector(".topbar", "e => getComputedStyle(e).backgroundColor")
        assert colour == "rgb(31, 58, 95)"
        screenshot(page, "offline-phone")
    finally:
        page.context.set_offline(False)
    page.goto(f"{live_server.url}/accounts/signup/")
    assert page.get_by_role("button", name="Sign up").is_visible()
