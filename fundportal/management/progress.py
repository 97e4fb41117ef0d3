"""Progress bars for long-running commands (rich), written to the command's stderr."""

from __future__ import annotations

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


def item_progress(command: Any, *, enabled: bool = True) -> Progress:
    """A rich Progress bound to the command's stderr; disabled (silent) at --verbosity 0."""
    stream = getattr(command.stderr, "_out", command.stderr)
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        ItemsPerSecondColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(file=stream),
        disable=not enabled,
    )
