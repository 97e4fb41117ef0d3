"""A document's versions from the shell: current and superseded copies in a date range, or a
field-by-field comparison of one superseded version with the current one."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.core.management.base import CommandError, CommandParser
from rich.table import Table

from documents import selectors
from fundportal.access.commands import add_scope_arguments, scope_from_options
from fundportal.domain import dates
from fundportal.domain.access import AccessScope
from fundportal.domain.kinds import validate_id
from fundportal.domain.model import Document
from fundportal.management.base import DynamoCommand
from fundportal.management.output import PipeSafeMixin, console, write_csv

COLUMNS = (
    "version",
    "version_date",
    "revision",
    "title",
    "status",
    "as_of_date",
    "currency",
    "updated_at",
    "updated_by",
)


def parse_date(value: str | None, option: str) -> date | None:
    if value is None:
        return None
    try:
        parsed = date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"Invalid {option} date '{value}': use YYYY-MM-DD.") from None
    if not dates.in_range(parsed):
        raise CommandError(f"Invalid {option} date '{value}': {dates.range_message('date')}")
    return parsed


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def version_row(document: Document) -> dict[str, str]:
    return {
        "version": document.version,
        "version_date": _text(document.version_date) if not document.latest else "current",
        "revision": str(document.revision),
        "title": document.title,
        "status": document.status,
        "as_of_date": _text(document.as_of_date),
        "currency": document.currency,
        "updated_at": _text(document.updated_at),
        "updated_by": document.updated_by or "",
    }


class Command(PipeSafeMixin, DynamoCommand):
    help = (
        "Show a document's versions: the current one and superseded copies archived between --from and --to "
        "(inclusive, YYYY-MM-DD; one Query with SK BETWEEN). --compare DATE shows field-by-field differences "
        "between the version archived on that date and the current one. "
        "Example: manage.py document_history DOC001 --compare 2025-09-01"
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("document", help="document id, e.g. DOC001")
        parser.add_argument("--from", dest="start", metavar="DATE", help="first archive date (YYYY-MM-DD)")
        parser.add_argument("--to", dest="end", metavar="DATE", help="last archive date (YYYY-MM-DD)")
        parser.add_argument("--compare", metavar="DATE", help="compare the version archived on DATE with the current")
        parser.add_argument("--format", choices=("table", "json", "csv"), default="table", help="(table)")
        add_scope_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        document_id = validate_id(options["document"], "document id")
        start = parse_date(options["start"], "--from")
        end = parse_date(options["end"], "--to")
        compare = parse_date(options["compare"], "--compare")
        if start and end and start > end:
            raise CommandError(f"--from {start} is after --to {end}.")
        scope = scope_from_options(options)
        if compare is not None:
            self.compare(document_id, compare, options["format"], scope)
            return
        current, history = selectors.document_versions(document_id=document_id, start=start, end=end, scope=scope)
        rows = [version_row(current)] + [version_row(d) for d in history]  # type: ignore[arg-type]
        self.emit(rows, COLUMNS, options["format"], title=f"{document_id}: {len(history)} superseded versions")

    def compare(self, document_id: str, on: date, output: str, scope: AccessScope) -> None:
        current, history = selectors.document_versions(document_id=document_id, scope=scope)
        candidates = [d for d in history if d.version_date == on]
        if not candidates:
            dates = ", ".join(sorted({_text(d.version_date) for d in history})) or "none"
            raise CommandError(f"Document '{document_id}' has no version archived on {on} (archived: {dates}).")
        then = max(candidates, key=lambda d: (d.version_revision or 0, d.revision))
        changed = [field for field in selectors.compare(current, then) if field.changed]
        rows = [{"field": f.name, "then": _text(f.historical), "now": _text(f.current)} for f in changed]
        if output == "json":
            payload = {
                "document": document_id,
                "compared": on.isoformat(),
                "revision_then": then.revision,
                "revision_now": current.revision,
                "differences": rows,
            }
            self.stdout.write(json.dumps(payload, indent=2))
            return
        title = f"{document_id}: version of {on} (revision {then.revision}) vs current (revision {current.revision})"
        if not rows and output == "table":
            self.stdout.write(f"{title}: no differences.")
            return
        self.emit(rows, ("field", "then", "now"), output, title=title)

    def emit(self, rows: list[dict[str, str]], columns: tuple[str, ...], output: str, title: str) -> None:
        if output == "json":
            self.stdout.write(json.dumps(rows, indent=2))
        elif output == "csv":
            write_csv(self, columns, rows)
        else:
            table = Table(title=title)
            for column in columns:
                table.add_column(column.replace("_", " "), overflow="fold")
            for row in rows:
                table.add_row(*(row[c] for c in columns))
            console(self).print(table)
