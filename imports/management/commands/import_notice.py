"""Import a notice (CSV or XLSX) — the same validation and writes as /documents/import/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from fundportal.access.commands import add_scope_arguments, scope_from_options
from fundportal.management.base import DynamoCommand
from fundportal.management.output import item_progress
from fundportal.messages import describe
from imports.services import AlreadyImported, import_apply, import_prepare

MAX_ERRORS_SHOWN = 50


class Command(DynamoCommand):
    help = (
        "Import a notice file (CSV or XLSX; columns document_id,title,fund_id,as_of_date,currency,"
        "position_id,investor_id,kind,amount,status,due_date; optional new_position,document_type). "
        "Any bad row: nothing is written and "
        "the command exits 1 naming each bad row. Re-running the same file never duplicates."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="path of the .csv or .xlsx file")
        parser.add_argument("--dry-run", action="store_true", help="validate only; write nothing")
        parser.add_argument("--user", default="import_notice", help="who the audit trail names")
        parser.add_argument("--workers", type=int, default=8, help="parallel write requests (default 8)")
        add_scope_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror or error}") from None
        prepared = import_prepare(data=data, filename=path.name, scope=scope_from_options(options))
        if prepared.file_error:
            raise CommandError(f"{path.name}: {prepared.file_error}")
        if prepared.done:
            done = prepared.done
            self.stdout.write(
                f"{path.name}: already imported ({done['rows']} rows, sha256 {prepared.checksum[:12]}…, "
                f"{done['at']} by {done['by']}); nothing written."
            )
            return
        validation = prepared.validation
        assert validation is not None
        if not validation.ok:
            errors = validation.errors
            for error in errors[:MAX_ERRORS_SHOWN]:
                where = f"row {error.row}" if error.row else "file"
                self.stderr.write(f"{where}, {error.column}: {error.reason}")
            if len(errors) > MAX_ERRORS_SHOWN:
                self.stderr.write(f"... and {len(errors) - MAX_ERRORS_SHOWN} more")
            bad_rows = len({e.row for e in errors if e.row})
            raise CommandError(f"{path.name}: {bad_rows} bad row(s) of {len(prepared.rows)}; nothing was written.")
        if options["dry_run"]:
            totals = "; ".join(f"{t.document_id} {t.kind.slug} {t.rows} rows {t.amount}" for t in validation.totals)
            self.stdout.write(
                f"{path.name}: {len(prepared.rows)} rows valid, {validation.to_write} to write, "
                f"{validation.already} already in (dry run: nothing written). {totals}"
            )
            return
        show = options["verbosity"] > 0
        with item_progress(self, enabled=show) as progress:
            task = progress.add_task("Importing", total=validation.to_write)
            try:
                result = import_apply(
                    prepared=prepared,
                    user=options["user"],
                    workers=max(1, options["workers"]),
                    progress=lambda n: progress.advance(task, n),
                )
            except AlreadyImported as error:  # another run of the same file published it first
                self.stdout.write(describe(error))
                return
        self.stdout.write(
            f"{path.name}: imported {result.rows} rows ({result.written} written, {result.already} already in) "
            f"into {', '.join(result.documents)} in {result.seconds:.1f} s ({result.rows_per_second:,.0f} rows/s); "
            f"sha256 {result.checksum}"
        )
