"""QR codes of the app's addresses: SVG for the pages, text for the terminal (segno).

Dark modules on a light quiet zone everywhere, whatever the page's or the terminal's
colours: a phone's camera reads dark on light (an inverted code fails on many)."""

from __future__ import annotations

import io

import segno

DARK = "#000"
LIGHT = "#fff"
#: The quiet zone the standard asks for, in modules.
BORDER = 4


def svg(text: str) -> str:
    """An SVG drawing of the code: a viewBox and no size, so it is sharp at any size; no
    style attribute or element (the pages' CSP allows none)."""
    out = io.BytesIO()
    segno.make_qr(text, error="m").save(
        out,
        kind="svg",
        dark=DARK,
        light=LIGHT,
        border=BORDER,
        xmldecl=False,
        omitsize=True,
        svgclass="qr-svg",
        lineclass=None,
        nl=False,
    )
    # Edges on whole modules: no grey seams between rows when scaled by a fraction.
    return out.getvalue().decode().replace("<svg ", '<svg shape-rendering="crispEdges" ', 1)


#: Black text on a white background, set explicitly: the terminal's own colours may be
#: either way round. Each character is two modules, one above the other.
_ANSI_DARK_ON_LIGHT = "\033[30;47m"
_ANSI_RESET = "\033[0m"
_HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def terminal(text: str) -> str:
    """The code as lines of text for a terminal, half a line per row of modules."""
    code = segno.make_qr(text, error="m")
    rows = [[bool(bit) for bit in row] for row in code.matrix_iter(border=BORDER)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        blocks = "".join(_HALF_BLOCKS[pair] for pair in zip(top, bottom, strict=True))
        lines.append(f"{_ANSI_DARK_ON_LIGHT}{blocks}{_ANSI_RESET}")
    return "\n".join(lines) + "\n"
