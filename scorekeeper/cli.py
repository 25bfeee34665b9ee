"""Command-line tools for whoever runs the server: ``flask backup`` and ``flask restore``."""

from __future__ import annotations

from pathlib import Path

import click
from flask import Flask
from flask.cli import with_appcontext

from .store.backup import backup, restore
from .store.errors import Refused


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
        counts = restore(path, replace=replace)
    except Refused as error:  # a bad file, a value the app refuses, a busy database
        raise click.ClickException(f"{error} Nothing was changed.") from None
    click.echo(
        f"Restored {counts.games} games, {counts.deals} deals and {counts.people} players "
        f"from {path}."
    )


def init_app(app: Flask) -> None:
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
