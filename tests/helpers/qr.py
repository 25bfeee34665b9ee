"""Reading QR codes back, as a phone's camera would: zxing-cpp on an image."""

from __future__ import annotations

import io
import re
from urllib.parse import parse_qs, urlsplit

import zxingcpp
from PIL import Image, ImageOps

#: ANSI colour sequences around the terminal's code.
ANSI = re.compile(r"\033\[[0-9;]*m")
#: Each character of the terminal's code is two modules, top and bottom (dark = True).
HALF_BLOCKS = {" ": (False, False), "▀": (True, False), "▄": (False, True), "█": (True, True)}


def decode(image: Image.Image) -> list[str]:
    """The text of every QR code found in ``image``."""
    found = zxingcpp.read_barcodes(image.convert("L"), formats=zxingcpp.BarcodeFormat.QRCode)
    return [code.text for code in found]


def decode_png(png: bytes) -> list[str]:
    return decode(Image.open(io.BytesIO(png)))


def terminal_image(lines: list[str], scale: int = 8) -> Image.Image:
    """The image a terminal shows for the code's lines of half blocks (dark on white)."""
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [HALF_BLOCKS[char] for char in ANSI.sub("", line)]
        rows.append([top for top, _ in pairs])
        rows.append([bottom for _, bottom in pairs])
    image = Image.new("1", (len(rows[0]), len(rows)), 1)
    image.putdata([0 if dark else 1 for row in rows for dark in row])
    return ImageOps.scale(image.convert("L"), scale, resample=Image.Resampling.NEAREST)


#: The SVG of ``scorekeeper.codes.svg``: its size, and the dark modules as one stroked path
#: of horizontal runs (``M4 4.5h7m1 0h1...``).
VIEWBOX = re.compile(r'viewBox="0 0 (\d+) (\d+)"')
DARK_PATH = re.compile(r'<path\b[^>]*\bstroke="#000"[^>]*\bd="([^"]+)"')
PATH_STEP = re.compile(r"([MmHh])([^MmHh]*)")


def svg_image(svg: str, scale: int = 8) -> Image.Image:
    """The image an SVG code draws, dark on white, as a browser would paint it (segno's
    path commands only: moves and horizontal runs at half-module heights)."""
    size = VIEWBOX.search(svg)
    path = DARK_PATH.search(svg)
    assert size and path, svg[:200]
    image = Image.new("1", (int(size.group(1)), int(size.group(2))), 1)
    x = y = 0.0
    for command, arguments in PATH_STEP.findall(path.group(1)):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", arguments)]
        if command == "M":
            x, y = numbers[0], numbers[1]
        elif command == "m":
            x, y = x + numbers[0], y + numbers[1]
        else:
            end = numbers[0] if command == "H" else x + numbers[0]
            for column in range(round(x), round(end)):
                image.putpixel((column, int(y)), 0)
            x = end
    return ImageOps.scale(image.convert("L"), scale, resample=Image.Resampling.NEAREST)


#: A page's QR code: the image address it shows, and the path that image draws.
def code_address(html: str) -> str:
    found = re.search(r'<img class="qr-code" src="([^"]+)"', html)
    assert found, "no QR code in the page"
    return found.group(1).replace("&amp;", "&")


def coded_path(src: str) -> str:
    """The path whose code ``src`` (an image address of the page) draws."""
    parts = urlsplit(src)
    assert parts.path == "/code.svg", src
    return parse_qs(parts.query)["path"][0]
