"""What a newcomer met at the table in sixteen deals at 390 px (issue 31, "At the table"):
who plays first, the rule tools' answers and hints, figures typed as the app writes them,
the first line of the change log, the words, the layout, and a quiet console offline."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import RESULTS, SCREENSHOTS, fits, shot, tap
from .helpers import CASE_A, CASE_B, api_game, htmx_ready, settled, type_a_plain_deal

SEATS = ["Ana", "Vera", "Boris", "Goran"]


def badge_holders(page: Page, badge: str) -> list[str]:
    """The names at the seats of "Who sits where" that wear ``badge``."""
    seats = page.locator(".seats .table-seat").filter(
        has=page.locator(".table-badge", has_text=badge)
    )
    return seats.locator(".table-name").all_inner_texts()


def start_by_hand(page: Page, live_server: str, dealer: int, path: str = "/games/new") -> None:
    """A classic game with the seats typed by hand and seat ``dealer`` (from 0) dealing."""
    page.goto(live_server + path)
    for seat, name in enumerate(SEATS):
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_label(f"Seat {dealer + 1} deals first").check()
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".total-points")).to_have_count(2)


def test_the_dealers_left_plays_first_and_the_badges_follow_the_game(
    phone: Page, live_server: str
) -> None:
    """Seats typed by hand, the third seat dealing: the fourth plays first (seat 1 wore
    "plays first" whatever the dealer); after a deal both badges move one seat on."""
    page = phone
    start_by_hand(page, live_server, dealer=2)
    summary = page.locator(".seats > summary")
    # The ▾ its neighbours (Share this game, Download) have, and a tap opens it.
    marker = "el => getComputedStyle(el, '::after').content"
    assert "▾" in summary.evaluate(marker)
    assert summary.evaluate(marker) == page.locator(".share > summary").first.evaluate(marker)
    tap(summary)
    assert "▴" in summary.evaluate(marker)
    expect(page.locator(".seats .table-drawing")).to_be_visible()
    assert badge_holders(page, "plays first") == ["Goran"]
    assert badge_holders(page, "deals") == ["Boris"]
    shot(page, "who-sits-where")
    type_a_plain_deal(page)
    tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".flash")).to_contain_text("Deal 1 saved.")
    tap(summary)
    assert badge_holders(page, "deals") == ["Goran"]
    assert badge_holders(page, "plays first") == ["Ana"]


def test_new_game_same_players_has_the_next_dealers_left_play_first(
    phone: Page, live_server: str
) -> None:
    """ "New game, same players" with the third seat dealing showed the first seat playing
    first, not the dealer's left."""
    page = phone
    # Ana and Vera deal; We reach 2,420: Boris (seat 3) deals next.
    players = ["Ana", "Boris", "Vera", "Goran"]
    deal = [CASE_A, CASE_B]
    game_id, _ = api_game(page, live_server, players, deal, deal, names=("We", "They"))
    page.goto(f"{live_server}/games/{game_id}")
    page.get_by_role("link", name="New game, same players").tap()
    expect(page.get_by_label("Seat 3 deals first")).to_be_checked()
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".total-points")).to_have_text(["0", "0"])
    tap(page.locator(".seats > summary"))
    assert badge_holders(page, "deals") == ["Boris"]
    assert badge_holders(page, "plays first") == ["Goran"]


def test_railroad_and_six_players_never_give_the_dealer_both_badges(
    phone: Page, live_server: str
) -> None:
    page = phone
    for path, names in [
        ("/games/new?variant=railroad&players=4", ["Ana", "Vera", "Boris", "Goran"]),
        ("/games/new?variant=classic-6", ["Ana", "Vera", "Boris", "Goran", "Lidija", "Stefan"]),
    ]:
        page.goto(live_server + path)
        settled(page)
        for seat, name in enumerate(names):
            page.locator(f"#players-{seat}").fill(name)
        page.get_by_role("button", name="Start the game").tap()
        expect(page.locator(".total-points")).not_to_have_count(0)
        tap(page.locator(".seats > summary"))
        assert badge_holders(page, "deals") == ["Ana"], path
        assert badge_holders(page, "plays first") == ["Vera"], path


def test_the_name_this_phone_gave_itself_is_on_the_games_first_line(
    phone: Page, live_server: str
) -> None:
    """The name typed under "This phone" on the new-game form names the phone from the
    game's first line on (it said "Chrome on Linux" there, and the name on every later line)."""
    page = phone
    page.goto(live_server + "/games/new")
    for seat, name in enumerate(SEATS):
        page.locator(f"#players-{seat}").fill(name)
    tap(page.get_by_text("This phone", exact=True))
    page.get_by_label("This phone's name in the change log").fill("Ana's phone")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".total-points")).to_have_count(2)
    page.get_by_role("link", name="Changes").tap()
    created = page.locator(".change").last
    expect(created.locator(".change-title")).to_contain_text("Game created")
    expect(created.locator(".change-meta")).to_contain_text("Ana's phone")


def test_the_initial_meld_hint_follows_the_total_and_the_rule_set(
    phone: Page, live_server: str
) -> None:
    """Total 5000 and K K K: the answer said "120 needed" while the hint under the total
    still said "It needs 50" (outside what the form swapped), after Railroad too."""
    page = phone
    page.goto(live_server + "/check/initial-meld")
    settled(page)
    page.get_by_label("The side's total").fill("5,000")  # as the app writes it
    page.locator("#meld1").fill("K K K")
    expect(page.locator("#answer")).to_contain_text("120 needed")
    expect(page.locator("#total-hint")).to_have_text("It needs 120.")
    settled(page)
    page.get_by_label("Rules").select_option("railroad")
    expect(page.locator("#answer")).to_contain_text("90 needed")
    expect(page.locator("#total-hint")).to_have_text("It needs 90.")
    expect(page.get_by_label("The side's total")).to_have_value("5,000")
    shot(page, "initial-meld-railroad")


def test_the_going_out_tool_asks_for_the_canastas_of_the_rule_set_chosen(
    phone: Page, live_server: str
) -> None:
    """Railroad chosen in the tool's select: its four kinds of canasta have steppers (only
    the natural and mixed ones had), and one of each lets the player go out."""
    page = phone
    page.goto(live_server + "/check/going-out")
    settled(page)
    page.get_by_label("Rules").select_option("railroad")
    steppers = page.locator(".stepper-field label")
    expect(steppers).to_have_text(
        ["Natural canastas", "Mixed canastas", "Wild canastas", "Sevens canastas"]
    )
    settled(page)
    for kind in ("Natural", "Mixed", "Wild", "Sevens"):
        tap(page.get_by_role("button", name=f"{kind} canastas: one more"))
    page.get_by_label("Cards left in the hand after melding").fill("1")
    page.locator("#discard").fill("9")
    expect(page.locator("#answer .answer-line")).to_have_text("Yes")
    shot(page, "going-out-railroad")


def test_offline_the_live_line_is_the_phones_own_and_the_console_stays_quiet(
    phone: Page, live_server: str
) -> None:
    """Offline, each figure typed sent a live preview that could only fail: about four
    errors in the console each time (Chromium's and htmx's). The phone's own provisional
    line reads figures as the page's language writes them (1.000 in Macedonian was 1; We
    went out by themselves, with the only canastas: 500 + 300 + 100 + 1000 - 20)."""
    page = phone
    logged: list[str] = []
    page.on("console", lambda m: logged.append(m.text) if m.type == "error" else None)
    page.goto(live_server + "/language/mk?next=/games/new")
    for seat, name in enumerate(SEATS):
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_role("button", name="Почни ја играта").tap()  # noqa: RUF001
    expect(page.locator(".total-points")).to_have_count(2)
    worker = "navigator.serviceWorker.ready.then(() => true)"
    page.evaluate(worker)
    page.get_by_role("link", name="Запиши рунда 1").tap()
    htmx_ready(page)
    page.context.set_offline(True)
    try:
        page.locator("#sides-0-meld_points").fill("1.000")
        tap(page.get_by_role("button", name="Природни канасти, Ние: една повеќе"))
        tap(page.get_by_role("button", name="Мешани канасти, Ние: една повеќе"))
        page.locator("#sides-0-hand_points").fill("20")
        page.locator("#sides-1-meld_points").fill("50+40")
        page.locator("#sides-1-hand_points").fill("35")
        preview = page.locator("#preview")
        expect(preview).to_contain_text("+1.880 → 1.880")
        expect(preview).to_contain_text("+55 → 55")
        page.wait_for_timeout(600)  # a preview would be due by now (250 ms after typing)
        shot(page, "deal-offline-mk")
    finally:
        page.context.set_offline(False)
    assert logged == []


def test_a_total_from_paper_typed_as_the_app_writes_it_starts_the_game(
    phone: Page, live_server: str
) -> None:
    """4.800 in Macedonian (as the sheet writes it) was refused in English: "Not a valid
    integer value." and "Number must be between -1000000 and 1000000."."""
    page = phone
    page.goto(live_server + "/language/mk?next=/games/new")
    for seat, name in enumerate(SEATS):
        page.locator(f"#players-{seat}").fill(name)
    tap(page.get_by_text("Продолжи игра од хартија"))
    # The example in the language's way (it stayed in the first page's language: 1,250).
    expect(page.locator("#sides-0-start ~ .hint")).to_have_text(
        "Збирот на хартијата, на пр. 1.250 или -150."
    )
    page.locator("#sides-0-start").fill("4.800")
    page.locator("#sides-1-start").fill("-1.250,5")
    page.get_by_role("button", name="Почни ја играта").tap()  # noqa: RUF001
    expect(page.locator("#err-sides-1-start")).to_have_text(
        "Внеси цел број, на пр. 1.500 или -150."  # noqa: RUF001
    )
    shot(page, "paper-total-refused-mk")
    page.locator("#sides-1-start").fill("-1.250")
    page.get_by_role("button", name="Почни ја играта").tap()  # noqa: RUF001
    expect(page.locator(".total-points")).to_have_text(["4.800", "-1.250"])


def test_the_words_at_the_table(phone: Page, live_server: str) -> None:
    """What the newcomer read: "2 natural and 1 wild cards", the pile's "Yes" then "Yes:
    the pile…", "Hand points" in the log where the form says "Left in hand", a screen
    reader's "count Kings's initial meld", "total 1520", the Slovak "Vyhráva" ("is
    winning") over a finished game. This phone follows the game (made through the API):
    its badge opened a blank page (the link took the poll's hx-select)."""
    page = phone
    page.goto(live_server + "/check/meld?cards=9+9+2")
    expect(page.locator(".answer-reason")).to_have_text(
        "Legal: rank 9, natural cards: 2, wild cards: 1; 40 points."
    )
    page.goto(live_server + "/check/pickup?top=9&hand=9+9&pile=5")
    expect(page.locator(".answer-line")).to_have_text("Yes")
    expect(page.locator(".answer-reason")).to_have_text(
        "The pile is frozen for a side that has not melded, and a natural pair of rank 9 "
        "takes it. The meld must also reach the side's minimum."
    )
    players = ["Ana", "Boris", "Vera", "Goran"]
    game, token = api_game(page, live_server, players, names=("Kings", "Queens"))
    deal = [{**CASE_A}, {**CASE_B}]
    headers = {"Authorization": f"Bearer {token}"}
    url = f"{live_server}/api/games/{game}/deals"
    assert page.request.post(url, data={"results": deal}, headers=headers).ok
    deal[1]["hand_points"] = 20
    assert page.request.put(url + "/1", data={"results": deal}, headers=headers).ok
    page.goto(f"{live_server}/games/{game}")
    badge = page.get_by_role("link", name="count the initial meld of Kings")
    expect(badge).to_be_visible()
    tap(badge)
    expect(page.locator(".lead")).to_have_text("Kings: total 1,210, needs 50.")
    page.goto(f"{live_server}/games/{game}/changes")
    expect(page.locator(".change-detail").first).to_have_text("Queens, Left in hand 85 → 20")
    assert page.request.post(url, data={"results": deal}, headers=headers).ok
    page.goto(f"{live_server}/language/sk?next=/games/{game}")
    expect(page.locator(".winner h2")).to_have_text("Víťaz: Kings s 2\u00a0420 bodmi")
    shot(page, "finished-sk")


def start_railroad(page: Page, live_server: str, names: list[str], starts: list[str]) -> None:
    """A Railroad game for ``names`` carried over from paper with ``starts``, on its sheet."""
    page.goto(live_server + f"/games/new?variant=railroad&players={len(names)}")
    settled(page)
    for seat, name in enumerate(names):
        page.locator(f"#players-{seat}").fill(name)
    tap(page.get_by_text("Continue a game from paper"))
    for side, start in enumerate(starts):
        page.locator(f"#sides-{side}-start").fill(start)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".total-points")).to_have_count(len(names))


#: Each card of the deal form's header: its height, and where its total sits in it.
CARDS = """els => els.map(e => {
  const card = e.getBoundingClientRect();
  const total = e.querySelector('.total-points').getBoundingClientRect();
  return [Math.round(card.height), Math.round(total.top - card.top)];
})"""


def test_the_deal_forms_header_cards_are_laid_out_alike(phone: Page, live_server: str) -> None:
    """ "Sevens 3,020" went to two lines in the deal form's header while "Ana 50" beside it
    did not: every card lays out its name and total alike."""
    page = phone
    for names, starts in [
        (["Sevens", "Ana", "Boris", "Vera"], ["3020", "50", "0", "120"]),
        (
            ["Sevens", "Ana", "Boris", "Vera", "Goran", "Lidija"],
            ["3020", "50", "0", "120", "9995", "-15"],
        ),
    ]:
        start_railroad(page, live_server, names, starts)
        page.get_by_role("link", name="Record deal 1").tap()
        htmx_ready(page)
        cards = page.locator(".compact .total").evaluate_all(CARDS)
        assert len(set(map(tuple, cards))) == 1, cards
        shot(page, f"deal-header-{len(names)}")


def test_the_save_button_says_its_words_on_one_line_in_russian(
    phone: Page, live_server: str
) -> None:
    """ "Сохранить раздачу 3" broke over two lines at 390 px."""
    page = phone
    page.goto(live_server + "/language/ru?next=/games/new")
    for seat, name in enumerate(["Анна", "Вера", "Борис", "Горан"]):  # noqa: RUF001
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_role("button", name="Начать игру").tap()
    expect(page.locator(".total-points")).to_have_count(2)
    page.locator(".thumb a.button-primary").tap()
    htmx_ready(page)
    save, cancel = page.locator(".thumb-row .button-primary"), page.locator(".thumb-row a")
    line = "e => [e.getBoundingClientRect().top, e.getBoundingClientRect().height].map(Math.round)"
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 800})
        assert save.evaluate(line) == cancel.evaluate(line) == [save.evaluate(line)[0], 48], width
        assert save.evaluate("e => e.scrollWidth <= e.clientWidth"), width
    shot(page, "deal-form-ru-360")


BIG = {"meld_points": 700, "natural_canastas": 2, "mixed_canastas": 1, "went_out": True}
SMALL = {"meld_points": 300, "natural_canastas": 1, "hand_points": 20}
NOTHING = {"meld_points": 0, "hand_points": 120}

#: The chart's band labels and end markers as drawn (their boxes in the SVG's units).
DRAWN = """svg => [...svg.querySelectorAll('.band-label, .marker')].map(e => {
  const b = e.getBBox(), name = e.classList.contains('marker') ? 'marker' : e.textContent;
  return [name, b.x, b.y, b.x + b.width, b.y + b.height];
})"""


def overlap(one: list[float], other: list[float], margin: float) -> bool:
    return not (
        one[2] + margin <= other[0]
        or other[2] + margin <= one[0]
        or one[3] + margin <= other[1]
        or other[3] + margin <= one[1]
    )


@pytest.mark.parametrize(
    "deals",
    [
        pytest.param([[CASE_B, CASE_B]], id="crowded-labels"),  # "needs 120" on "needs 90"
        pytest.param([[BIG, SMALL], [SMALL, NOTHING]], id="label-on-a-marker"),
    ],
)
def test_the_six_player_charts_labels_keep_clear(
    phone: Page, live_server: str, deals: list[list[dict[str, object]]]
) -> None:
    """The chart's "needs 50" sat on the lines' ends and markers at the right edge, and the
    six-player chart's 120 and 90 labels crowded together."""
    page = phone
    players = ["Ana", "Boris", "Lidija", "Vera", "Goran", "Stefan"]
    game_id, _ = api_game(
        page, live_server, players, *deals, variant="classic-6", options={}, names=("We", "They")
    )
    page.goto(f"{live_server}/games/{game_id}")
    drawn = page.locator(".chart svg").evaluate(DRAWN)
    labels = [box for box in drawn if box[0] != "marker"]
    markers = [box for box in drawn if box[0] == "marker"]
    assert len(labels) >= 3
    for label in labels:
        assert not any(overlap(label[1:], marker[1:], 1) for marker in markers), label
        others = [other for other in labels if other is not label]
        assert not any(overlap(label[1:], other[1:], 4) for other in others), label
    if SCREENSHOTS:
        page.locator(".chart").screenshot(path=str(RESULTS / f"chart-six-{len(deals)}.png"))


def both_schemes(page: Page, name: str) -> None:
    """The page never scrolls sideways; a screenshot of it light, then dark."""
    page.wait_for_load_state("networkidle")
    fits(page, name)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        shot(page, name)
    page.emulate_media(color_scheme="light")


@pytest.mark.parametrize("language", ["sk"])
def test_the_screens_changed_at_the_table(phone: Page, live_server: str, language: str) -> None:
    """The screens these fixes changed, at 390 px, never sideways, shot light and dark, in
    a language that groups with a space (English: tests/browser/test_screenshots.py)."""
    page = phone
    page.goto(f"{live_server}/language/{language}?next=/games/new")
    for seat, name in enumerate(SEATS):
        page.locator(f"#players-{seat}").fill(name)
    tap(page.locator("details:has(#sides-0-start) > summary"))
    page.locator("#sides-0-start").fill("lots")
    page.locator("form button[type=submit]").tap()
    expect(page.locator("#err-sides-0-start .field-error")).to_be_visible()
    both_schemes(page, f"table-new-refused-{language}")
    page.locator("#sides-0-start").fill("1,500" if language == "en" else "1 500")
    page.locator("form button[type=submit]").tap()
    expect(page.locator(".total-points")).to_have_count(2)
    sheet = page.url
    page.locator(".thumb a.button-primary").tap()
    htmx_ready(page)
    for side, (meld, hand) in enumerate([("150", "20"), ("90", "35")]):
        page.locator(f"#sides-{side}-meld_points").fill(meld)
        page.locator(f"#sides-{side}-hand_points").fill(hand)
    expect(page.locator("#preview")).to_contain_text("55")
    both_schemes(page, f"table-deal-form-{language}")
    tap(page.locator(".thumb-row .button-primary"))
    expect(page.locator(".flash")).to_be_visible()
    tap(page.locator(".seats > summary"))
    both_schemes(page, f"table-sheet-{language}")
    for name, url in {
        "pickup": "/check/pickup?top=9&hand=9+9&pile=5",
        "going-out": "/check/going-out?variant=railroad&natural=1&left=1",
        "initial-refused": "/check/initial-meld?total=4.8.0&meld1=K+K+K",
        "meld": "/check/meld?cards=9+9+2",
    }.items():
        page.goto(live_server + url)
        both_schemes(page, f"table-{name}-{language}")
    page.goto(sheet + "/changes")
    both_schemes(page, f"table-changes-{language}")
