"""A position across every document from the shell, with totals (called, distributed,
unfunded, DPI). Reads every page of the position index."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.core.management.base import CommandError, CommandParser
from rich.table import Table

from fundportal.dynamo import FundRepository
from fundportal.dynamo.entities import PositionEntry, dpi
from fundportal.dynamo.keys import POSITION_KINDS, Kind, validate_id
from fundportal.management.base import DynamoCommand
from fundportal.management.output import PipeSafeMixin, console, write_csv

COLUMNS = ("document", "as_of_date", "entity", "amount", "currency", "status", "due_date", "fund", "investor")


@dataclass
class PositionTotals:
    """Totals of one currency: sums of calls and distributions (cancelled ones left out) and the
    unfunded commitment of the latest as-of date."""

    currency: str
    called: Decimal = Decimal(0)
    distributed: Decimal = Decimal(0)
    unfunded: Decimal | None = None
    unfunded_as_of: date | None = None

    def add(self, entry: PositionEntry) -> None:
        if not entry.counts_in_totals:
            return
        if entry.kind is Kind.CAPITAL_CALL:
            self.called += entry.amount
        elif entry.kind is Kind.DISTRIBUTION:
            self.distributed += entry.amount
        elif self.unfunded_as_of is None or (entry.as_of_date and entry.as_of_date >= self.unfunded_as_of):
            self.unfunded, self.unfunded_as_of = entry.amount, entry.as_of_date

    @property
    def dpi(self) -> Decimal | None:
        return dpi(self.distributed, self.called)

    def as_dict(self) -> dict[str, Any]:
        return {
            "currency": self.currency,
            "called": str(self.called),
            "distributed": str(self.distributed),
            "unfunded": None if self.unfunded is None else str(self.unfunded),
            "unfunded_as_of": self.unfunded_as_of.isoformat() if self.unfunded_as_of else None,
            "dpi": None if self.dpi is None else str(self.dpi),
        }


def totals_by_currency(entries: list[PositionEntry]) -> list[PositionTotals]:
    totals: dict[str, PositionTotals] = {}
    for entry in sorted(entries, key=lambda e: (e.as_of_date or date.min, e.document_id)):
        totals.setdefault(entry.currency, PositionTotals(entry.currency)).add(entry)
    return [totals[c] for c in sorted(totals)]


def money(amount: Decimal | None, currency: str) -> str:
    return "-" if amount is None else f"{currency} {amount:,.2f}"


def entry_row(entry: PositionEntry) -> dict[str, str]:
    return {
        "document": entry.document_id,
        "as_of_date": entry.as_of_date.isoformat() if entry.as_of_date else "",
        "entity": entry.kind.slug,
        "amount": f"{entry.amount:.2f}",
        "currency": entry.currency,
        "status": entry.status,
        "due_date": entry.due_date.isoformat() if entry.due_date else "",
        "fund": entry.fund_id,
        "investor": entry.investor_id,
    }


class Command(PipeSafeMixin, DynamoCommand):
    help = (
        "Report a position (Fund + Investor) across every document: each capital call, distribution and "
        "unfunded commitment, and totals (called, distributed, unfunded = latest by as-of date, DPI). "
        "Reads every page of GSI_Position_Document. Example: manage.py position_report POSITION_1 --format csv"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("position", help="position id, e.g. POSITION_1")
        parser.add_argument(
            "--entity", choices=[k.slug for k in POSITION_KINDS], help="only this entity type (default: all three)"
        )
        parser.add_argument("--format", choices=("table", "json", "csv"), default="table", help="(table)")

    def handle(self, *args: Any, **options: Any) -> None:
        position_id = validate_id(options["position"], "position id")
        kind = Kind.from_slug(options["entity"]) if options["entity"] else None
        entries = FundRepository().position_entries(position_id, kind)
        if not entries:
            what = f"{kind.slug.replace('_', ' ')} entries" if kind else "entries"
            raise CommandError(f"Position '{position_id}' has no {what}.")
        entries.sort(key=lambda e: (e.as_of_date or date.min, e.document_id, e.kind.value))
        totals = totals_by_currency(entries)
        output = options["format"]
        if output == "json":
            payload = {
                "position": position_id,
                "entity": kind.slug if kind else None,
                "documents": len({e.document_id for e in entries}),
                "entries": [entry_row(e) for e in entries],
                "totals": [t.as_dict() for t in totals],
            }
            self.stdout.write(json.dumps(payload, indent=2))
        elif output == "csv":
            self.write_csv(entries)
        else:
            self.print_table(position_id, entries, totals)

    def write_csv(self, entries: list[PositionEntry]) -> None:
        write_csv(self, COLUMNS, (entry_row(e) for e in entries))

    def print_table(self, position_id: str, entries: list[PositionEntry], totals: list[PositionTotals]) -> None:
        documents = len({e.document_id for e in entries})
        table = Table(title=f"{position_id}: {len(entries):,} entries in {documents:,} documents")
        for column in COLUMNS:
            table.add_column(column.replace("_", " "), justify="right" if column == "amount" else "left")
        for entry in entries:
            row = entry_row(entry)
            row["amount"] = money(entry.amount, entry.currency)
            table.add_row(*(row[c] for c in COLUMNS))
        out = console(self, width=160)
        out.print(table)
        for t in totals:
            out.print(
                f"Totals ({t.currency}): called {money(t.called, t.currency)}, "
                f"distributed {money(t.distributed, t.currency)}, "
                f"unfunded {money(t.unfunded, t.currency)}"
                + (f" (as of {t.unfunded_as_of})" if t.unfunded_as_of else "")
                + f", DPI {t.dpi if t.dpi is not None else '-'}"
            )
