"""A club evening's pages with a keyboard and a screen reader at 390 px (issue 40): focus
never hides under the new-evening form's sticky bar, a tapped regular's chip hands focus on
and says whom it added, the director's page keeps focus through its refresh, the end of a
round's time is announced, "Call time" answers Space, and axe finds nothing."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from ..helpers.api import result
from .conftest import tap
from .helpers import violations

REGULARS = [["Ana", "Boris"], ["Vera", "Goran"], ["Dana", "Ivo"], ["Mila", "Petar"]]
PAIRS = "Ana, Boris\nVera, Goran\nDana, Ivo\nMila, Petar\nZoe, Yan"

#: The focused element and whether it shows at the centre of its part on the screen
#: (nothing sticky covers it). A tall field focused at the screen's edge is scrolled only
#: until it shows: its own centre can be off the screen (how many roster chips there are
#: above the players' field decides), which hides nothing.
FOCUSED = """() => { const el = document.activeElement; const r = el.getBoundingClientRect();
  const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
  const left = Math.max(r.left, 0), right = Math.min(r.right, innerWidth);
  const seen = bottom > top && right > left
    && el.contains(document.elementFromPoint((left + right) / 2, (top + bottom) / 2));
  return { name: el.id || el.getAttribute('name') || el.textContent.trim(), tag: el.tagName,
           submit: el.type === 'submit', seen: seen }; }"""


def regulars(page: Page, live_server: str) -> None:
    """Players who played lately: the new-evening form offers them as chips."""
    for first, second in zip(REGULARS[::2], REGULARS[1::2], strict=True):
        page.request.post(
            live_server + "/api/games",
            data={
                "variant": "classic",
                "sides": [{"name": "A", "players": first}, {"name": "B", "players": second}],
            },
        )


def test_the_new_evening_form_keeps_the_focused_field_in_sight(
    phone: Page, live_server: str
) -> None:
    page = phone
    regulars(page, live_server)
    for language in ("ru", "en"):
        page.goto(f"{live_server}/language/{language}")
        page.goto(live_server + "/evenings/new")
        expect(page.locator("[data-add-players] button").first).to_be_visible()
        assert violations(page) == [], language  # Russian: the bar covered the chips
        hidden = []
        for _ in range(80):
            page.keyboard.press("Tab")
            focused: dict[str, Any] = page.evaluate(FOCUSED)
            if not focused["seen"]:
                hidden.append(focused["name"])
            if focused["submit"]:
                break
        else:
            raise AssertionError("Tab never reached the form's button")
        assert hidden == [], (language, hidden)
    page.goto(f"{live_server}/language/en")


def test_a_regulars_chip_hands_focus_on_and_says_whom_it_added(
    phone: Page, live_server: str
) -> None:
    page = phone
    regulars(page, live_server)
    page.goto(live_server + "/evenings/new")
    chips = page.locator("[data-add-players] button:visible")
    names = chips.all_inner_texts()
    assert len(names) >= 3, names
    # By touch: the chip goes, focus goes to the next one, and the page says it.
    tap(chips.first)
    status = page.locator("[data-added-status]")
    expect(status).to_have_text(f"{names[0]} added to the players.")
    assert status.get_attribute("aria-live") == "polite"
    expect(page.locator("[data-add-players] button", has_text=names[1])).to_be_focused()
    # By keyboard: Enter on the focused chip adds it, and the next chip has the focus.
    page.keyboard.press("Enter")
    expect(status).to_have_text(f"{names[1]} added to the players.")
    expect(page.locator("[data-add-players] button", has_text=names[2])).to_be_focused()
    # The last chip hands focus to the players' field.
    while page.locator("[data-add-players] button:visible").count() > 1:
        page.keyboard.press("Enter")
    last = page.locator("[data-add-players] button:visible").inner_text()
    page.keyboard.press("Enter")
    expect(status).to_have_text(f"{last} added to the players.")
    expect(page.locator("#players")).to_be_focused()
    expect(page.locator("#players")).to_have_value(re.compile(f"{names[0]}, {names[1]}"))


def new_evening(page: Page, live_server: str, minutes: str = "50") -> str:
    """An evening made on the page (this browser directs it); its address."""
    page.goto(live_server + "/evenings/new")
    page.get_by_label("Name of the evening").fill("Keyboard club")
    page.locator("#players").fill(PAIRS)
    page.get_by_label("Rounds", exact=True).fill("2")
    page.get_by_label("Deals per round").fill("2")
    page.get_by_label("Minutes per round (optional)").fill(minutes)
    tap(page.get_by_role("button", name="Seat round 1"))
    expect(page.locator("h1")).to_have_text("Keyboard club")
    return page.url


def table_tokens(page: Page, evening: str) -> list[dict[str, Any]]:
    """The round's tables with their scorer secrets (the director's API read)."""
    link = page.request.get(evening + "/director-link").text()
    found = re.search(r'href="[^"#]+/join#([^"]+)"', link)
    assert found, link
    evening_id = evening.rsplit("/", 1)[1]
    body = page.request.get(
        evening.replace(f"/evenings/{evening_id}", f"/api/evenings/{evening_id}"),
        headers={"Authorization": f"Bearer {found.group(1)}"},
    ).json()
    return list(body["rounds"][-1]["tables"])


def test_the_directors_page_keeps_focus_through_its_refresh(phone: Page, live_server: str) -> None:
    page = phone
    page.clock.install()
    evening = new_evening(page, live_server)
    table = table_tokens(page, evening)[0]
    for control in (
        page.locator(".table-link").first,
        page.get_by_role("button", name="Call time on round 1"),
    ):
        control.focus()
        deal = {"results": [result(150, hand=10), result(90, hand=5)]}
        answer = page.request.post(
            f"{live_server}/api/games/{table['game']}/deals",
            data=deal,
            headers={"Authorization": f"Bearer {table['token']}"},
        )
        assert answer.status == 201, answer.text()
        played = page.locator(".table-live").first.locator(".table-state")
        before = played.inner_text()
        page.clock.fast_forward(11_000)  # the page's refresh, every 10 s
        expect(played).not_to_have_text(before)
        expect(control).to_be_focused()


def test_the_end_of_a_rounds_time_is_announced(phone: Page, live_server: str) -> None:
    page = phone
    page.clock.install()
    new_evening(page, live_server, minutes="1")
    countdown = page.locator("[data-countdown]").first
    expect(countdown).to_have_text(re.compile(r"^(0|1):\d\d left$"))
    announced = page.locator("[data-time-up-status]")
    assert announced.get_attribute("aria-live") == "assertive"
    expect(announced).to_be_empty()  # silent while it counts down
    page.clock.fast_forward("01:01")
    expect(countdown).to_have_text("Time is up: finish the deal being played.")
    expect(announced).to_have_text("Time is up: finish the deal being played.")


def test_call_time_answers_the_space_bar(phone: Page, live_server: str) -> None:
    page = phone
    new_evening(page, live_server)
    call = page.get_by_role("button", name="Call time on round 1")
    call.focus()
    page.keyboard.press("Space")
    expect(page.locator("h1")).to_have_text("Call time on round 1?")
    tap(page.get_by_role("button", name="Call time", exact=True))
    expect(page.get_by_text("Time is called: the last deals are being played.")).to_be_visible()
    expect(page.locator(".is-called .table-state").first).to_have_text(
        "time called: deal 1 is the last"
    )
    assert violations(page) == []
    page.goto(page.url.split("?")[0] + "/director-link")
    assert violations(page) == []
