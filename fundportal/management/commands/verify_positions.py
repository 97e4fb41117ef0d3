"""Recompute every position register from the entries; report (and with --repair fix) differences."""

from __future__ import annotations

import re
from typing import Any

from django.core.management.base import CommandError, CommandParser

from fundportal.management.base import DynamoCommand
from fundportal.management.output import item_progress
from fundportal.ops.register_repair import verify_positions
from fundportal.store import tables

IMPORT_MARKER = re.compile(r"[0-9a-f]{16}")


class Command(DynamoCommand):
    help = (
        "Recompute every position register (fund, investor, roll-up of called, distributed, latest unfunded "
        "and NAV, cash flows) from the position entries with a maintenance Scan, and report each difference; "
        "exits non-zero when any. --repair writes the recomputed registers (conditioned on the revision read, "
        "so concurrent writes win; a second run writes nothing). Also builds the register of a table written "
        "before it existed. Entries no page may count (an import that cannot finish because its new document "
        "was created by someone else, entries without a document, or an unfinished import named with "
        "--abandon) are reported, and deleted by --repair with an audit item per document. "
        "Example: manage.py verify_positions --repair --abandon 3f2a9c0d1e2b4a5c"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--repair", action="store_true", help="write the recomputed registers")
        parser.add_argument("--page-size", type=int, default=1000, help="items per Scan page (default 1000)")
        parser.add_argument(
            "--abandon",
            action="append",
            default=[],
            metavar="IMPORT",
            help="with --repair: clear this unfinished import's entries (its marker, as reported); repeatable",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not 1 <= options["page_size"] <= 10000:
            raise CommandError(f"--page-size must be between 1 and 10000, got {options['page_size']}.")
        bad = [m for m in options["abandon"] if not IMPORT_MARKER.fullmatch(m)]
        if bad:
            raise CommandError(f"--abandon takes an import's 16-hex-digit marker as reported, not {bad[0][:40]!r}.")
        if options["abandon"] and not options["repair"]:
            raise CommandError("--abandon clears entries: use it with --repair.")
        status = tables.describe()
        if status.status == "MISSING":
            raise CommandError(f"table {status.name} does not exist: run 'manage.py create_table' first")
        with item_progress(self, enabled=options["verbosity"] > 0) as progress:
            task = progress.add_task("Scan", total=status.item_count or None)
            report = verify_positions(
                repair=options["repair"],
                abandon=options["abandon"],
                table=status.name,
                page_size=options["page_size"],
                progress=lambda n: progress.advance(task, n),
            )
        for difference in report.differences:
            self.stdout.write(f"  {difference.position_id}: {difference.problem}")
        summary = (
            f"Scanned {report.scanned:,} items, {report.positions:,} positions: "
            f"{len(report.differences):,} difference{'s' if len(report.differences) != 1 else ''}"
        )
        if options["repair"]:
            summary += f", repaired {report.repaired:,}, skipped {report.skipped:,} (changed meanwhile)"
            summary += f", cleared {report.cleared:,} entries no page may count"
            self.stdout.write(self.style.SUCCESS(summary + "."))
            unrepairable = [d for d in report.differences if d.problem.startswith("an entry names")]
            if unrepairable or report.skipped:
                raise CommandError(f"{len(unrepairable) + report.skipped} differences were not repaired")
            return
        if report.differences:
            raise CommandError(summary + "; run with --repair to fix them")
        self.stdout.write(self.style.SUCCESS(summary + "."))
