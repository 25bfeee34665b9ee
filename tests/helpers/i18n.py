"""What a page in another language shows, and the catalogues' translated strings."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]


CATALOGUES = ROOT / "scorekeeper" / "translations"


TRANSLATED = ["mk", "ru", "sk"]


PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def translated(language: str) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each message of a catalogue: its English (with its plural) and its translations."""
    with (CATALOGUES / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalogue = read_po(po)
    for message in catalogue:
        if message.id:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            yield ids, strings
