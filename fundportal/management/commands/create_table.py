"""Create the fund table and its indexes from the schema definition, or check the live one."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from fundportal.management.base import DynamoCommand
from fundportal.store import tables
from fundportal.store.client import table_name
from fundportal.store.schema import TABLE


class Command(DynamoCommand):
    help = (
        "Create the DynamoDB table and its global secondary indexes (waits until ACTIVE). On an existing "
        "table, build each missing index (a new one, or the next version of a changed one) beside the others "
        "and wait for its backfill; never change an index in place. --drop-retired then drops the earlier "
        "versions (run it once no deployed code reads them); --check only compares. Drift exits non-zero."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--table", help="table name (default: settings.DYNAMODB_TABLE)")
        parser.add_argument("--wait", type=float, default=120, help="seconds to wait for ACTIVE (default 120)")
        parser.add_argument(
            "--check", action="store_true", help="only compare the live table with the definition; change nothing"
        )
        parser.add_argument(
            "--drop-retired",
            action="store_true",
            help="drop earlier versions of changed indexes once every defined index is ACTIVE",
        )
        parser.add_argument(
            "--rebuild-in-place",
            action="store_true",
            help="delete and recreate an index that differs under its own name: only for a table nothing "
            "reads meanwhile (a local one before its server starts)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["table"] or table_name()
        if options["check"]:
            created, status = False, tables.describe(name)
            if status.status == "MISSING":
                raise CommandError(f"table {name} does not exist")
        else:
            created, status = tables.create(name, wait_seconds=options["wait"])
        verb = "Created" if created else "Found"
        self.stdout.write(f"{verb} table {name}: {status.status}")
        if not created and not options["check"] and (status.problems or options["drop_retired"]):
            try:
                tables.upgrade(
                    name,
                    wait_seconds=max(options["wait"], 600),
                    log=lambda m: self.stdout.write(f"  {m}"),
                    drop_retired=options["drop_retired"],
                    rebuild_in_place=options["rebuild_in_place"],
                )
            except (TimeoutError, tables.IndexChangedInPlace) as error:
                raise CommandError(str(error)) from error
            status = tables.describe(name)
        for index in TABLE.indexes:
            live = next((i for i in status.indexes if i["IndexName"] == index.physical_name), {})
            self.stdout.write(
                f"  {index.physical_name}: {index.pk}/{index.sk}, {index.projection} "
                f"[{live.get('IndexStatus', 'missing')}] - {index.why}"
            )
        for retired in status.retired:
            self.stdout.write(f"  {retired}: retired version, kept until create_table --drop-retired")
        if status.problems:
            for problem in status.problems:
                self.stderr.write(f"  drift: {problem}")
            raise CommandError(f"table {name} differs from the definition ({len(status.problems)} differences)")
        if not status.active:
            raise CommandError(f"table {name} is not ACTIVE after {options['wait']:g}s (status {status.status})")
        self.stdout.write(self.style.SUCCESS(f"Table {name} matches the definition."))
