"""Run every access pattern of the catalog against the live table and show what each cost."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandError, CommandParser
from rich.table import Table

from fundportal.management.base import DynamoCommand
from fundportal.management.output import PipeSafeMixin, console
from fundportal.ops.access_patterns import PatternResult, run_patterns


class Command(PipeSafeMixin, DynamoCommand):
    help = (
        "Run the 12 access patterns of DESIGN.md against the live table and print, per pattern, the operation, "
        "index, key condition, items, requests, consumed read units and time. Read patterns use --document and "
        "--position; write patterns (10-12) run inside a throwaway document that is deleted again "
        "(--reads-only skips them). Exits non-zero if any pattern used a Scan."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--document", default="DOC001", help="document id for the read patterns (DOC001)")
        parser.add_argument("--position", default="POSITION_1", help="position id for the read patterns (POSITION_1)")
        parser.add_argument("--format", choices=("table", "json"), default="table", help="output format (table)")
        parser.add_argument(
            "--reads-only",
            action="store_true",
            help="do not run the write patterns; report them catalog-only (no writes at all)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        results = run_patterns(options["document"], options["position"], writes=not options["reads_only"])
        if options["format"] == "json":
            self.stdout.write(json.dumps([r.as_dict() for r in results], indent=2))
        else:
            self.print_table(results)
        scans = [r.name for r in results if r.scan]
        if scans:
            raise CommandError(f"a Scan was used by: {', '.join(scans)}")

    def print_table(self, results: list[PatternResult]) -> None:
        table = Table(title="Access patterns", show_lines=False)
        for column, justify in (
            ("#", "right"),
            ("pattern", "left"),
            ("operation", "left"),
            ("index", "left"),
            ("key condition", "left"),
            ("items", "right"),
            ("requests", "right"),
            ("RCU", "right"),
            ("WCU", "right"),
            ("ms", "right"),
        ):
            table.add_column(column, justify=justify, overflow="fold")
        for r in results:
            table.add_row(
                str(r.number),
                r.name + ("" if r.executed else " (catalog only)"),
                r.operation,
                r.index or "base table",
                r.key_condition,
                f"{r.items:,}",
                str(r.requests),
                f"{r.consumed_rcu:g}",
                f"{r.consumed_wcu:g}",
                f"{r.ms:.1f}",
            )
        out = console(self)
        out.print(table)
        notes = {r.note for r in results if r.note}
        for note in sorted(notes):
            out.print(f"note: {note}")
