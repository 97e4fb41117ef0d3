"""Recompute the index attributes of every fund item (parallel Scan: the one allowed Scan)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from fundportal.management.base import DynamoCommand
from fundportal.management.output import item_progress
from fundportal.ops.maintenance import ResumeFile, backfill_indexes
from fundportal.store import tables


class Command(DynamoCommand):
    help = (
        "Recompute GSI_PK/GSI_SK, GSI2_PK/GSI2_SK, GSI3_PK/GSI3_SK and GSI5_PK/GSI5_SK (the document page "
        "index) of every fund item from its own data (a position register written before it left the "
        "entity index loses its GSI_PK/GSI_SK; an entry version kept before the position index held "
        "versions gains its HIST#<position> keys), "
        "and write the search keys of the ids they name (documents, positions, funds, investors); "
        "a position entry missing its document's title and type copies (DocumentTitle, DocumentType: "
        "the position page's columns) or holding stale ones gets them from its current document "
        "(each item is parsed into its entity and its keys re-derived). A parallel Scan with --segments "
        "workers; an item is updated only when its index attributes differ, with a condition that it is "
        "unchanged since it was read, so re-running is safe and concurrent edits win. --rate caps scanned "
        "items per second; --resume-file stores each segment's position so an interrupted run continues. "
        "Example: manage.py backfill_indexes --segments 4 --rate 500 --resume-file var/backfill.json"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--segments", type=int, default=4, help="parallel Scan segments (default 4)")
        parser.add_argument("--rate", type=float, default=0, help="max items scanned per second (default: no limit)")
        parser.add_argument("--resume-file", type=Path, help="JSON file recording progress per segment")
        parser.add_argument("--page-size", type=int, default=500, help="items per Scan page (default 500)")

    def handle(self, *args: Any, **options: Any) -> None:
        segments, rate, page_size = options["segments"], options["rate"], options["page_size"]
        if not 1 <= segments <= 64:
            raise CommandError(f"--segments must be between 1 and 64, got {segments}.")
        if rate < 0:
            raise CommandError(f"--rate must be 0 (no limit) or more, got {rate:g}.")
        if not 1 <= page_size <= 10000:
            raise CommandError(f"--page-size must be between 1 and 10000, got {page_size}.")
        status = tables.describe()
        if status.status == "MISSING":
            raise CommandError(f"table {status.name} does not exist: run 'manage.py create_table' first")
        resume_file = options["resume_file"]
        try:
            state = ResumeFile(resume_file, status.name, segments)
        except ValueError as error:
            raise CommandError(str(error)) from error
        if state.done or state.positions:
            self.stdout.write(f"Resuming from {resume_file}: {len(state.done)} of {segments} segments already done.")
        with item_progress(self, enabled=options["verbosity"] > 0) as progress:
            task = progress.add_task("Scan + UpdateItem", total=status.item_count or None)
            counts = backfill_indexes(
                segments=segments,
                rate=rate,
                page_size=page_size,
                progress=lambda n: progress.advance(task, n),
                table=status.name,
                state=state,
            )
        self.stdout.write(
            self.style.SUCCESS(
                f"Backfill complete: scanned {counts.scanned:,}, updated {counts.updated:,}, "
                f"unchanged {counts.unchanged:,}, skipped {counts.skipped:,} (not fund items or changed meanwhile); "
                f"search keys written {counts.search_keys:,}; "
                f"entries given their document's title and type {counts.copies:,}."
            )
        )
        if resume_file and state.complete:
            resume_file.unlink(missing_ok=True)
            self.stdout.write(f"Removed {resume_file}: every segment is done.")
