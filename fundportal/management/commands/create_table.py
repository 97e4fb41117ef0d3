"""Create the fund table and its indexes from the schema definition, or check the live one."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from fundportal.dynamo import tables
from fundportal.dynamo.client import table_name
from fundportal.dynamo.schema import TABLE
from fundportal.management.base import DynamoCommand


class Command(DynamoCommand):
    help = (
        "Create the DynamoDB table and its global secondary indexes (waits until ACTIVE). "
        "Run again to compare the live schema with the definition: drift exits non-zero."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--table", help="table name (default: settings.DYNAMODB_TABLE)")
        parser.add_argument("--wait", type=float, default=120, help="seconds to wait for ACTIVE (default 120)")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["table"] or table_name()
        created, status = tables.create(name, wait_seconds=options["wait"])
        verb = "Created" if created else "Found"
        self.stdout.write(f"{verb} table {name}: {status.status}")
        for index in TABLE.indexes:
            live = next((i for i in status.indexes if i["IndexName"] == index.name), {})
            self.stdout.write(
                f"  {index.name}: {index.pk}/{index.sk}, {index.projection} "
                f"[{live.get('IndexStatus', 'missing')}] - {index.why}"
            )
        if status.problems:
            for problem in status.problems:
                self.stderr.write(f"  drift: {problem}")
            raise CommandError(f"table {name} differs from the definition ({len(status.problems)} differences)")
        if not status.active:
            raise CommandError(f"table {name} is not ACTIVE after {options['wait']:g}s (status {status.status})")
        self.stdout.write(self.style.SUCCESS(f"Table {name} matches the definition."))
