"""Effort at the table: every tap and key press it takes to record a deal, counted.

The deal is RULES.md section 8, cases A and B together: We went out with a natural and a
mixed canasta, one red three, 220 melded and 10 in hand; They melded 150, laid down two
red threes and held 85. The information alone is 6 stepper taps and 10 digits; the budget
(DESIGN.md, issue 8) is 20 actions from the score sheet back to the score sheet.
"""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from .conftest import tap
from .helpers import htmx_ready, keypad_enter, start_classic

BUDGET = 20

#: Counts, in the page itself, every trusted touch and key press (kept across page loads).
COUNT_IN_PAGE = """
(() => {
  const note = (what) => {
    const seen = JSON.parse(sessionStorage.getItem("effort") || "[]");
    seen.push(what);
    sessionStorage.setItem("effort", JSON.stringify(seen));
  };
  const tap = (e) => { if (e.isTrusted) note("tap"); };
  addEventListener("touchstart", tap, { capture: true, passive: true });
  addEventListener("keydown", (e) => { if (e.isTrusted) note("key " + e.key); }, true);
})();
"""


class Player:
    """The only way the test touches the page: each call is one action, and is counted.

    A target that is off screen or under the sticky bars costs a scroll first, as it
    would a player's thumb.
    """

    def __init__(self, page: Page) -> None:
        self.page = page
        self.actions: list[str] = []

    def _reachable(self, target: Locator) -> bool:
        return bool(
            target.evaluate(
                """el => {
                  const r = el.getBoundingClientRect();
                  if (r.top < 0 || r.bottom > innerHeight) return false;
                  if (r.left < 0 || r.right > innerWidth) return false;
                  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                  return !!hit && el.contains(hit);
                }"""
            )
        )

    def tap(self, target: Locator, what: str) -> None:
        target.wait_for(state="visible")
        if not self._reachable(target):
            self.actions.append(f"scroll to {what}")
            target.scroll_into_view_if_needed()
        target.tap()
        self.actions.append(f"tap {what}")

    def type(self, text: str) -> None:
        for key in text:
            self.page.keyboard.press(key)
            self.actions.append(f"key {key}")

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.actions.append(f"key {key}")

    def counted_in_page(self) -> list[str]:
        seen: list[str] = self.page.evaluate("JSON.parse(sessionStorage.getItem('effort') || '[]')")
        return seen


def more(page: Page, label: str, side: str) -> Locator:
    return page.get_by_role("button", name=f"{label}, {side}: one more")


def focused(page: Page) -> str:
    return str(page.evaluate("document.activeElement && document.activeElement.id"))


def test_cases_a_and_b_within_budget(phone: Page, live_server: str) -> None:
    page = phone
    start_classic(page, live_server)
    page.add_init_script(COUNT_IN_PAGE)
    page.reload()
    expect(page.locator(".total-points")).to_have_text(["0", "0"])
    player = Player(page)

    player.tap(page.get_by_role("link", name="Record deal 1"), "Record deal 1")
    htmx_ready(page)
    # The steppers: We have a natural and a mixed canasta and a red three; They two red threes.
    player.tap(more(page, "Natural canastas", "We"), "We natural +")
    player.tap(more(page, "Mixed canastas", "We"), "We mixed +")
    player.tap(more(page, "Red threes", "We"), "We red three +")
    player.tap(more(page, "Red threes", "They"), "They red three +")
    player.tap(more(page, "Red threes", "They"), "They red three +")
    # Only We have a canasta, so only We can have gone out: the form says so by itself.
    expect(page.get_by_role("radio", name="We")).to_be_checked()
    # The numbers: a full figure moves on by itself (one more digit would pass all the
    # points the packs hold); "next" on the keypad moves on after a short one.
    player.tap(page.get_by_label("Melded points").first, "We melded points")
    player.type("220")
    assert focused(page) == "sides-0-hand_points"
    player.type("10")
    assert focused(page) == "sides-0-hand_points"  # 10 may become 100: it waits
    expect(page.locator("#sides-0-hand_points")).to_have_attribute("enterkeyhint", "next")
    player.press("Enter")
    assert focused(page) == "sides-1-meld_points"
    player.type("150")
    assert focused(page) == "sides-1-hand_points"
    player.type("85")
    expect(page.locator("#preview")).to_contain_text("+1,210")
    expect(page.locator("#preview")).to_contain_text("+265")
    player.tap(page.get_by_role("button", name="Save deal 1"), "Save deal 1")

    # Back on the sheet, with the figures of RULES.md section 8.
    expect(page.locator(".flash")).to_contain_text("Deal 1 saved.")
    expect(page.locator(".total-points")).to_have_text(["1,210", "265"])
    expect(page.locator(".sheet tbody tr").first).to_contain_text("1,210")
    expect(page.locator(".sheet tbody tr").first).to_contain_text("265")

    print(f"\nrecording cases A and B: {len(player.actions)} actions: {player.actions}")
    # The page saw exactly the actions counted here: nothing was typed behind its back.
    in_page = player.counted_in_page()
    assert len(in_page) == len([a for a in player.actions if not a.startswith("scroll")]), in_page
    overhead = [a for a in player.actions if not (a.endswith(" +") or a[4:].isdigit())]
    assert overhead == [
        "tap Record deal 1",
        "tap We melded points",
        "key Enter",
        "tap Save deal 1",
    ]
    assert len(player.actions) <= BUDGET


def test_done_saves_from_the_last_field(phone: Page, live_server: str) -> None:
    """The keypad alone: "next" moves on, and "done" in the last figure saves the deal (a
    physical keyboard's Enter does not: tests/browser/test_keyboard.py)."""
    page = phone
    start_classic(page, live_server)
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    page.locator("#sides-0-meld_points").tap()
    page.keyboard.type("120")
    assert focused(page) == "sides-0-hand_points"
    # A sum: the "+" typed just after moving on belongs to the figure before.
    page.keyboard.type("+35")
    expect(page.locator("#sides-0-meld_points")).to_have_value("120+35")
    expect(page.locator("#sides-0-hand_points")).to_have_value("")
    keypad_enter(page)
    assert focused(page) == "sides-0-hand_points"
    page.keyboard.type("20")
    keypad_enter(page)
    page.keyboard.type("0")  # "0" cannot grow: on to the next figure
    assert focused(page) == "sides-1-hand_points"
    expect(page.locator("#sides-1-hand_points")).to_have_attribute("enterkeyhint", "done")
    page.keyboard.type("35")
    # Backspace in an empty figure goes back to the one before (a slip after moving on).
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    assert focused(page) == "sides-1-meld_points"
    page.keyboard.press("Backspace")
    page.keyboard.type("0")
    assert focused(page) == "sides-1-hand_points"
    page.keyboard.type("35")
    expect(page.locator("#preview")).to_contain_text("+135")
    keypad_enter(page)
    expect(page.locator(".flash")).to_contain_text("Deal 1 saved.")
    expect(page.locator(".total-points")).to_have_text(["135", "-35"])


def test_who_went_out_follows_the_canastas_until_chosen(phone: Page, live_server: str) -> None:
    page = phone
    start_classic(page, live_server)
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    nobody = page.get_by_role("radio", name="Nobody")
    expect(nobody).to_be_checked()
    more(page, "Mixed canastas", "They").tap()
    expect(page.get_by_role("radio", name="They")).to_be_checked()
    # Both sides have a canasta: either may have gone out, so the form does not guess.
    more(page, "Natural canastas", "We").tap()
    expect(nobody).to_be_checked()
    page.get_by_role("button", name="Natural canastas, We: one fewer").tap()
    expect(page.get_by_role("radio", name="They")).to_be_checked()
    # Once the player says who went out, the form keeps to it.
    page.locator("label.segment", has_text="Nobody").tap()
    more(page, "Mixed canastas", "They").tap()
    expect(nobody).to_be_checked()

    # Editing a deal never guesses: what was saved stands.
    page.locator("#sides-1-meld_points").fill("120")
    page.locator("#sides-0-meld_points").fill("60")
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".flash")).to_contain_text("Deal 1 saved.")
    page.get_by_role("link", name="Edit deal 1").tap()
    htmx_ready(page)
    expect(nobody).to_be_checked()
    page.get_by_role("button", name="Mixed canastas, They: one fewer").tap()
    expect(nobody).to_be_checked()


#: Where the figures sit on the page (not on the screen: scrolling is the player's own).
FIGURES_AT = """() => Array.from(document.querySelectorAll(
  '.side-card button, .side-card input:not([type=hidden])'),
  (el) => Math.round(el.getBoundingClientRect().top + scrollY))"""


def test_the_figures_stay_put_while_a_deal_is_typed(phone: Page, live_server: str) -> None:
    """Who went out first, then the canasta, then the points, as the form runs: no answer
    of the live line moves a stepper or a figure. A message that once appeared above them
    ("going out needs a canasta") pushed everything down one row as the thumb came down,
    and a natural canasta was counted where the mixed one was tapped."""
    page = phone
    start_classic(page, live_server)
    page.get_by_role("link", name="Record deal 1").tap()
    htmx_ready(page)
    where = page.evaluate(FIGURES_AT)
    live_line = page.locator("#preview")

    with page.expect_response(lambda answer: "/deals/preview" in answer.url):
        page.locator("label.segment", has_text="We").tap()
    expect(live_line).to_contain_text("Going out needs a canasta")
    assert page.evaluate(FIGURES_AT) == where

    with page.expect_response(lambda answer: "/deals/preview" in answer.url):
        more(page, "Mixed canastas", "We").tap()
    expect(live_line).not_to_contain_text("Going out needs a canasta")
    assert page.evaluate(FIGURES_AT) == where

    with page.expect_response(lambda answer: "/deals/preview" in answer.url):
        page.locator("#sides-0-meld_points").fill("120")
    expect(live_line).to_contain_text("+520")
    assert page.evaluate(FIGURES_AT) == where
    expect(page.locator("#sides-0-mixed_canastas")).to_have_value("1")
    expect(page.locator("#sides-0-natural_canastas")).to_have_value("0")
