"""A position across every document from the shell, with totals (called, distributed,
unfunded, DPI). Reads every page of the position index."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandError, CommandParser
from rich.table import Table

from fundportal.access.commands import add_scope_arguments, scope_from_options
from fundportal.domain.errors import NotFound
from fundportal.domain.figures import Figures
from fundportal.domain.kinds import POSITION_KINDS, Kind, validate_id
from fundportal.domain.money import format_money, format_ratio
from fundportal.domain.position_entries import PositionEntry
from fundportal.management.base import DynamoCommand
from fundportal.management.output import PipeSafeMixin, console, write_csv
from positions import selectors

COLUMNS = ("document", "as_of_date", "entity", "amount", "currency", "status", "due_date", "fund", "investor")


def figures_dict(figures: Figures) -> dict[str, Any]:
    """JSON of one currency's figures (exact decimals as strings)."""

    def text(value: Any) -> str | None:
        return None if value is None else str(value)

    return {
        "currency": figures.currency,
        "called": str(figures.called.amount),
        "called_pending": str(figures.called_pending.amount),
        "distributed": str(figures.distributed.amount),
        "distributed_pending": str(figures.distributed_pending.amount),
        "unfunded": text(figures.unfunded and figures.unfunded.amount),
        "unfunded_as_of": text(figures.unfunded_as_of and figures.unfunded_as_of.isoformat()),
        "dpi": text(figures.dpi),
        "dpi_settled": text(figures.dpi_settled),
    }


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
        add_scope_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        position_id = validate_id(options["position"], "position id")
        kind = Kind.from_slug(options["entity"]) if options["entity"] else None
        try:
            report = selectors.position_report(position_id=position_id, kind=kind, scope=scope_from_options(options))
        except NotFound:
            what = f"{kind.slug.replace('_', ' ')} entries" if kind else "entries"
            raise CommandError(f"Position '{position_id}' has no {what}.") from None
        entries, totals = report.entries, report.figures
        output = options["format"]
        if output == "json":
            payload = {
                "position": position_id,
                "entity": kind.slug if kind else None,
                "documents": len({e.document_id for e in entries}),
                "entries": [entry_row(e) for e in entries],
                "totals": [figures_dict(t) for t in totals],
            }
            self.stdout.write(json.dumps(payload, indent=2))
        elif output == "csv":
            self.write_csv(entries)
        else:
            self.print_table(position_id, entries, totals)

    def write_csv(self, entries: list[PositionEntry]) -> None:
        write_csv(self, COLUMNS, (entry_row(e) for e in entries))

    def print_table(self, position_id: str, entries: list[PositionEntry], totals: list[Figures]) -> None:
        documents = len({e.document_id for e in entries})
        table = Table(title=f"{position_id}: {len(entries):,} entries in {documents:,} documents")
        for column in COLUMNS:
            table.add_column(column.replace("_", " "), justify="right" if column == "amount" else "left")
        for entry in entries:
            row = entry_row(entry)
            row["amount"] = format_money(entry.money)
            table.add_row(*(row[c] for c in COLUMNS))
        out = console(self, width=160)
        out.print(table)
        for t in totals:
            out.print(
                f"Totals ({t.currency}): called {format_money(t.called)} "
                f"(pending {format_money(t.called_pending)}), "
                f"distributed {format_money(t.distributed)} (pending {format_money(t.distributed_pending)}), "
                f"unfunded {format_money(t.unfunded)}"
                + (f" (as of {t.unfunded_as_of})" if t.unfunded_as_of else "")
                + f", DPI {format_ratio(t.dpi)}, DPI (settled) {format_ratio(t.dpi_settled)}"
            )
