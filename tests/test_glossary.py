"""One word for one thing: each language's glossary (tests/glossary/<language>.toml) names the
stem it uses for each term of the card table, and the stems it must not use. Every message
whose English speaks of a term says it with that stem, so a string added tomorrow stays in
line with the rest (issue 21).

A glossary entry per term: ``use`` (stems, one of which each such message holds), ``avoid``
(stems no message of the catalogue may hold) and ``except`` (English messages that rightly
say it otherwise; the file says why above each)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers.i18n import PLACEHOLDER, TRANSLATED, translated

GLOSSARIES = Path(__file__).parent / "glossary"
#: Each term, and the English that speaks of it (case aside).
TERMS = {
    "side": r"\bsides?\b",
    "deal": r"\bdeals?\b",
    "dealer": r"\bdealer\b|\bdeals? first\b",
    "meld": r"\bmeld(s|ed|ing)?\b",
    "canasta": r"\bcanastas?\b",
    "wild_card": r"\bwild cards?\b",
    "joker": r"\bjokers?\b",
    "stock": r"\bstock\b",
    "discard_pile": r"\bpile\b",
    "kitty": r"\bkitty\b",
    "go_out": r"\b(go|goes|went|going|gone) out\b",
    "secret_code": r"\bsecret\b",
    # The Canasta family (issue 30). "Samba" and "Bolivia" also name the games: same stem.
    "sequence": r"\bsequences?\b",
    "samba": r"\bsambas?\b",
    "escalera": r"\bescaleras?\b",
    "bolivia": r"\bbolivias?\b",
    "cuban": r"\bcuban\b",
    "uruguay": r"\buruguay\b",
    # The new tables (issue 42). "Burraco" also names the game: same stem.
    "book": r"\bbooks?\b",
    "foot": r"\bfoot\b",
    "contract": r"\bcontracts?\b",
    "special_hand": r"\bspecial hands?\b",
    "burraco": r"\bburracos?\b",
    "pot": r"\bpots?\b",
}


def glossary(language: str) -> dict[str, Any]:
    with (GLOSSARIES / f"{language}.toml").open("rb") as source:
        return tomllib.load(source)


def translations(language: str) -> Iterator[tuple[str, str, list[str]]]:
    """Each translated message: its English (id), the English with its plural, and every
    form of its translation."""
    for ids, forms in translated(language):
        yield ids[0], " ".join(ids), [form for form in forms if form]


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_glossary_covers_every_term(language: str) -> None:
    entries = glossary(language)
    assert sorted(entries) == sorted(TERMS)
    for term, entry in entries.items():
        assert set(entry) <= {"use", "avoid", "except"}, term
        assert entry["use"], f"{language}: no stem for {term}"
        for stem in [*entry["use"], *entry.get("avoid", [])]:
            assert stem == stem.casefold() and stem.strip() == stem, (term, stem)


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("term", TERMS)
def test_every_message_says_the_term_with_its_stem(language: str, term: str) -> None:
    entry = glossary(language)[term]
    english = re.compile(TERMS[term], re.IGNORECASE)
    exceptions = set(entry.get("except", []))
    known = set()
    wrong = []
    for message, whole, forms in translations(language):
        known.add(message)
        if message in exceptions:
            continue
        for form in forms:
            text = form.casefold()
            # A placeholder (%(kitty)s) is no word of the message: it may hold an avoided stem.
            words = PLACEHOLDER.sub("", text)
            avoided = [stem for stem in entry.get("avoid", []) if stem in words]
            if avoided:
                wrong.append(f"{message!r} holds {avoided}: {form!r}")
            if english.search(whole) and not any(stem in text for stem in entry["use"]):
                wrong.append(f"{message!r} lacks {entry['use']}: {form!r}")
    assert wrong == [], f"{language}, {term}:\n" + "\n".join(wrong)
    # An exception for a message that is gone would hide the next one of that name.
    assert exceptions <= known, f"{language}, {term}: {sorted(exceptions - known)}"
