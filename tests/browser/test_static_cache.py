"""Static files under hashed names, as the service worker keeps them (issue 8)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect


def test_service_worker_keeps_the_hashed_files(phone: Page, live_server: str) -> None:
    """The worker caches each file under its hashed name; offline, a page kept from before
    a deploy (older names) still gets today's stylesheet."""
    page = phone
    page.goto(live_server + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the worker's control
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    expect(page.locator(".bar")).to_have_css("display", "flex")  # the stylesheet applies
    # A whole page carries its stylesheet inline; boosted pages (htmx) link the file.
    assert page.locator("link[rel=stylesheet]").count() == 0

    kept: list[str] = page.evaluate(
        """async () => {
          const names = (await caches.keys()).filter(n => n.startsWith("static-"));
          const cache = await caches.open(names[0]);
          return (await cache.keys()).map(r => new URL(r.url).pathname);
        }"""
    )
    stylesheets = [u for u in kept if re.fullmatch(r"/static/app\.[0-9a-f]{10}\.css", u)]
    assert len(stylesheets) == 1, kept
    assert any(
        re.fullmatch(r"/static/vendor/htmx-2\.0\.11\.min\.[0-9a-f]{10}\.js", u) for u in kept
    )
    assert "/static/app.css" not in kept  # only hashed names: a deploy brings new ones

    page.context.set_offline(True)
    try:
        css: str = page.evaluate(
            "fetch('/static/app.0123456789.css').then(r => r.ok ? r.text() : '')"
        )
        assert ".offline-banner" in css
    finally:
        page.context.set_offline(False)
