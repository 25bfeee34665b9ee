"""The roster, the history page and each player's statistics, on seeded histories whose
figures were worked out by hand."""

from __future__ import annotations

import csv
import io
import re
import secrets
from datetime import datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import insert, select, update

from scorekeeper.store import changes, db
from scorekeeper.store.models import Game, Person, Player, Side

from .helpers.api import auth, get_game
from .helpers.evenings import FIRST_WINS, SECOND_WINS, deal, new_evening
from .helpers.history import CASE_A, CASE_B, game, markup, person_id, seed_month, words
from .helpers.queries import counted, sent


def test_games_put_named_players_on_the_roster_once(app: Flask, client: FlaskClient) -> None:
    seed_month(client)
    text = words(client.get("/players").get_data(as_text=True))
    # Two games played to the end each (the third is still going), as their pages count.
    for name, games, won in (("Ana", 2, 1), ("Boris", 2, 1), ("Goran", 2, 1), ("Vera", 2, 1)):
        assert f"{name} {games} games · {won} won" in text
    with app.app_context():
        assert db.session.scalar(select(db.func.count(Person.id))) == 4


def test_player_page_shows_hand_checked_figures(app: Flask, client: FlaskClient) -> None:
    seed_month(client)
    text = words(client.get(f"/players/{person_id(app, 'Ana')}").get_data(as_text=True))
    # Games: two played to the end, one won, a longest streak of one; one still going.
    assert "2 games played" in text and "1 game won" in text
    assert "50% of finished games won" in text
    assert "1 game still going" in text
    assert "1 longest winning streak" in text
    # Five deals: 1210 + 1210 + 265 + 265 + 1210 = 4160, so 832 a deal; three natural and
    # three mixed canastas (0.60 each), 1 + 1 + 2 + 2 + 1 = 7 red threes (1.40), out 3 of 5.
    assert "Over 5 deals." in text
    assert "Average deal score 832" in text
    assert "Natural canastas per deal 0.60" in text
    assert "Mixed canastas per deal 0.60" in text
    assert "Red threes per deal 1.40" in text
    assert "Went out 60%" in text
    assert "Went out concealed 0%" in text
    # Every deal began below 1500: each needed 50.
    assert "Deals at each initial-meld minimum Minimum Deals Chart 50 5" in text
    assert "Win rate by rule set Rule set Won Win rate Classic, 4 1 of 2 50%" in text
    # Partners: Boris (2 games, 1 won), Vera (none played yet: theirs is still going);
    # rivals in finished games only.
    assert "Partnerships With Won Win rate Boris 1 of 2 50% Vera 0 of 0 –" in text
    assert "Head to head Against Won Lost Vera 1 of 2 1 Goran 1 of 2 1" in text


def test_partnership_page_counts_only_games_side_by_side(app: Flask, client: FlaskClient) -> None:
    seed_month(client)
    ana, boris = person_id(app, "Ana"), person_id(app, "Boris")
    text = words(client.get(f"/partnerships/{ana}-{boris}").get_data(as_text=True))
    assert "Ana & Boris" in text
    assert "2 games played" in text and "1 game won" in text
    # Their four deals: 1210 + 1210 + 265 + 265 = 2950, 737.5 a deal, out twice in four.
    assert "Average deal score 738" in text
    assert "Went out 50%" in text
    assert client.get(f"/partnerships/{ana}-999").status_code == 404
    assert client.get("/partnerships/x-y").status_code == 404
    assert client.get(f"/partnerships/{ana}").status_code == 404


def test_renaming_keeps_the_history_and_shows_everywhere(app: Flask, client: FlaskClient) -> None:
    games = seed_month(client)
    ana = person_id(app, "Ana")
    response = client.post(f"/players/{ana}/rename", data={"name": "Anna K."})
    assert response.status_code == 303
    page = words(client.get(f"/players/{ana}").get_data(as_text=True))
    assert "Anna K." in page and "2 games played" in page
    assert get_game(client, games[0])["sides"][0]["players"] == ["Anna K.", "Boris"]
    # Typing the new name at a new game seats the same person.
    game(client, [("A", ["anna k.", "Boris"]), ("B", ["Vera", "Goran"])], [[CASE_A, CASE_B]] * 2)
    assert "3 games played" in words(client.get(f"/players/{ana}").get_data(as_text=True))
    # Another player's name is refused, and nothing changes.
    response = client.post(f"/players/{ana}/rename", data={"name": "vera"})
    assert response.status_code == 422
    assert "Someone else on the list is called vera." in words(response.get_data(as_text=True))
    assert person_id(app, "Anna K.") == ana
    assert client.post(f"/players/{ana}/rename", data={"name": " "}).status_code == 422
    assert client.post("/players/12345/rename", data={"name": "X"}).status_code == 404


def test_adding_a_player_and_refusing_a_double(client: FlaskClient) -> None:
    assert client.post("/players", data={"name": "Mila"}).status_code == 303
    assert "Mila 0 games" in words(client.get("/players").get_data(as_text=True))
    response = client.post("/players", data={"name": " MILA "})
    assert response.status_code == 422
    assert "MILA is already on the list." in response.get_data(as_text=True)
    response = client.post("/players", data={"name": "x" * 41})
    assert response.status_code == 422


def test_a_name_typed_in_another_case_sits_as_the_roster_spells_it(client: FlaskClient) -> None:
    """The roster calls her Ana: "ana" typed at a new game is Ana on that sheet too."""
    game(client, [("Us", ["Ana", "Boris"]), ("Them", ["Vera", "Goran"])], [])
    data = {
        "sides-0-name": "We",
        "sides-1-name": "They",
        **{f"players-{i}": n for i, n in enumerate(["ana", "VERA", "boris", "Mila"])},
        "first_dealer": "0",
        "target": "5000",
    }
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    sheet = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "<strong>Ana</strong> deals" in sheet
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    sides = get_game(client, game_id)["sides"]
    # Seats alternate sides: Ana and Boris are We, Vera and the new Mila are They.
    assert [s["players"] for s in sides] == [["Ana", "Boris"], ["Vera", "Mila"]]
    # A side of one takes its player's name: the roster's spelling as well.
    alone = client.post(
        "/api/games",
        json={"variant": "classic-2", "sides": [{"players": ["ana"]}, {"players": ["goran"]}]},
    ).get_json()
    assert [(s["name"], s["players"]) for s in get_game(client, alone["id"])["sides"]] == [
        ("Ana", ["Ana"]),
        ("Goran", ["Goran"]),
    ]


def test_one_person_cannot_sit_twice(client: FlaskClient) -> None:
    body = {
        "variant": "classic",
        "sides": [
            {"name": "A", "players": ["Ana", "Boris"]},
            {"name": "B", "players": ["ana", "G"]},
        ],
    }
    response = client.post("/api/games", json=body)
    assert response.status_code == 422
    assert response.get_json()["fields"] == {"sides.1.players.0": "Already seated."}


def test_new_game_page_offers_the_roster(client: FlaskClient) -> None:
    seed_month(client)
    html = client.get("/games/new").get_data(as_text=True)
    assert '<option value="Goran">' in html
    assert 'data-name="Vera"' in html


def test_history_filters_search_and_pages(app: Flask, client: FlaskClient) -> None:
    finished, lost, going = seed_month(client)
    html = markup(client.get("/history").get_data(as_text=True))
    order = [m for m in re.findall(r'href="/games/([\w-]+)"', html) if m != "new"]
    assert order[:3] == [going, lost, finished]  # in progress first, then newest first
    assert "3 games" in words(html)
    assert "field-error" not in html and '<details class="filters">' in html  # closed

    vera = person_id(app, "Vera")
    html = client.get(f"/history?player={vera}").get_data(as_text=True)
    assert "3 games" in words(html)
    html = client.get("/history?q=mixed").get_data(as_text=True)  # a side's name
    assert [m for m in re.findall(r'href="/games/([\w-]+)"', html) if m != "new"] == [going]
    assert "1 game" in words(html)
    assert "0 games" in words(client.get("/history?variant=railroad").get_data(as_text=True))
    tomorrow = (datetime.now() + timedelta(days=2)).date().isoformat()
    assert "0 games" in words(client.get(f"/history?since={tomorrow}").get_data(as_text=True))
    assert "3 games" in words(client.get(f"/history?until={tomorrow}").get_data(as_text=True))
    # Bad filters say what is wrong and are left out; never a 500.
    response = client.get("/history?since=yesterday&player=abc&page=-3&variant=poker")
    assert response.status_code == 200
    text = words(response.get_data(as_text=True))
    assert "Not a valid date value." in text and "3 games" in text


@pytest.mark.parametrize(
    "path",
    [
        "/history?since=0001-01-01&until=9999-12-31",
        "/history?page=99999999999999999999",
        "/history?q=" + "x" * 500,
        "/history?player=99999999999",
        "/history?since=2026-02-01&until=2026-01-01",
    ],
)
def test_odd_history_addresses_answer_without_error(client: FlaskClient, path: str) -> None:
    seed_month(client)
    response = client.get(path)
    assert response.status_code == 200
    assert "field-error" in markup(response.get_data(as_text=True)) or "3 games" in words(
        response.get_data(as_text=True)
    )


@pytest.mark.parametrize(
    "path", ["/players/99999999999999999", "/players/0", "/partnerships/1-99999999999"]
)
def test_unknown_players_are_not_found(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_history_search_folds_cyrillic_case(client: FlaskClient) -> None:
    game(client, [("Ние", ["Ана", "Борис"]), ("Тие", ["Вера", "Горан"])], [])  # noqa: RUF001
    game(client, [("A", ["Ann", "Bob"]), ("B", ["Cid", "Dan"])], [])
    assert "1 game" in words(client.get("/history?q=ана").get_data(as_text=True))
    assert "1 game" in words(client.get("/history?q=ГОР").get_data(as_text=True))
    assert "0 games" in words(client.get("/history?q=%25").get_data(as_text=True))


def bulk_games(app: Flask, count: int, person: int) -> None:
    """``count`` finished two-sided games straight into the tables (fast), each with the
    given person in the first seat."""
    now = datetime(2026, 1, 1)
    with app.app_context():
        games, sides, players = [], [], []
        base = db.session.scalar(select(db.func.max(Side.id))) or 0
        for n in range(count):
            game_id = secrets.token_urlsafe(12)
            games.append(
                {
                    "id": game_id,
                    "token_hash": "0" * 64,
                    "variant": "classic",
                    "options": {},
                    "first_dealer": 0,
                    "created_at": now + timedelta(minutes=n),
                    "updated_at": now,
                    "finished": True,
                }
            )
            for position in range(2):
                side_id = base + 2 * n + position + 1
                won = "won" if position == 0 else "lost"
                record = {"deals": 1, "deal_points": 100, "tiers": {"50": 1}}
                sides.append(
                    {
                        "id": side_id,
                        "game_id": game_id,
                        "position": position,
                        "name": f"Side {position}",
                        "start": 0,
                        "total": 5000,
                        "outcome": won,
                        "record": record,
                    }
                )
                for seat in range(2):
                    players.append(
                        {
                            "side_id": side_id,
                            "position": seat,
                            "name": "P",
                            "person_id": person if position == seat == 0 else None,
                        }
                    )
        db.session.execute(insert(Game), games)
        db.session.execute(insert(Side), sides)
        db.session.execute(insert(Player), players)
        # As the store marks everyone seated at a changed game (changes.commit).
        db.session.execute(
            update(Person).where(Person.id == person).values(version=Person.version + 1)
        )
        # And as every change of a finished game moves the ratings' version.
        changes.ratings_moved()
        db.session.commit()


@pytest.mark.parametrize("path", ["/history", "/history?page=2", "/players/{ana}", "/"])
def test_history_and_player_queries_do_not_grow_with_games(
    app: Flask, client: FlaskClient, path: str
) -> None:
    assert client.post("/players", data={"name": "Ana"}).status_code == 303
    ana = person_id(app, "Ana")
    costs = []
    small = 25 if "page=2" in path else 10  # page 2 shows games only from 21 on
    for total in (small, 2_000):
        bulk_games(app, total - (small if total > small else 0), ana)
        with counted(app) as statements:
            response = client.get(path.format(ana=ana))
            assert response.status_code == 200
        costs.append(len(statements))
    assert costs[0] == costs[1], costs
    if path == "/history":
        assert "2,000 games" in words(response.get_data(as_text=True))


@pytest.mark.one_database  # the CSV's layout: on SQLite alone
def test_sheet_as_csv_is_laid_out_like_the_paper_sheet(client: FlaskClient) -> None:
    first, _lost, _going = seed_month(client)
    response = client.get(f"/games/{first}/sheet.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    assert rows == [
        ["Deal", "Dealer", "Us", "Us total", "Them", "Them total"],
        ["1", "Ana", "1210", "1210", "265", "265"],
        ["2", "Vera", "1210", "2420", "265", "530"],
        ["Winner", "Us"],
    ]
    assert client.get("/games/nope/sheet.csv").status_code == 404


def test_export_everything_and_import_each_game(client: FlaskClient) -> None:
    seed_month(client)
    response = client.get("/history/export.json")
    assert response.status_code == 200
    document = response.get_json()
    assert document["format"] == "canasta-scorekeeper/all/1"
    assert len(document["games"]) == 3
    before = {g["id"]: g for g in client.get("/api/games").get_json()["games"]}
    for exported in document["games"]:
        copy = client.post("/api/games/import", json=exported)
        assert copy.status_code == 201
        again = get_game(client, copy.get_json()["id"])
        assert [side["total"] for side in again["sides"]] == exported["totals"]
        assert again["winner"] == exported["winner"]
    assert len(client.get("/api/games").get_json()["games"]) == len(before) + 3


@pytest.mark.one_database  # the CSV's escaping: on SQLite alone
def test_csv_names_cannot_run_as_spreadsheet_formulas(client: FlaskClient) -> None:
    game_id = game(
        client,
        [('=HYPERLINK("x")', ["@Ana", "Boris"]), ("Them", ["+Vera", "-Goran"])],
        [[CASE_A, CASE_B]],
    )
    text = client.get(f"/games/{game_id}/sheet.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[0][2:4] == ['\'=HYPERLINK("x")', '\'=HYPERLINK("x") total']
    assert rows[1] == ["1", "'@Ana", "1210", "1210", "265", "265"]


def test_a_new_name_added_meanwhile_by_another_game_is_the_same_person(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two phones start games naming the same new player at the same moment: the one that
    commits second finds the person the first added (a real second connection writes).
    PostgreSQL only: on SQLite a new game holds the one write lock, so the other waits."""
    import scorekeeper.store.changes.new_game as changes

    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("SQLite's writers take turns: no two games add a name at once")
    real = changes.person_for
    raced: list[str] = []

    def person_for_racing(name: str) -> Person:
        person = real(name)
        if person.id is None and name not in raced:
            raced.append(name)
            with db.engine.begin() as other:
                other.execute(insert(Person).values(name=name, key=person.key))
        return person

    monkeypatch.setattr(changes, "person_for", person_for_racing)
    response = client.post(
        "/api/games",
        json={"variant": "classic-2", "sides": [{"players": ["Zed"]}, {"players": ["Yan"]}]},
    )
    assert response.status_code == 201, response.get_json()
    assert raced == ["Zed", "Yan"]
    with app.app_context():
        assert db.session.scalar(select(db.func.count(Person.id))) == 2
        seated = db.session.scalars(select(Player.person_id)).all()
        assert None not in seated


def test_renaming_a_player_alone_renames_their_side(app: Flask, client: FlaskClient) -> None:
    response = client.post(
        "/api/games",
        json={"variant": "classic-2", "sides": [{"players": ["Ana"]}, {"players": ["Yan"]}]},
    )
    game_id = response.get_json()["id"]
    ana = person_id(app, "Ana")
    assert client.post(f"/players/{ana}/rename", data={"name": "Anastasia"}).status_code == 403
    joined = client.post(f"/games/{game_id}/join", data={"token": response.get_json()["token"]})
    assert joined.status_code == 302
    assert client.post(f"/players/{ana}/rename", data={"name": "Anastasia"}).status_code == 303
    sides = get_game(client, game_id)["sides"]
    assert [(s["name"], s["players"]) for s in sides] == [
        ("Anastasia", ["Anastasia"]),
        ("Yan", ["Yan"]),
    ]


def test_default_seat_names_do_not_join_the_roster(app: Flask, client: FlaskClient) -> None:
    body = {"variant": "classic", "sides": [{"name": "Us"}, {"name": "Them"}]}
    game_id = client.post("/api/games", json=body).get_json()["id"]
    document = client.get(f"/api/games/{game_id}/export").get_json()
    assert document["sides"][0]["players"] == ["Us 1", "Us 2"]
    assert client.post("/api/games/import", json=document).status_code == 201
    with app.app_context():
        assert db.session.scalar(select(db.func.count(Person.id))) == 0


def test_import_keeps_the_date_and_refuses_claims_its_deals_do_not_make(
    client: FlaskClient,
) -> None:
    first = seed_month(client)[0]
    document = client.get(f"/api/games/{first}/export").get_json()
    copy = client.post("/api/games/import", json={**document, "created_at": "2020-02-29T20:15:00Z"})
    assert copy.status_code == 201
    assert get_game(client, copy.get_json()["id"])["created_at"].startswith("2020-02-29T20:15")
    wrong = client.post("/api/games/import", json={**document, "totals": [9999, 1]})
    assert wrong.status_code == 422
    assert "totals" in wrong.get_json()["fields"]
    assert client.post("/api/games/import", json={**document, "winner": 1}).status_code == 422
    soon = {**document, "created_at": "soon"}
    assert client.post("/api/games/import", json=soon).status_code == 422


def test_side_names_are_found_in_any_case_and_alphabet(client: FlaskClient) -> None:
    game(client, [("Мы", ["A1", "A2"]), ("Вы", ["B1", "B2"])], [])
    for query in ("мы", "МЫ", "Мы"):
        assert "1 game" in words(client.get(f"/history?q={query}").get_data(as_text=True))


@pytest.mark.one_database  # the page's links leave unknown keys out: on SQLite alone
@pytest.mark.parametrize(
    "path",
    ["/history?_method=POST", "/history?endpoint=x", "/history?_anchor=x&_external=1"],
)
def test_history_pages_ignore_unknown_query_keys(client: FlaskClient, path: str) -> None:
    for n in range(21):
        game(client, [(f"S{n}", ["A", "B"]), ("T", ["C", "D"])], [])
    response = client.get(path)
    assert response.status_code == 200
    assert 'href="/history?page=2"' in response.get_data(as_text=True)


def test_a_page_past_the_end_shows_the_last(client: FlaskClient) -> None:
    seed_month(client)
    text = words(client.get("/history?page=5").get_data(as_text=True))
    assert "3 games" in text and "No game yet" not in text


@pytest.mark.parametrize("path", ["/partnerships/1-²", "/partnerships/١-2"])  # noqa: RUF001
def test_odd_digits_are_no_partnership(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_names_that_unfold_too_long_and_control_characters_are_refused(
    client: FlaskClient,
) -> None:
    response = client.post("/players", data={"name": "ﷺ" * 4})
    assert response.status_code == 422
    assert "at most 40 letters" in response.get_data(as_text=True)
    response = client.get("/history?q=a%00b")
    assert response.status_code == 200
    assert "A name is letters, digits and punctuation." in response.get_data(as_text=True)


def test_kept_pages_follow_every_change_whichever_worker_made_it(
    app: Flask, client: FlaskClient, other_worker: Flask
) -> None:
    """History and player pages are kept rendered per worker; a change made through
    another worker (another app on the same database) shows at the next look."""
    there = other_worker.test_client()
    response = client.post(
        "/api/games",
        json={
            "variant": "classic",
            "sides": [
                {"name": "Us", "players": ["Ana", "Boris"]},
                {"name": "Them", "players": ["Vera", "Goran"]},
            ],
            "options": {"target": 2000},
        },
    )
    game_id, token = response.get_json()["id"], response.get_json()["token"]
    ana = person_id(app, "Ana")
    assert "Us 0 · Them 0" in words(client.get("/history").get_data(as_text=True))
    assert "0 games won" in words(client.get(f"/players/{ana}").get_data(as_text=True))

    for _ in range(2):  # through the other worker: Us wins
        posted = there.post(
            f"/api/games/{game_id}/deals",
            json={"results": [CASE_A, CASE_B]},
            headers=auth(token),
        )
        assert posted.status_code == 201
    assert "Us 2,420 ★ · Them 530" in words(client.get("/history").get_data(as_text=True))
    page = words(client.get(f"/players/{ana}").get_data(as_text=True))
    assert "1 game won" in page and "Vera 1 of 1 0" in page

    vera = person_id(app, "Vera")
    assert there.post(f"/games/{game_id}/join", data={"token": token}).status_code == 302
    assert there.post(f"/players/{vera}/rename", data={"name": "Verica"}).status_code == 303
    page = words(client.get(f"/players/{ana}").get_data(as_text=True))
    assert "Verica 1 of 1 0" in page and "Vera 1" not in page
    assert "Verica" in words(client.get("/history").get_data(as_text=True))


def test_a_history_page_is_read_in_order_not_sorted(sqlite_client: FlaskClient) -> None:
    """A club's evening leaves hundreds of games in progress: the history's page comes
    from the index in its own order (in progress first, newest first), and the count from
    an index, so neither reads nor sorts every game (SQLite's own plan of each statement)."""
    app = sqlite_client.application
    assert sqlite_client.post("/players", data={"name": "Ana"}).status_code == 303
    bulk_games(app, 300, person_id(app, "Ana"))
    with app.app_context():
        db.session.execute(update(Game).where(Game.created_at.is_not(None)).values(finished=False))
        db.session.commit()
    with sent(app) as statements:
        assert sqlite_client.get("/history").status_code == 200
    reading = [
        (text, parameters)
        for text, parameters in statements
        if text.lstrip().startswith("SELECT") and "FROM game" in text
    ]
    assert any("ORDER BY" in text for text, _ in reading)
    with app.app_context(), db.engine.connect() as connection:
        for statement, parameters in reading:
            plan = [
                row[-1]
                for row in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
            ]
            assert not any("TEMP B-TREE" in step or step == "SCAN game" for step in plan), (
                statement,
                plan,
            )


def strip_marks(html: str) -> list[tuple[str, str, str]]:
    """The last games' strip: each mark's outcome class, title and text."""
    return re.findall(
        r'<a class="strip-mark strip-(\w+)" href="[^"]*" title="([^"]*)">([^<]*)</a>', html
    )


@pytest.mark.parametrize(
    ("lang", "drawn", "going"),
    [("en", ("D", "Drawn"), "Still going"), ("ru", ("Н", "Ничья"), "Идёт")],  # noqa: RUF001
)
def test_a_drawn_game_has_its_own_mark_in_the_strip(
    app: Flask, client: FlaskClient, lang: str, drawn: tuple[str, str], going: str
) -> None:
    """A club table that ends level is a draw: its mark says so, and is not the "…" of a
    game still going (issue 40)."""
    table = new_evening(client)["rounds"][0]["tables"][0]
    deal(client, table, FIRST_WINS)
    deal(client, table, SECOND_WINS)  # 950 each: a draw
    # Someone of that table (the evening seats pairs by lot), in a game still going.
    name = table["sides"][0]["players"][0]
    game(client, [("Us", [name, "Olga"]), ("Them", ["Nina", "Luka"])], [[CASE_A, CASE_B]])
    page = client.get(
        f"/players/{person_id(app, name)}", headers={"Accept-Language": lang}
    ).get_data(as_text=True)
    (draw_class, draw_title, draw_mark), (open_class, open_title, open_mark) = strip_marks(page)
    assert (draw_class, draw_mark) == ("drawn", drawn[0])
    assert draw_title.startswith(f"{drawn[1]}, ")
    assert (open_class, open_mark) == ("open", "…")
    assert open_title.startswith(f"{going}, ")


def test_played_counts_games_played_to_the_end(app: Flask, client: FlaskClient) -> None:
    """A game with no deal was not played, and a game still going is not played yet: the
    figures agree with each other ("Played 2 · Won 1 · Win rate 100%" was a game made and
    never dealt), and with the rated games but where a side was guests only, which the
    rating says (issue 40)."""
    us_them = [("Us", ["Ana", "Boris"]), ("Them", ["Vera", "Goran"])]
    game(client, us_them, [[CASE_A, CASE_B], [CASE_A, CASE_B]])  # won, 2420 to 530
    game(client, us_them, [])  # made, never dealt
    game(client, us_them, [[CASE_A, CASE_B]])  # still going
    text = words(client.get(f"/players/{person_id(app, 'Ana')}").get_data(as_text=True))
    assert "1 game played 1 game won 100% of finished games won" in text
    assert "1 game still going" in text
    assert "Win rate by rule set Rule set Won Win rate Classic, 4 1 of 1 100%" in text
    assert "1 rated game" in text
    assert "Ana 1 game · 1 won" in words(client.get("/players").get_data(as_text=True))
    # A finished game against guests only (seats left at their default names): played, not
    # rated, and the rating says which games it counts.
    game(client, [("Us", ["Ana", "Boris"]), ("Them", [])], [[CASE_A, CASE_B], [CASE_A, CASE_B]])
    text = words(client.get(f"/players/{person_id(app, 'Ana')}").get_data(as_text=True))
    assert "2 games played 2 games won" in text and "1 rated game" in text
    assert "Rated: finished games in which every side has someone from the list." in text
