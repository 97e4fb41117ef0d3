"""Output helpers for the project's commands: rich progress bars and tables bound to the
command's streams, CSV through the command's stdout, and a quiet exit when the reader of a
pipe goes away (`manage.py position_report X --format csv | head`)."""

from __future__ import annotations

import csv
import os
import sys
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class ItemsPerSecondColumn(ProgressColumn):
    """Throughput in items per second."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} items/s" if speed else "- items/s", style="progress.data.speed")


def _raw(stream: Any) -> Any:
    """The file under Django's OutputWrapper (which would append a newline to every write)."""
    return getattr(stream, "_out", stream)


def item_progress(command: Any, *, enabled: bool = True) -> Progress:
    """A rich Progress bound to the command's stderr; disabled (silent) at --verbosity 0."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        ItemsPerSecondColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(file=_raw(command.stderr)),
        disable=not enabled,
    )


def console(command: Any, width: int = 200) -> Console:
    """A rich Console on the command's stdout (tables)."""
    return Console(file=_raw(command.stdout), width=width, highlight=False)


def write_csv(command: Any, columns: Iterable[str], rows: Iterable[dict[str, Any]]) -> None:
    writer = csv.DictWriter(_raw(command.stdout), fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)


class PipeSafeMixin:
    """Exit quietly (status 1, no traceback) when stdout is a pipe whose reader has gone."""

    def execute(self, *args: Any, **options: Any) -> Any:
        try:
            return super().execute(*args, **options)  # type: ignore[misc]
        except BrokenPipeError:
            # Point stdout at /dev/null so the interpreter's final flush does not fail again.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise SystemExit(1) from None
