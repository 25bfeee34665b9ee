"""Build hook: compile each translations/<lang>/LC_MESSAGES/messages.po into the wheel's
messages.mo, so an installed app has its catalogues without writing into site-packages."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogueHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return  # a checkout compiles its catalogues when the app starts
        self._compiled = tempfile.TemporaryDirectory()
        translations = Path(self.root) / "scorekeeper" / "translations"
        for po_path in sorted(translations.glob("*/LC_MESSAGES/messages.po")):
            relative = po_path.relative_to(self.root).with_suffix(".mo")
            mo_path = Path(self._compiled.name) / relative
            mo_path.parent.mkdir(parents=True, exist_ok=True)
            with po_path.open("rb") as po_file:
                catalogue = read_po(po_file, locale=po_path.parts[-3])
            with mo_path.open("wb") as mo_file:
                write_mo(mo_file, catalogue, use_fuzzy=False)
            build_data["force_include"][str(mo_path)] = relative.as_posix()

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        compiled = getattr(self, "_compiled", None)
        if compiled is not None:
            compiled.cleanup()
