"""Command-line tools for whoever runs the server: ``flask backup``, ``flask restore`` and
``flask serve-lan``."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import ScriptInfo, pass_script_info, with_appcontext
from werkzeug.serving import make_server

from . import codes
from .backup import backup, restore
from .store.errors import Refused, Unavailable


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(path: Path) -> None:
    """Write every game and the roster to PATH (JSON; gzipped when PATH ends in .gz)."""
    counts = backup(path)
    click.echo(
        f"Backed up {counts.games} games, {counts.deals} deals and {counts.people} players "
        f"to {path}."
    )


@click.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--replace", is_flag=True, help="Delete the games and players here first.")
@with_appcontext
def restore_command(path: Path, replace: bool) -> None:
    """Restore a backup written by `flask backup` into this database."""
    try:
        counts = restore(path, replace=replace, most=current_app.config["RESTORE_MAX_BYTES"])
    except Refused as error:  # a bad file, a value the app refuses
        raise click.ClickException(f"{error} Nothing was changed.") from None
    except Unavailable:
        raise click.ClickException(
            "The database could not be reached, or stayed locked by another program; "
            "nothing was changed. Try again once it answers."
        ) from None
    click.echo(
        f"Restored {counts.games} games, {counts.deals} deals and {counts.people} players "
        f"from {path}."
    )


#: Any address in a private range: connecting a UDP socket to it sends nothing, it only
#: makes the system pick the interface (and so the address) it would route through.
_PROBE = ("10.254.254.254", 9)
#: Binding to these means every interface: the phones need one real address of them.
_EVERYWHERE = ("0.0.0.0", "::", "")


def _usable(address: str) -> bool:
    """Whether other machines could reach this one at ``address`` (a name: assume so)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return True
    return not (ip.is_loopback or ip.is_unspecified)


def lan_address() -> str | None:
    """This machine's address on the local network, found without sending anything:
    the source address of the route out, else one the host name resolves to."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(_PROBE)
            address: str = probe.getsockname()[0]
        except OSError:  # no network at all
            address = "127.0.0.1"
    if _usable(address):
        return address
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    return next((str(entry[4][0]) for entry in found if _usable(str(entry[4][0]))), None)


def phone_address(host: str) -> tuple[str, bool]:
    """The address phones open for a server bound to ``host``, and whether it is one the
    network reaches (not this machine alone)."""
    if host not in _EVERYWHERE:
        return host, _usable(host)
    found = lan_address()
    return (found, True) if found else ("127.0.0.1", False)


@click.command("serve-lan")
@click.option("--host", default="0.0.0.0", show_default=True, help="The address to bind to.")
@click.option("--port", default=5000, show_default=True, help="The port to listen on.")
@pass_script_info
def serve_lan_command(info: ScriptInfo, host: str, port: int) -> None:
    """Serve the app to the phones of the local network: prints the address they open,
    with a QR code of it to scan. Stop it with Ctrl+C."""
    app = info.load_app()
    # A port in use: Werkzeug says so and exits (tests/test_serve_lan.py).
    server = make_server(host, port, app, threaded=True)
    address, reachable = phone_address(host)
    shown = f"[{address}]" if ":" in address else address
    url = f"http://{shown}:{server.server_port}/"
    if reachable:
        click.echo(f"Phones on this network open {url} (or scan the code):")
    else:
        click.echo(
            "No network address found on this machine: phones cannot reach it. "
            f"Connect it to the Wi-Fi and start again; meanwhile the app is at {url}"
        )
    click.echo(codes.terminal(url), nl=False)
    click.echo(
        "Anyone on this network can open and follow the games; changing one needs its "
        "scorer link. Stop the server with Ctrl+C."
    )
    server.serve_forever()  # until Ctrl+C, which Werkzeug's server takes as its stop
    click.echo("Stopped.")


def init_app(app: Flask) -> None:
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
    app.cli.add_command(serve_lan_command)
