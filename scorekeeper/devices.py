"""Which phone made a change: the label the change log shows ("Ana's phone").

A phone picks its label when it creates or joins a game (kept in its session); until it
does, the log names its browser and system, read from the User-Agent.
"""

from __future__ import annotations

import re

#: Checked in order: the first match names the browser (Edge and Opera say "Chrome" too).
BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Safari/", "Safari"),
)
SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS X", "Mac"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)
#: A program rather than a browser (curl/8.5.0, python-requests/2.32): its name.
PROGRAM = re.compile(r"^([A-Za-z][\w.-]{0,30})/")


def label_of(user_agent: str) -> str:
    """A short name for a browser and system ("Chrome on Android"), or the program's
    name, or "" when the User-Agent says nothing readable."""
    browser = next((name for mark, name in BROWSERS if mark in user_agent), None)
    system = next((name for mark, name in SYSTEMS if mark in user_agent), None)
    if browser and system:
        return f"{browser} on {system}"
    if browser or system:
        return browser or system or ""
    found = PROGRAM.match(user_agent)
    return found.group(1) if found else ""
