"""The totals header late in a long game (issue 17): each side's name, total and
next-meld badge, and the dealer line, on the deal form and on the score sheet, at 390 and
360 px, with four- and six-digit totals, two to six sides, in every language, at the
default text size and at the largest one. In the light scheme only: the dark one changes
colours alone (static/app.css), so it cannot move a box.

The largest text: Chrome on Android scales text up to 200% (Accessibility, Text scaling)
and the desktop's font-size setting changes the default font size. Headless Chromium has
no OS setting, so the test doubles the browser's default font size (16 -> 32 px, CDP
``Page.setFontSizes``): the same thing the font-size setting does, and the app's sizes
follow it because they are all relative to it (the root is 112.5%, everything else rem/em).

Checked on every page: no two boxes of the header overlap, every box stays inside its
card, every card inside the viewport, no text is cut (scrollWidth <= clientWidth) and the
page never scrolls sideways. A screenshot of each header at 360 px, six-digit totals in
the largest text (the tightest case), goes to test-results/screenshots/header-*.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import RESULTS, SCREENSHOTS
from .helpers import keep_score_here

LANGUAGES = ["en", "mk", "ru", "sk"]

#: Side names a table would type, per language (players alone go by their own names).
PLAYERS = {
    "en": ["Ana", "Vera", "Boris", "Goran", "Marija", "Stefan"],
    "mk": ["Ана", "Вера", "Борис", "Горан", "Марија", "Стефан"],  # noqa: RUF001
    "ru": ["Анна", "Вера", "Борис", "Горан", "Мария", "Степан"],  # noqa: RUF001
    "sk": ["Anna", "Viera", "Boris", "Goran", "Mária", "Štefan"],
}
PAIRS = {
    "en": ["We", "They", "Ana & Vera"],
    "mk": ["Ние", "Тие", "Ана и Вера"],  # noqa: RUF001
    "ru": ["Мы", "Они", "Анна и Вера"],  # noqa: RUF001
    "sk": ["My", "Oni", "Anna a Viera"],
}

#: Late-game totals: the widest figures (and a negative one) with every badge there is
#: (120 and 150 at the top, 90 in between, 15 below zero).
TOTALS = {
    4: [9_995, 2_995, -1_250, 8_880, 17_775, 4_440],
    6: [999_995, 888_880, -99_995, 100_000, 777_775, 15_000],
}

#: Tables as the rule sets allow them: (rule set, sides, players on each side).
TABLES = [("classic", 2, 2), ("classic-6x3", 3, 2), ("railroad", 4, 1), ("railroad", 6, 1)]

#: Text sizes: the browser's default font size in px (16 is Chromium's own; 32 is 200%).
TEXT = {"text100": 16, "text200": 32}
WIDTHS = [390, 360]

#: Every box of the header, and the checks, run in the page: a list of problems.
CHECK = """() => {
  const problems = [];
  const name = (el) => el.className.split(" ")[0] + " '" + el.textContent.trim() + "'";
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width) {
    // Name the outermost boxes that stick out.
    const out = [...document.querySelectorAll("body *")].filter((el) =>
      el.getBoundingClientRect().left + el.scrollWidth > width + 0.5
      && ![...el.children].some((child) => child.getBoundingClientRect().left
                                         + child.scrollWidth > width + 0.5));
    problems.push("the page scrolls sideways: " + document.documentElement.scrollWidth
                  + " > " + width + " (" + out.map((el) => el.tagName.toLowerCase() + "."
                  + el.className + " '" + el.textContent.trim().slice(0, 30) + "'").join(", ")
                  + ")");
  }
  const boxes = [];
  for (const card of document.querySelectorAll(".totals .total")) {
    const outer = card.getBoundingClientRect();
    if (outer.left < -0.5 || outer.right > width + 0.5) {
      problems.push(name(card) + " leaves the screen: " + outer.left + ".." + outer.right);
    }
    const style = getComputedStyle(card);
    const left = outer.left + parseFloat(style.borderLeftWidth) - 0.5;
    const right = outer.right - parseFloat(style.borderRightWidth) + 0.5;
    for (const part of card.querySelectorAll(".total-name, .total-points, .badge")) {
      const box = part.getBoundingClientRect();
      if (box.left < left || box.right > right) {
        problems.push(name(part) + " leaves its card: " + box.left + ".." + box.right
                      + " in " + left + ".." + right);
      }
      boxes.push([part, box]);
    }
  }
  for (const line of document.querySelectorAll(".next-deal, .deal-title")) {
    boxes.push([line, line.getBoundingClientRect()]);
  }
  for (const [part, box] of boxes) {
    if (!box.width || !box.height) problems.push(name(part) + " is not shown");
    if (part.scrollWidth > part.clientWidth + 0.5) {
      problems.push(name(part) + " is cut: " + part.scrollWidth + " > " + part.clientWidth);
    }
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i], [b, q] = boxes[j];
      const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (x > 0.5 && y > 0.5) problems.push(name(a) + " overlaps " + name(b));
    }
  }
  return problems;
}"""


#: Where the header ends: below the dealer line.
BOTTOM = """() => Math.ceil(document.querySelector(".next-deal, .deal-title")
                         .getBoundingClientRect().bottom + window.scrollY + 8)"""


def late_game(
    page: Page, live_server: str, language: str, table: tuple[str, int, int], digits: int
) -> str:
    """A game through the API with the given totals carried over from paper; this phone
    keeps its score. Its address."""
    variant, sides, each = table
    players = iter(PLAYERS[language])
    specs: list[dict[str, object]] = []
    for i, start in enumerate(TOTALS[digits][:sides]):
        seated = [next(players) for _ in range(each)]
        # A player alone is a side named after them; partners get the table's side names.
        specs.append(
            {"players": seated, "start": start}
            if each == 1
            else {"name": PAIRS[language][i], "players": seated, "start": start}
        )
    options = {"target": 1_000_000}
    made = page.request.post(
        live_server + "/api/games",
        data={"variant": variant, "sides": specs, "options": options},
    )
    assert made.ok, made.text()
    game = made.json()
    assert len(game["sides"]) == sides
    url = f"{live_server}/games/{game['id']}"
    keep_score_here(page, url, game["token"])
    return url


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_header_fits_late_in_the_game(phone: Page, live_server: str, language: str) -> None:
    page = phone
    cdp = page.context.new_cdp_session(page)
    page.goto(f"{live_server}/language/{language}?next=/")
    problems: list[str] = []
    checked = 0
    for table in TABLES:
        for digits in TOTALS:
            url = late_game(page, live_server, language, table, digits)
            for where, address in (("form", url + "/deals/new"), ("sheet", url)):
                page.goto(address)
                expect(page.locator(".total-points")).to_have_count(table[1])
                expect(page.locator(".totals .badge")).to_have_count(table[1])
                for text, size in TEXT.items():
                    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": size}})
                    # The app's text follows: its root is 112.5% of the browser's size.
                    page.wait_for_function(
                        "px => getComputedStyle(document.documentElement).fontSize === px",
                        arg=f"{size * 1.125:g}px",
                    )
                    for width in WIDTHS:
                        page.set_viewport_size({"width": width, "height": 844 * width // 390})
                        what = (
                            f"{where} {table[0]} {table[1]} sides {digits} digits {text} {width}px"
                        )
                        found = page.evaluate(CHECK)
                        checked += 1
                        problems += [f"{what}: {problem}" for problem in found]
                    if (digits, text) != (6, "text200") or not SCREENSHOTS:
                        continue  # the widest figures in the largest text: the one to look at
                    RESULTS.mkdir(parents=True, exist_ok=True)
                    # A viewport as tall as the header and the sheet's bottom bar (a
                    # full-page screenshot would reset the font size).
                    height = page.evaluate(BOTTOM) + 160
                    page.set_viewport_size({"width": 360, "height": height})
                    page.screenshot(
                        path=RESULTS / f"header-{where}-{language}-{table[1]}sides-"
                        f"{digits}digits-{text}.png"
                    )
                cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 16}})
    assert checked == len(TABLES) * len(TOTALS) * 2 * len(TEXT) * len(WIDTHS)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:80])
