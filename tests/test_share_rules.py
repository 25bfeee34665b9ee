"""A table's rules in one scan (issue 30): where a game's rules differ from its rule set as
published, point by point, and "Share these rules", a link and its QR code that open the
new-game page with the same rule set and house rules filled in."""

from __future__ import annotations

import re
from html import unescape
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    OPTION_NAMES,
    VARIANTS,
    Difference,
    OptionError,
    RuleSet,
    apply_options,
    decode_option,
    differences,
    encode_option,
    options_of,
    read_share_query,
    share_query,
)
from scorekeeper.rules import house as house_rules
from scorekeeper.rules.limits import MAX_BONUS, MAX_TARGET
from scorekeeper.store.games import rules_of
from scorekeeper.web.house import option_label, option_value, share_path
from scorekeeper.web.share import codable

from .helpers.api import new_game as api_game
from .helpers.pages import new_game as form_game
from .helpers.pages import read_form
from .helpers.qr import code_address, coded_path, decode, svg_image
from .helpers.strategies import fives

pytestmark = pytest.mark.one_database  # not the store's: on SQLite alone

SETTINGS = settings(max_examples=150, database=None, deadline=None)

#: Every rule set at every table size it allows: what a game can be played by.
TABLES = [
    rules.with_sides(sides)
    for rules in VARIANTS.values()
    for sides in (
        range(rules.sides_range[0], rules.sides_range[1] + 1)
        if rules.sides_range
        else [rules.sides]
    )
]
NAMES = ["Ana", "Vera", "Boris", "Goran", "Lidija", "Stefan"]


# The rules engine: differences and the share query --------------------------------------


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.id}-{r.sides}")
def test_the_book_has_no_house_rules(rules: RuleSet) -> None:
    assert differences(rules, rules) == []
    expected = {"variant": rules.id}
    if rules.sides_range:
        expected["players"] = str(rules.players)
    assert share_query(rules, rules) == expected


def test_each_difference_names_the_option_and_both_values() -> None:
    book = VARIANTS["classic"]
    tiers = [
        {"from": None, "minimum": 15},
        {"from": 0, "minimum": 50},
        {"from": 1500, "minimum": 90},
    ]
    table = apply_options(
        book, {"target": 3000, "black_three_freezes": True, "meld_minimums": tiers}
    )
    assert differences(table, book) == [
        Difference("target", 5000, 3000),
        Difference("meld_minimums", options_of(book)["meld_minimums"], tiers),
        Difference("black_three_freezes", False, True),
    ]
    assert share_query(table, book) == {
        "variant": "classic",
        "target": "3000",
        "meld_minimums": "15,0:50,1500:90",
        "black_three_freezes": "true",
    }


def test_an_option_only_the_table_has_is_a_difference_from_none() -> None:
    """Railroad scores no bonus for all the red threes; a table may give one."""
    book = VARIANTS["railroad"].with_sides(3)
    table = apply_options(book, {"all_red_threes_bonus": 1000})
    assert differences(table, book) == [Difference("all_red_threes_bonus", None, 1000)]
    assert share_query(table, book) == {
        "variant": "railroad",
        "players": "3",
        "all_red_threes_bonus": "1000",
    }


def test_an_option_the_rules_learn_is_compared_and_shared_with_no_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """differences() reads options_of key by key: a new option (a black-three penalty,
    say) shows up without a word changed in house.py."""
    learnt = options_of

    def options_with_penalty(rules: RuleSet) -> dict[str, object]:
        return {**learnt(rules), "black_three_penalty": 100 if rules.black_three_freezes else 0}

    monkeypatch.setattr(house_rules, "options_of", options_with_penalty)
    book = VARIANTS["classic"]
    table = apply_options(book, {"black_three_freezes": True})
    assert differences(table, book) == [
        Difference("black_three_freezes", False, True),
        Difference("black_three_penalty", 0, 100),
    ]
    assert share_query(table, book)["black_three_penalty"] == "100"


def test_values_read_back_as_the_same_kind() -> None:
    """A switch is not the number 1, the initial-meld table is short, anything else JSON."""
    for value, text in [
        (True, "true"),
        (False, "false"),
        (None, "null"),
        (3000, "3000"),
        (-150, "-150"),
        ([{"from": None, "minimum": 15}, {"from": -5, "minimum": 50}], "15,-5:50"),
        ([{"from": None, "minimum": 15}], '[{"from":null,"minimum":15}]'),
        ([1, 2], "[1,2]"),
        ("15,0:50", '"15,0:50"'),
        ("strict", "strict"),
    ]:
        assert encode_option(value) == text
        decoded = decode_option(text)
        assert decoded == value and type(decoded) is type(value), (value, text)
    assert decode_option("1") == 1 and decode_option("1") is not True


def test_rules_of_another_table_are_not_shared_as_this_ones() -> None:
    with pytest.raises(ValueError, match="railroad"):
        share_query(VARIANTS["railroad"].with_sides(4), VARIANTS["railroad"].with_sides(3))
    with pytest.raises(ValueError):
        share_query(VARIANTS["classic"], VARIANTS["classic-2"])


def test_a_query_the_rules_refuse_is_set_aside_option_by_option() -> None:
    book = VARIANTS["classic"]
    shared = read_share_query(
        {
            "variant": "classic",
            "target": "abc",
            "foo": "1",
            "red_three_bonus": "7",
            "wild_canasta_bonus": "1000",
            "meld_minimums": "15,abc",
            "natural_canasta_bonus": "600",
            "black_three_freezes": "1",
        },
        book,
    )
    assert dict(shared.options) == {"natural_canasta_bonus": 600}
    assert shared.rules == apply_options(book, {"natural_canasta_bonus": 600})
    refused = {error.option: error.message for error in shared.refused}
    assert refused == {
        "target": "The target must be a whole number of points.",
        "foo": "There is no house option called 'foo'.",
        "red_three_bonus": "The bonus must be a multiple of 5, like every score.",
        "wild_canasta_bonus": "Classic Canasta, 4 players in 2 partnerships has no wild canastas.",
        "meld_minimums": '"abc" is not a number.',
        "black_three_freezes": "The option black_three_freezes is either true or false.",
    }
    assert all(isinstance(error, OptionError) for error in shared.refused)


@st.composite
def tiers(draw: st.DrawFn) -> list[dict[str, int | None]]:
    """An initial-meld table: rising totals, minimums that never fall."""
    count = draw(st.integers(1, 6))
    starts = sorted(draw(st.sets(fives(-1000, 20_000), min_size=count - 1, max_size=count - 1)))
    minimums = sorted(draw(st.lists(fives(0, 300), min_size=count, max_size=count)))
    return [
        {"from": start, "minimum": minimum}
        for start, minimum in zip([None, *starts], minimums, strict=True)
    ]


def _value_like(value: object, name: str = "") -> st.SearchStrategy[object]:
    """Another value of an option's kind, found from the value the book has: any option
    ``options_of`` learns is drawn too, with no change here. The options that say how long
    a game lasts (a target or none, a number of deals, minimums by deal) are drawn as
    such: a shared link must bring them back whatever order it lists them in."""
    if name == "meld_minimums_by_deal":
        return st.none() | st.lists(fives(0, 300), max_size=6)
    if name == "deals":
        return st.none() | st.integers(1, 12)
    if name == "target":
        return st.none() | fives(5, MAX_TARGET)
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int) or value is None:
        return fives(0, min(MAX_TARGET, MAX_BONUS * 4))
    if isinstance(value, list):
        return tiers()
    return st.just(value)


@st.composite
def house_rules_of_a_table(draw: st.DrawFn) -> tuple[RuleSet, RuleSet]:
    """A rule set as published, and a table's rules: some of its options changed (those
    the rules refuse, such as a bonus out of range, left as they were)."""
    book = draw(st.sampled_from(TABLES))
    table = book
    names = sorted({*options_of(book), *OPTION_NAMES})
    for name in draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names))):
        value = draw(_value_like(options_of(book).get(name), name))
        try:
            table = apply_options(table, {name: value})
        except OptionError:
            continue
    return book, table


@SETTINGS
@given(house_rules_of_a_table())
def test_the_share_query_reproduces_the_tables_rules(tables: tuple[RuleSet, RuleSet]) -> None:
    book, table = tables
    query = share_query(table, book)
    # Only what differs travels, besides the rule set (and the table's size).
    assert set(query) - {"variant", "players"} == {d.option for d in differences(table, book)}
    # Through an address and back, as a phone's camera reads it.
    received = dict(parse_qsl(urlsplit("/games/new?" + urlencode(query)).query))
    assert received == query
    shared = read_share_query(received, book)
    assert shared.refused == ()
    assert apply_options(book, shared.options) == table
    assert shared.rules == table


# The pages -------------------------------------------------------------------------------

#: House rules as the new-game form takes them, and the lines the rules page writes.
HOUSE_FIELDS = {
    "target": "3000",
    "natural_canasta_bonus": "600",
    "black_three_freezes": "y",
    # The minimum table as the page posts it: every tier.
    "tiers-0-minimum": "15",
    "tiers-1-from_total": "0",
    "tiers-1-minimum": "50",
    "tiers-2-from_total": "1500",
    "tiers-2-minimum": "90",
    "tiers-3-from_total": "3000",
    "tiers-3-minimum": "150",
}
HOUSE_LINES = [
    "Target: 5,000 as published, 3,000 at this table",
    "Natural canasta: 500 as published, 600 at this table",
    "Initial-meld minimums: 15 · 50 from 0 · 90 from 1,500 · 120 from 3,000 as published, "
    "15 · 50 from 0 · 90 from 1,500 · 150 from 3,000 at this table",
    "A black three on the pile freezes it: no as published, yes at this table",
]


def house_section(html: str) -> str:
    start = html.index('id="h-house"')
    return html[start : html.index("</section>", start)]


def items(html: str) -> list[str]:
    return [re.sub(r"\s+", " ", item) for item in re.findall(r"<li>(.*?)</li>", html, re.S)]


def field_value(html: str, name: str) -> str:
    found = re.search(rf'<input[^>]*\bname="{re.escape(name)}"[^>]*>', html)
    assert found, name
    value = re.search(r'\bvalue="([^"]*)"', found.group(0))
    return value.group(1) if value else ""


def is_checked(html: str, name: str) -> bool:
    found = re.search(rf'<input[^>]*\bname="{re.escape(name)}"[^>]*>', html)
    assert found, name
    return " checked" in found.group(0)


def game_rules(client: FlaskClient, game_id: str) -> RuleSet:
    game = client.get(f"/api/games/{game_id}").get_json()
    return rules_of(game["variant"], len(game["sides"]), game["options"])


def start_from(client: FlaskClient, html: str, players: int) -> str:
    """Start the game the new-game page shows, with players named, as a browser posts it."""
    form = read_form(html)
    data = dict(form.data)
    data.update({f"players-{seat}": NAMES[seat] for seat in range(players)})
    response = client.post(form.action.replace("&amp;", "&"), data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def shared_link(client: FlaskClient, game_id: str) -> tuple[str, str]:
    """The share panel of a game's rules page: its link, and its QR code as SVG."""
    house = house_section(client.get(f"/games/{game_id}/rules").get_data(as_text=True))
    assert "Share these rules" in house
    link = re.search(
        r'<a href="(/games/new\?[^"]+)">(http://localhost/games/new\?[^<]+)</a>', house
    )
    assert link, house
    path = link.group(1).replace("&amp;", "&")
    assert link.group(2).replace("&amp;", "&") == "http://localhost" + path
    src = code_address(house)
    assert coded_path(src) == path
    image = client.get(src)
    assert image.status_code == 200 and image.mimetype == "image/svg+xml"
    return path, image.get_data(as_text=True)


def test_the_rules_page_says_where_the_table_differs_from_the_book(client: FlaskClient) -> None:
    game_id = form_game(client, **HOUSE_FIELDS)
    house = house_section(client.get(f"/games/{game_id}/rules").get_data(as_text=True))
    assert (
        "Where this table plays otherwise than Classic Canasta, 4 players in 2 partnerships "
        "as published:" in house
    )
    assert items(house) == HOUSE_LINES


def test_a_table_without_house_rules_plays_the_book(client: FlaskClient) -> None:
    game_id = form_game(client)
    house = house_section(client.get(f"/games/{game_id}/rules").get_data(as_text=True))
    assert "This table plays Classic Canasta, 4 players in 2 partnerships as published." in house
    path, _ = shared_link(client, game_id)
    assert path == "/games/new?variant=classic"


def test_the_shared_link_and_its_code_start_a_game_with_the_same_rules(
    client: FlaskClient,
) -> None:
    game_id = form_game(client, **HOUSE_FIELDS)
    path, svg = shared_link(client, game_id)
    assert dict(parse_qsl(urlsplit(path).query)) == {
        "variant": "classic",
        "target": "3000",
        "natural_canasta_bonus": "600",
        "meld_minimums": "15,0:50,1500:90,3000:150",
        "black_three_freezes": "true",
    }
    # The code, read as a phone's camera reads it, is the same link.
    assert decode(svg_image(svg)) == ["http://localhost" + path]

    page = client.get(path)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert field_value(html, "target") == "3000"
    assert field_value(html, "natural_canasta_bonus") == "600"
    assert field_value(html, "mixed_canasta_bonus") == "300"
    assert field_value(html, "tiers-3-minimum") == "150"
    assert is_checked(html, "black_three_freezes")
    assert not is_checked(html, "wilds_may_outnumber_naturals")
    assert field_value(html, "shared") == ""  # every option has its field
    assert items(html[html.index("From the shared link") :])[:4] == HOUSE_LINES

    copy = start_from(client, html, players=4)
    assert options_of(game_rules(client, copy)) == options_of(game_rules(client, game_id))


def test_a_railroad_table_shares_its_size_too(client: FlaskClient) -> None:
    players = {f"players-{seat}": NAMES[seat] for seat in range(3)}
    response = client.post(
        "/games/new?variant=railroad&players=3",
        data={**players, "first_dealer": "0", "target": "15000", "sevens_canasta_bonus": "2000"},
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    path, svg = shared_link(client, game_id)
    assert dict(parse_qsl(urlsplit(path).query)) == {
        "variant": "railroad",
        "players": "3",
        "target": "15000",
        "sevens_canasta_bonus": "2000",
    }
    assert decode(svg_image(svg)) == ["http://localhost" + path]
    html = client.get(path).get_data(as_text=True)
    assert 'name="players-2"' in html and 'name="players-3"' not in html
    copy = start_from(client, html, players=3)
    assert options_of(game_rules(client, copy)) == options_of(game_rules(client, game_id))


def test_house_rules_the_form_has_no_field_for_are_kept_as_shared(client: FlaskClient) -> None:
    """A minimum table of five tiers (the API takes one; the form shows the book's four):
    the page lists it, keeps it in a hidden field, and the game gets it."""
    five = [
        {"from": None, "minimum": 15},
        {"from": 0, "minimum": 50},
        {"from": 1500, "minimum": 90},
        {"from": 3000, "minimum": 120},
        {"from": 4000, "minimum": 150},
    ]
    game_id, _ = api_game(client, options={"meld_minimums": five, "going_out_bonus": 200})
    path, _ = shared_link(client, game_id)
    html = client.get(path).get_data(as_text=True)
    kept = html[html.index("Also in these rules (no field below shows them):") :]
    assert items(kept)[0] == (
        "Initial-meld minimums: 15 · 50 from 0 · 90 from 1,500 · 120 from 3,000 · 150 from 4,000"
    )
    assert "tiers-0-minimum" not in html  # its fields would say something else
    assert field_value(html, "going_out_bonus") == "200"
    copy = start_from(client, html, players=4)
    assert options_of(game_rules(client, copy)) == options_of(game_rules(client, game_id))


def test_a_game_started_from_another_keeps_what_the_form_cannot_show(
    client: FlaskClient,
) -> None:
    """'New game, same players' fills the house rules in the same way."""
    five = [{"from": None, "minimum": 15}, {"from": 0, "minimum": 50}, {"from": 900, "minimum": 60}]
    game_id, _ = api_game(client, options={"meld_minimums": five})
    html = client.get(f"/games/new?from={game_id}").get_data(as_text=True)
    assert "Also in these rules (no field below shows them):" in html
    copy = start_from(client, html, players=4)
    assert options_of(game_rules(client, copy)) == options_of(game_rules(client, game_id))


def test_values_a_link_gets_wrong_are_left_out_and_named(client: FlaskClient) -> None:
    page = client.get(
        "/games/new?variant=classic&target=abc&foo=1&red_three_bonus=7&natural_canasta_bonus=600"
    )
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    flashes = re.findall(r'<div class="flash flash-error"><span>(.*?)</span>', html)
    assert flashes == [
        "Target from the shared link was left out: The target must be a whole number of points.",
        "Foo from the shared link was left out: There is no house option called &#39;foo&#39;.",
        "Each red three from the shared link was left out: "
        "The bonus must be a multiple of 5, like every score.",
    ]
    assert field_value(html, "target") == "5000"
    assert field_value(html, "red_three_bonus") == "100"
    assert field_value(html, "natural_canasta_bonus") == "600"


@pytest.mark.parametrize(
    ("lang", "flash"),
    [
        ("en", 'Initial-meld minimums from the shared link was left out: "xx" is not a number.'),
        ("ru", "Минимумы первой комбинации: не взято из ссылки — «xx» не является числом."),
    ],
)
def test_a_tier_that_is_not_a_number_is_named(client: FlaskClient, lang: str, flash: str) -> None:
    """A link's initial-meld table with a word for one minimum says that word is not a
    number, not that the tiers are out of order (issue 40)."""
    page = client.get(
        "/games/new?variant=classic&meld_minimums=15,0:50,1500:xx,3000:150",
        headers={"Accept-Language": lang},
    )
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    flashes = re.findall(r'<div class="flash flash-error"><span>(.*?)</span>', html)
    assert [unescape(line) for line in flashes] == [flash]
    assert field_value(html, "tiers-2-minimum") == "90"


def test_a_rule_set_or_a_table_size_the_app_does_not_know_is_named(client: FlaskClient) -> None:
    html = client.get("/games/new?variant=samba-9&target=3000").get_data(as_text=True)
    assert "The link&#39;s rule set (samba-9) is not one this app knows" in html
    assert field_value(html, "target") == "5000"  # another rule set's house rules: left out
    html = client.get("/games/new?variant=railroad&players=9&target=10000").get_data(as_text=True)
    assert (
        "The link&#39;s number of players was left out: Railroad Canasta is played by 2 to 6"
        in (html)
    )
    assert field_value(html, "target") == "10000"


@pytest.mark.parametrize(
    "value",
    ["[" * 5000, "9" * 5000, "1e999", "NaN", "null", "15,0:50,abc", '{"a": 1}', "", "%00", "1,2"],
)
@pytest.mark.parametrize("option", ["target", "meld_minimums", "black_three_freezes", "x"])
def test_no_shared_value_is_a_server_error(client: FlaskClient, option: str, value: str) -> None:
    page = client.get("/games/new", query_string={"variant": "classic", option: value})
    assert page.status_code == 200


def share_from_the_form(client: FlaskClient, path: str, **fields: str) -> Any:
    """Tap "Share these rules" on the new-game page as it was filled in (names not yet)."""
    form = read_form(client.get(path).get_data(as_text=True))
    data = {**dict(form.data), **fields, "share": "1"}
    return client.post(form.action.replace("&amp;", "&"), data=data, headers={"HX-Request": "true"})


def test_the_new_game_page_shares_the_rules_as_filled_in(client: FlaskClient) -> None:
    response = share_from_the_form(
        client, "/games/new?variant=classic-2", target="2500", black_three_freezes="y"
    )
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    panel = html[html.index('id="share-rules"') :]
    src = code_address(panel)
    path = coded_path(src)
    assert dict(parse_qsl(urlsplit(path).query)) == {
        "variant": "classic-2",
        "target": "2500",
        "black_three_freezes": "true",
    }
    assert f">http://localhost{path}</a>" in panel.replace("&amp;", "&")
    assert decode(svg_image(client.get(src).get_data(as_text=True))) == ["http://localhost" + path]
    assert "Each player needs a name" not in html  # only the house rules are checked


def test_house_rules_that_cannot_be_shared_say_why(client: FlaskClient) -> None:
    response = share_from_the_form(client, "/games/new", target="3001", going_out_bonus="-5")
    assert response.status_code == 422
    panel = response.get_data(as_text=True)
    panel = panel[panel.index('id="share-rules"') :]
    assert "These rules cannot be shared yet:" in panel
    assert "Target: The target is a multiple of 5, like every score." in panel
    assert "Going out: From 0 to 100,000." in panel
    assert "/code.svg" not in panel


def test_labels_and_values_of_an_option_the_pages_do_not_know_yet(client: FlaskClient) -> None:
    with client.application.test_request_context():
        assert option_label("some_new_bonus") == "Some new bonus"
        assert option_label("target") == "Target"
        assert option_value(5000) == "5,000"
        assert option_value(True) == "yes"
        assert option_value(None) == "none"
        assert option_value([{"from": None, "minimum": 15}, {"from": 3000, "minimum": 120}]) == (
            "15 · 120 from 3,000"
        )


def _largest(book: RuleSet) -> RuleSet:
    """Every house option of a table at the longest value the rules take: switches on,
    points at the top of their range, the book's number of tiers near the top."""
    table = book
    tiers_count = len(book.meld_minimums)
    top_tiers = [{"from": None, "minimum": MAX_BONUS - 5 * tiers_count}] + [
        {"from": MAX_TARGET - 5 * (tiers_count - i), "minimum": MAX_BONUS - 5 * (tiers_count - i)}
        for i in range(1, tiers_count)
    ]
    for name in sorted({*options_of(book), *OPTION_NAMES}):
        for value in (True, MAX_TARGET - 5, MAX_BONUS - 5, top_tiers):
            try:
                table = apply_options(table, {name: value})
            except OptionError:
                continue
            break
    return table


@pytest.mark.parametrize("book", TABLES, ids=lambda r: f"{r.id}-{r.sides}")
def test_every_house_rule_changed_still_has_a_code(client: FlaskClient, book: RuleSet) -> None:
    with client.application.test_request_context():
        path = share_path(_largest(book), book)
        assert codable(path), len(path)


def test_an_address_too_long_for_a_code_is_only_linked(client: FlaskClient) -> None:
    """The API takes a minimum table of any length; its link is longer than a code holds."""
    many = [{"from": None, "minimum": 15}] + [
        {"from": 1000 * n, "minimum": 50 + 5 * n} for n in range(60)
    ]
    game_id, _ = api_game(client, options={"meld_minimums": many})
    house = house_section(client.get(f"/games/{game_id}/rules").get_data(as_text=True))
    assert "This address is too long for a QR code: send the link instead." in house
    assert "/code.svg" not in house
    assert '<a href="/games/new?variant=classic&amp;meld_minimums=15,0:50,' in house
