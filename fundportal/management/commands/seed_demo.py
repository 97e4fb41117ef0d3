"""Load demo data: the seed article's sample (--sample) or deterministic synthetic data at scale."""

from __future__ import annotations

import time
from argparse import ArgumentTypeError
from collections.abc import Iterator
from typing import Any

from django.core.management.base import CommandError, CommandParser

from fundportal.management.base import DynamoCommand
from fundportal.management.output import item_progress
from fundportal.ops.sample import sample_entities, sample_items, sample_register_items
from fundportal.ops.synthetic import BY as SYNTHETIC_BY
from fundportal.ops.synthetic import SyntheticSpec, generate, item_size
from fundportal.store import tables
from fundportal.store.mapping.entities import MonthCatalogEntry, search_items_of_item, to_item
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.document_list import DocumentListRepository


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise ArgumentTypeError(f"expected a whole number, got '{value}'") from None
    if number < 0:
        raise ArgumentTypeError(f"expected 0 or more, got {number}")
    return number


def _collecting_search_items(items: Iterator[dict[str, Any]], found: list[Any]) -> Iterator[dict[str, Any]]:
    """Pass items through, noting the search items they name (written after the bulk load)."""
    seen: set[Any] = set()
    for item in items:
        for search in search_items_of_item(item):
            if search not in seen:
                seen.add(search)
                found.append(search)
        yield item


class Command(DynamoCommand):
    help = (
        "Load demo data into the fund table. --sample loads exactly the seed article's DOC001/DOC002 items; "
        "--documents N --positions M loads deterministic synthetic data (same --seed, same items; re-running "
        "overwrites the same keys). Example: manage.py seed_demo --documents 400 --positions 80 --versions 2"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--sample", action="store_true", help="load the seed article's 14 items")
        parser.add_argument(
            "--if-empty", action="store_true", help="only load when the table has no documents yet (make run)"
        )
        synthetic = parser.add_argument_group("synthetic data")
        synthetic.add_argument("--documents", type=_positive, metavar="N", help="number of documents")
        synthetic.add_argument(
            "--positions", type=_positive, default=20, metavar="M", help="positions per fund (default 20)"
        )
        synthetic.add_argument(
            "--versions", type=_positive, default=2, metavar="K", help="superseded versions per document (default 2)"
        )
        synthetic.add_argument("--funds", type=_positive, default=1, metavar="F", help="number of funds (default 1)")
        synthetic.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
        synthetic.add_argument(
            "--workers", type=_positive, default=8, help="parallel BatchWriteItem threads (default 8)"
        )
        synthetic.add_argument(
            "--dry-run", action="store_true", help="print the item count and size without writing anything"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        synthetic = options["documents"] is not None
        if options["sample"] and synthetic:
            raise CommandError("choose one: --sample or --documents N (synthetic), not both")
        if not options["sample"] and not synthetic:
            raise CommandError("choose what to load: --sample, or --documents N --positions M for synthetic data")
        spec = self.synthetic_spec(options) if synthetic else None
        if spec is not None and options["dry_run"]:
            self.dry_run(spec)
            return
        status = tables.describe()
        if status.status == "MISSING":
            raise CommandError(f"table {status.name} does not exist: run 'manage.py create_table' first")
        repository = DocumentRepository()
        if options["if_empty"] and repository.months():
            self.stdout.write("The table already has documents; nothing loaded.")
            return
        if spec is None:
            self.load_sample(repository)
        else:
            self.refuse_foreign_documents(repository, spec)
            self.load_synthetic(repository, spec, options["workers"] or 1, options["verbosity"] > 0)

    @staticmethod
    def refuse_foreign_documents(repository: DocumentRepository, spec: SyntheticSpec) -> None:
        """Synthetic data overwrites only what seed_demo wrote (re-running a seed is idempotent),
        never a document someone else made: the seed sample's DOC001, an analyst's document."""
        ids = [spec.document_id(n) for n in range(1, spec.documents + 1)]
        foreign = sorted(d.document_id for d in repository.existing(ids).values() if d.updated_by != SYNTHETIC_BY)
        if foreign:
            shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
            raise CommandError(
                f"refusing to write synthetic data into existing documents not made by seed_demo: {shown}. "
                "Use an empty table (or another DYNAMODB_TABLE) for synthetic data."
            )

    @staticmethod
    def synthetic_spec(options: dict[str, Any]) -> SyntheticSpec:
        try:
            return SyntheticSpec(
                documents=options["documents"],
                positions=options["positions"],
                versions=options["versions"],
                funds=options["funds"],
                seed=options["seed"],
            )
        except ValueError as error:
            raise CommandError(str(error)) from error

    def dry_run(self, spec: SyntheticSpec) -> None:
        count = size = 0
        for item in generate(spec):
            count += 1
            size += item_size(item)
        self.stdout.write(
            f"Dry run: {count:,} items, about {size:,} bytes ({size / 1024 / 1024:.1f} MiB) "
            f"for {self.describe(spec)}; nothing written."
        )

    def load_synthetic(self, repository: DocumentRepository, spec: SyntheticSpec, workers: int, show: bool) -> None:
        total = spec.item_count
        started = time.perf_counter()
        with item_progress(self, enabled=show) as progress:
            task = progress.add_task("BatchWriteItem", total=total)
            search: list[Any] = []
            written = repository.bulk_load(
                _collecting_search_items(generate(spec), search),
                workers=workers,
                progress=lambda n: progress.advance(task, n),
            )
            searched = DocumentListRepository().put_search_items(search, workers=workers)
        elapsed = time.perf_counter() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded {written:,} items for {self.describe(spec)} in {elapsed:.1f} s "
                f"({written / elapsed:,.0f} items/s, {workers} workers), and {searched:,} search keys."
            )
        )

    @staticmethod
    def describe(spec: SyntheticSpec) -> str:
        return (
            f"{spec.documents:,} documents x {spec.positions:,} positions, {spec.versions} superseded versions, "
            f"{spec.funds} fund{'s' if spec.funds != 1 else ''}, seed {spec.seed}"
        )

    def load_sample(self, repository: DocumentRepository) -> None:
        items = sample_items()
        months = {e.as_of_date for e in sample_entities() if getattr(e, "latest", False) and e.as_of_date}
        catalog_items = [to_item(MonthCatalogEntry(month)) for month in sorted(months)]
        repository.bulk_load(items + catalog_items + sample_register_items(), workers=1)  # + registers
        searched = DocumentListRepository().put_search_items(s for item in items for s in search_items_of_item(item))
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded the seed sample: {len(items)} fund items (DOC001, DOC002), "
                f"{len(catalog_items)} month-catalog entries and {searched} search keys."
            )
        )
