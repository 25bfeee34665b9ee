"""`make run-lan` (``flask serve-lan``): the app served to the phones of the home network,
with the address they open and its QR code printed on start (issue 22).

The tests read the printed address; they send traffic to 127.0.0.1 only."""

from __future__ import annotations

import ipaddress
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from scorekeeper import cli, codes

from .helpers.qr import decode, terminal_image
from .serving import BIN, ROOT, fetch, free_port


def machine_addresses() -> set[str]:
    """This machine's IPv4 addresses but loopback, as `ip` lists them (no traffic)."""
    ip = shutil.which("ip") or "/usr/sbin/ip"
    if not Path(ip).exists():
        pytest.skip("no `ip` command to list this machine's addresses")
    listing = subprocess.run(
        [ip, "-4", "-o", "addr", "show"], capture_output=True, text=True, check=True
    ).stdout
    found = {line.split()[3].split("/")[0] for line in listing.splitlines()}
    return {address for address in found if not ipaddress.ip_address(address).is_loopback}


def read_banner(process: subprocess.Popen[str], deadline: float) -> list[str]:
    """The lines the command printed on start, up to the one that says how to stop it."""
    assert process.stdout is not None
    lines: list[str] = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if "Ctrl+C" in line:
            return lines
    raise AssertionError(f"no address printed: {lines}")


def terminal_signals() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_serve_lan_prints_the_lan_address_and_its_code(tmp_path: Path) -> None:
    port = free_port()
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DATABASE_URL", "FLASK_", "SECRET_KEY"))
    }
    environment |= {"SCOREKEEPER_INSTANCE": str(tmp_path / "instance"), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [str(BIN / "flask"), "--app", "scorekeeper", "serve-lan", "--port", str(port)],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        # As from a terminal, where Ctrl+C reaches it: a run started in the background
        # by a script (CI's, say) would pass on SIGINT ignored, and it would never stop.
        preexec_fn=terminal_signals,
    )
    try:
        lines = read_banner(process, time.monotonic() + 60)
        first = lines[0]
        url = next(word for word in first.split() if word.startswith("http://"))
        host = url.removeprefix("http://").rsplit(":", 1)[0]
        assert url == f"http://{host}:{port}/"
        assert host != "0.0.0.0"
        addresses = machine_addresses()
        if addresses:
            # A real address of this machine on its network, which a phone can open.
            assert host in addresses, (host, addresses)
            assert first.startswith("Phones on this network open"), first
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.bind((host, 0))  # only an address of this machine binds
        else:
            assert host == "127.0.0.1" and "No network address" in first, first
        # Between the address and the last line; without colours in a pipe (click leaves
        # them to terminals), the half blocks alone.
        code = lines[1:-1]
        assert decode(terminal_image(code)) == [url]
        assert "Ctrl+C" in lines[-1]

        # Bound to every interface: it answers on loopback too (the test's only traffic).
        home = fetch(f"http://127.0.0.1:{port}/")
        assert home.status == 200 and b"Canasta Scorekeeper" in home.body
    finally:
        process.send_signal(signal.SIGINT)  # Ctrl+C
        try:
            output, _ = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert process.returncode == 0
    assert "Stopped." in output


def test_a_port_in_use_is_a_clear_message(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        environment = dict(os.environ, SCOREKEEPER_INSTANCE=str(tmp_path / "instance"))
        environment.pop("DATABASE_URL", None)
        done = subprocess.run(
            [
                str(BIN / "flask"),
                "--app",
                "scorekeeper",
                "serve-lan",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert f"Port {port} is in use by another program" in done.stderr
    assert "Traceback" not in done.stderr


def test_without_a_network_the_address_is_loopback_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No route out and a host name that means this machine alone: 127.0.0.1, flagged so
    that the command says phones cannot reach it."""

    def unreachable(self: socket.socket, address: object) -> None:
        raise OSError("Network is unreachable")

    monkeypatch.setattr(socket.socket, "connect", unreachable)
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda *args, **kwargs: [(socket.AF_INET, socket.SOCK_DGRAM, 17, "", ("127.0.1.1", 0))],
    )
    assert cli.lan_address() is None
    assert cli.phone_address("0.0.0.0") == ("127.0.0.1", False)
    # A HOST given is the address phones open, as it is.
    assert cli.phone_address("192.168.1.20") == ("192.168.1.20", True)


def test_make_run_stays_on_this_machine_and_run_lan_uses_the_command() -> None:
    make = shutil.which("make")
    if make is None:
        pytest.skip("no make")

    def dry(*args: str) -> str:
        return subprocess.run(
            [make, "-n", "-o", ".venv/.installed", *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            env={key: value for key, value in os.environ.items() if key != "HOST"},
        ).stdout

    assert "run --host 127.0.0.1 " in dry("run")
    assert "serve-lan --port 5000" in dry("run-lan") and "--host" not in dry("run-lan")
    assert "serve-lan --port 5000 --host 192.168.1.20" in dry("run-lan", "HOST=192.168.1.20")


def test_the_code_is_the_address_for_any_length() -> None:
    """Short addresses too are full QR codes (never a Micro QR, which phones do not read)."""
    for url in ("http://10.0.0.2:5000/", "http://192.168.100.200:65535/", f"http://h/{'x' * 300}"):
        assert decode(terminal_image(codes.terminal(url).splitlines())) == [url]
