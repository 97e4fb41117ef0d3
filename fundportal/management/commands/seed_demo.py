"""Load demo data: the seed article's sample (--sample) or deterministic synthetic data at scale.
The loading is `fundportal.ops.loading`'s; this command parses options and prints."""

from __future__ import annotations

from argparse import ArgumentTypeError
from typing import Any

from django.core.management.base import CommandError, CommandParser

from fundportal.management.base import DynamoCommand
from fundportal.management.output import item_progress
from fundportal.ops.loading import foreign_documents, has_documents, load_sample, load_synthetic, measure_synthetic
from fundportal.ops.synthetic import SyntheticSpec
from fundportal.store import tables


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise ArgumentTypeError(f"expected a whole number, got '{value}'") from None
    if number < 0:
        raise ArgumentTypeError(f"expected 0 or more, got {number}")
    return number


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
        if options["if_empty"] and has_documents():
            self.stdout.write("The table already has documents; nothing loaded.")
            return
        if spec is None:
            self.load_sample()
        else:
            self.refuse_foreign_documents(spec)
            self.load_synthetic(spec, options["workers"] or 1, options["verbosity"] > 0)

    @staticmethod
    def refuse_foreign_documents(spec: SyntheticSpec) -> None:
        """Synthetic data overwrites only what seed_demo wrote (re-running a seed is idempotent),
        never a document someone else made: the seed sample's DOC001, an analyst's document."""
        foreign = foreign_documents(spec)
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
        measured = measure_synthetic(spec)
        self.stdout.write(
            f"Dry run: {measured.items:,} items, about {measured.size:,} bytes ({measured.size / 1024 / 1024:.1f} MiB) "
            f"for {self.describe(spec)}; nothing written."
        )

    def load_synthetic(self, spec: SyntheticSpec, workers: int, show: bool) -> None:
        with item_progress(self, enabled=show) as progress:
            task = progress.add_task("BatchWriteItem", total=spec.item_count)
            loaded = load_synthetic(spec, workers=workers, progress=lambda n: progress.advance(task, n))
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded {loaded.items:,} items for {self.describe(spec)} in {loaded.seconds:.1f} s "
                f"({loaded.items / loaded.seconds:,.0f} items/s, {workers} workers), "
                f"and {loaded.search_keys:,} search keys."
            )
        )

    @staticmethod
    def describe(spec: SyntheticSpec) -> str:
        return (
            f"{spec.documents:,} documents x {spec.positions:,} positions, {spec.versions} superseded versions, "
            f"{spec.funds} fund{'s' if spec.funds != 1 else ''}, seed {spec.seed}"
        )

    def load_sample(self) -> None:
        loaded = load_sample()
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded the seed sample: {loaded.fund_items} fund items (DOC001, DOC002), "
                f"{loaded.month_entries} month-catalog entries and {loaded.search_keys} search keys."
            )
        )
