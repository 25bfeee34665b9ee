"""Where each row's time goes: reads the collapsed stacks ``bench/run --profile DIR`` wrote
(py-spy, one file per row and database) and prints a table of every row's samples by what
they were doing (``BUCKETS``), then, per row, the share of the workers' samples by library
(where the sample's innermost frame was) and the calls that took the most (a call's share
counts every sample it was on the stack for).

    bench/run --profile /tmp/profiles --db sqlite --seconds 10
    .venv/bin/python bench/profile_report.py /tmp/profiles
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

#: "function (path:line)" as py-spy writes a frame.
FRAME = re.compile(r"^(?P<function>.*) \((?P<path>[^()]*?):\d+\)$")
#: Frames every request passes through on the way in: a share of nearly all.
TRUNK = 0.97


def library(path: str) -> str:
    """The package a frame's file belongs to: a site-package, the app's own part, or Python."""
    if "site-packages/" in path:
        return path.split("site-packages/", 1)[1].split("/", 1)[0].removesuffix(".py")
    if "/scorekeeper/" in path:
        part = path.split("/scorekeeper/", 1)[1].split("/")
        return "scorekeeper" + ("." + part[0] if len(part) > 1 else "")
    if "/templates/" in path:
        return "templates (Jinja)"
    return "python"


def read(path: Path) -> list[tuple[list[tuple[str, str]], int]]:
    stacks = []
    for line in path.read_text().splitlines():
        text, _, count = line.rpartition(" ")
        frames = []
        for raw in text.split(";"):
            match = FRAME.match(raw.strip())
            if match:
                frames.append((match["function"], match["path"]))
        if frames and count.isdigit():
            stacks.append((frames, int(count)))
    return stacks


#: Where a sample's time went, first match down the list: outside Flask (gunicorn's own
#: handling), then what the innermost frames are doing. ``(name, libraries, functions)``:
#: a frame of one of the libraries, or a function of that name, on the stack.
BUCKETS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("compression", ("brotli", "flask_compress"), ()),
    ("templates", ("jinja2", "templates (Jinja)", "markupsafe"), ("render_template",)),
    # The database session closed (its connection rolled back and pooled) after the answer.
    ("teardown", (), ("do_teardown_appcontext", "do_teardown_request")),
    ("SQL", ("sqlalchemy", "flask_sqlalchemy", "psycopg", "sqlite3"), ()),
    ("forms, CSRF", ("wtforms", "flask_wtf"), ()),
    ("session cookie", ("itsdangerous",), ("open_session", "save_session")),
    ("rules", ("scorekeeper.rules",), ()),
)
INSIDE_FLASK = "Flask.wsgi_app"
OUTSIDE = "gunicorn, outside Flask"
REST = "Flask, Werkzeug, the app's code"


def bucket(frames: list[tuple[str, str]]) -> str:
    """The one bucket a sample's time goes to (``BUCKETS``)."""
    if not any(function == INSIDE_FLASK for function, _ in frames):
        return OUTSIDE
    inside = frames[[function for function, _ in frames].index(INSIDE_FLASK) :]
    names = {function.rsplit(".", 1)[-1] for function, _ in inside}
    found = {library(file) for _, file in inside}
    for name, libraries, functions in BUCKETS:
        if found.intersection(libraries) or names.intersection(functions):
            return name
    return REST


def buckets(files: list[Path]) -> str:
    """One line per row: the share of its samples in each bucket."""
    columns = [OUTSIDE, *(name for name, _, _ in BUCKETS), REST]
    lines = [
        "| row | " + " | ".join(columns) + " |",
        "|---|" + "--:|" * len(columns),
    ]
    for path in files:
        shares: Counter[str] = Counter()
        for frames, count in read(path):
            shares[bucket(frames)] += count
        total = sum(shares.values()) or 1
        cells = [f"{shares[name] / total:.0%}" if shares[name] else "" for name in columns]
        lines.append(f"| {path.parent.name}: {path.stem} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def report(path: Path, top: int = 12) -> str:
    stacks = read(path)
    total = sum(count for _, count in stacks) or 1
    own: Counter[str] = Counter()
    calls: Counter[tuple[str, str]] = Counter()
    for frames, count in stacks:
        own[library(frames[-1][1])] += count
        for function, file in set(frames):
            calls[(function, f"{library(file)}: {Path(file).name}")] += count
    lines = [f"### {path.parent.name}: {path.stem} ({total:,} samples)", ""]
    lines.append("| library (innermost frame) | share |")
    lines.append("|---|--:|")
    lines += [f"| {name} | {count / total:.0%} |" for name, count in own.most_common(8)]
    lines += ["", "| call (on the stack) | where | share |", "|---|---|--:|"]
    shown = [(call, count) for call, count in calls.most_common() if count / total < TRUNK]
    lines += [
        f"| `{function}` | {where} | {count / total:.0%} |"
        for (function, where), count in shown[:top]
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("profiles")
    files = sorted(folder.glob("*/*.txt"))
    if not files:
        print(f"no profiles in {folder} (bench/run --profile {folder})", file=sys.stderr)
        return 2
    print(buckets(files))
    print("\n".join(report(path) for path in files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
