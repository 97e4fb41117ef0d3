"""List the book's reconciliation flags, one a line; exit 1 when anything is flagged."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.management.base import CommandError, CommandParser

from documents.book_reconciliation import book_reconciliation
from fundportal.domain.errors import InvalidId, NotFound
from fundportal.management.base import DynamoCommand
from fundportal.messages import describe

BAD_INPUT = 2


class Command(DynamoCommand):
    help = (
        "List every reconciliation flag, one a line: reported vs computed unfunded (commitment - called), "
        "calls above commitment, a document's capital activity vs the sum of its positions' calls, entries "
        "whose fund or currency disagrees with their register or document, and (informational) each NAV "
        "roll-forward's implied gain or loss. Reads the funds catalog, each fund's registers and the current "
        "documents through the document list (Queries, no Scan). Exits 1 when anything is flagged, 0 when "
        "clean, 2 on bad input. Example: manage.py reconcile --fund FUND_A --as-of 2025-09-30"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--fund", help="one fund's positions and documents (default: every fund)")
        parser.add_argument(
            "--as-of",
            dest="as_of",
            help="only documents dated on or before this date (YYYY-MM-DD); figures counted from their entries",
        )
        parser.add_argument(
            "--strict", action="store_true", help="count the informational NAV roll-forward lines as flags too"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        as_of = _as_of(options["as_of"])
        try:
            report = book_reconciliation(fund_id=options["fund"], as_of=as_of)
        except (NotFound, InvalidId) as error:
            raise CommandError(describe(error), returncode=BAD_INPUT) from error
        for line in report.flags:
            label = "info" if line.informational else "flag"
            self.stdout.write(f"{label} {line.kind}: {line.text}")
        findings = report.findings(informational=options["strict"])
        scope = (
            f"{len(report.funds)} fund{_s(report.funds)}, {report.positions} position{_s(report.positions)}, "
            f"{report.documents} document{_s(report.documents)}" + (f", as of {as_of.isoformat()}" if as_of else "")
        )
        if findings:
            raise CommandError(f"{len(findings)} flag{_s(findings)} in {scope}.", returncode=1)
        self.stdout.write(self.style.SUCCESS(f"Nothing flagged in {scope}."))


def _as_of(value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"--as-of must be a date, YYYY-MM-DD (got {value!r}).", returncode=BAD_INPUT) from None


def _s(count: Any) -> str:
    return "" if (count if isinstance(count, int) else len(count)) == 1 else "s"
