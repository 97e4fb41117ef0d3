"""Load demo data: the seed article's sample (--sample)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from fundportal.dynamo import FundRepository, tables
from fundportal.dynamo.keys import month_catalog_keys
from fundportal.dynamo.sample import sample_entities, sample_items
from fundportal.management.base import DynamoCommand


class Command(DynamoCommand):
    help = "Load demo data into the fund table. --sample loads exactly the seed article's DOC001/DOC002 items."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--sample", action="store_true", help="load the seed article's 14 items")
        parser.add_argument(
            "--if-empty", action="store_true", help="only load when the table has no documents yet (make run)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["sample"]:
            raise CommandError("choose what to load: --sample")
        status = tables.describe()
        if status.status == "MISSING":
            raise CommandError(f"table {status.name} does not exist: run 'manage.py create_table' first")
        repository = FundRepository()
        if options["if_empty"] and repository.months():
            self.stdout.write("The table already has documents; sample not loaded.")
            return
        self.load_sample(repository)

    def load_sample(self, repository: FundRepository) -> None:
        items = sample_items()
        catalog = {
            month_catalog_keys(e.as_of_date)
            for e in sample_entities()
            if getattr(e, "latest", False) and getattr(e, "as_of_date", None)
        }
        catalog_items = [{"PK": pk, "SK": sk, "EntityType": "MonthCatalog"} for pk, sk in sorted(catalog)]
        repository.put_items(items + catalog_items)
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded the seed sample: {len(items)} fund items (DOC001, DOC002) "
                f"and {len(catalog_items)} month-catalog entries."
            )
        )
