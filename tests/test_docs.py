"""The documentation stands alone (issue 20): README.md and docs/ link only to files in the
repository, and the API reference lists exactly the requests the OpenAPI document serves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules import VARIANTS

pytestmark = pytest.mark.one_database  # not the store's: on SQLite alone

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: [text](target), ![alt](target), [name]: target, and href="..." / src="..." in HTML.
LINK = re.compile(
    r"\]\(\s*<?(?P<md>[^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"
    r"|^\s*\[[^\]]+\]:\s*(?P<ref>\S+)"
    r"|\b(?:href|src)=\"(?P<html>[^\"]+)\"",
    re.MULTILINE,
)
#: A request as docs/API.md heads it: ### `POST /api/games/{game_id}/deals`
DOCUMENTED = re.compile(r"^### `(GET|POST|PUT|PATCH|DELETE) (/\S+)`$", re.MULTILINE)
METHODS = {"get", "post", "put", "patch", "delete"}


def links(text: str) -> list[str]:
    return [next(filter(None, match.groups())) for match in LINK.finditer(text)]


def test_every_relative_link_resolves_inside_the_repository() -> None:
    checked = 0
    for document in DOCUMENTS:
        text = document.read_text()
        assert "../shared" not in text and "/work/shared" not in text, document.name
        for target in links(text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # another site (https:, mailto:) or a heading of the same page
            path = target.split("#", 1)[0].split("?", 1)[0]
            assert not path.startswith("/"), f"{document.name}: {target} (a server's path)"
            resolved = (document.parent / path).resolve()
            assert resolved.is_relative_to(ROOT), f"{document.name}: {target} leaves the repo"
            assert resolved.exists(), f"{document.name}: {target} does not exist"
            checked += 1
    assert checked >= 5  # the screenshots, RULES.md, API.md, PERFORMANCE.md, ...


def test_links_are_found_in_every_form_the_documents_use() -> None:
    text = (
        '[rules](docs/RULES.md) ![sheet](docs/a.png "title") <img src="docs/b.png">\n'
        "[api]: docs/API.md\n`../not/a/link.md`"
    )
    assert links(text) == ["docs/RULES.md", "docs/a.png", "docs/b.png", "docs/API.md"]


def test_the_api_reference_and_the_openapi_document_list_the_same_requests(
    client: FlaskClient,
) -> None:
    """A request added to one and not the other fails here, whichever it is."""
    spec = client.get("/api/openapi.json").get_json()
    served = {
        f"{method.upper()} {path}"
        for path, operations in spec["paths"].items()
        for method in operations
        if method in METHODS
    }
    reference = (ROOT / "docs" / "API.md").read_text()
    documented = {f"{method} {path}" for method, path in DOCUMENTED.findall(reference)}
    assert served, "the OpenAPI document lists no request"
    assert sorted(served - documented) == [], "served but not in docs/API.md"
    assert sorted(documented - served) == [], "in docs/API.md but not in /api/openapi.json"


def test_the_references_name_every_rule_set() -> None:
    rules = (ROOT / "docs" / "RULES.md").read_text()
    api = (ROOT / "docs" / "API.md").read_text()
    for variant in VARIANTS:
        assert f"`{variant}`" in rules and f"`{variant}`" in api, variant


#: An import of another test module: ``from .test_share import ...``, ``from ..test_x``.
TEST_MODULE_IMPORT = re.compile(r"^\s*from\s+(?:\.+|tests\.(?:\w+\.)*)test_\w+\s+import", re.M)


def test_a_test_module_never_imports_another() -> None:
    """What README.md says of the tests' layout: helpers shared by test modules live in
    tests/helpers/ and tests/browser/helpers.py, so a module runs (and is read) alone."""
    found = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if TEST_MODULE_IMPORT.search(path.read_text())
    ]
    assert found == []
    assert TEST_MODULE_IMPORT.search("from .test_share import code_address")
    assert TEST_MODULE_IMPORT.search("    from ..test_offline_deals import worker_ready")
    assert not TEST_MODULE_IMPORT.search("from .helpers.qr import decode")
