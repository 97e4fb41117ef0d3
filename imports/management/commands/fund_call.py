"""A fund-wide capital call or distribution from the shell — the same plan and write as the
fund call page (`imports.fund_calls`)."""

from __future__ import annotations

import json
import uuid
from datetime import date
from decimal import Decimal
from typing import Any

from django.core.management.base import CommandError, CommandParser

from fundportal.access.commands import add_scope_arguments, scope_from_options
from fundportal.domain import dates
from fundportal.domain.allocation import Basis, Purpose
from fundportal.domain.amounts import AmountError, parse_amount, plain_amount
from fundportal.domain.money import format_money
from fundportal.management.base import DynamoCommand
from imports.fund_calls import FundCallPlan, FundCallRefused, fund_call_create, fund_call_plan, parse_weights


class Command(DynamoCommand):
    help = (
        "Call or distribute a total across a fund's positions, pro rata to commitment or unfunded (or custom "
        "weights), allocated to the cent by largest remainder; writes one notice document awaiting approval. "
        "Calls: investment, management_fee, expenses; distributions: return_of_capital, gain, income."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("fund", help="fund id")
        parser.add_argument("--total", required=True, help="the amount to allocate, like 5,000,000.01")
        parser.add_argument("--date", required=True, help="the notice's date, YYYY-MM-DD (the basis is taken then)")
        parser.add_argument("--due", help="the due date, YYYY-MM-DD (default: the notice's date)")
        parser.add_argument("--purpose", required=True, choices=[p.value for p in Purpose])
        parser.add_argument("--basis", required=True, choices=[b.value for b in Basis])
        parser.add_argument("--weights", default="", help="custom basis: POSITION=PERCENT,... adding up to 100")
        parser.add_argument("--dry-run", action="store_true", help="show the allocation; write nothing")
        parser.add_argument("--format", choices=("text", "json"), default="text")
        parser.add_argument("--token", help="request token: the same token and values never create two notices")
        parser.add_argument("--user", default="fund_call", help="who the audit trail names")
        add_scope_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        basis = Basis(options["basis"])
        try:
            total = parse_amount(options["total"])
            weights = parse_weights(options["weights"]) if basis is Basis.CUSTOM else None
        except (AmountError, ValueError) as error:
            raise CommandError(str(error)) from None
        scope = scope_from_options(options)
        plan = fund_call_plan(
            fund_id=options["fund"],
            on=_date(options["date"], "--date"),
            due=_date(options["due"], "--due") if options["due"] else None,
            total=total,
            purpose=Purpose(options["purpose"]),
            basis=basis,
            weights=weights,
            token=options["token"] or uuid.uuid4().hex,
            scope=scope,
        )
        document_id, created = None, False
        if not options["dry_run"]:
            try:
                result = fund_call_create(plan=plan, user=options["user"], scope=scope)
            except FundCallRefused as error:
                raise CommandError(f"{plan.fund_id}: {'; '.join(error.reasons)} Nothing was written.") from None
            document_id, created = result.document_id, result.created
        if options["format"] == "json":
            self.stdout.write(json.dumps(_as_json(plan, document_id, created), indent=2))
            return
        for line in plan.lines:
            self.stdout.write(f"{line.position_id}\t{line.investor_id}\t{format_money(line.amount)}\t{line.share} %")
        if document_id is None:
            self.stdout.write(f"{plan.fund_id}: {format_money(plan.total)} to {len(plan.lines)} positions (dry run).")
        else:
            done = "created, awaiting approval" if created else "already created by this request"
            self.stdout.write(f"{plan.fund_id}: {format_money(plan.total)} in {document_id} ({done}).")


def _date(text: str, option: str) -> date:
    try:
        value = date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"{option} must be a date: YYYY-MM-DD.") from None
    if not dates.in_range(value):
        raise CommandError(dates.range_message(f"{option} date"))
    return value


def _amount(value: Any, currency: str) -> str | None:
    return None if value is None else plain_amount(Decimal(value.amount), currency)


def _as_json(plan: FundCallPlan, document_id: str | None, created: bool) -> dict[str, Any]:
    currency = plan.total.currency.code
    return {
        "fund_id": plan.fund_id,
        "date": plan.on.isoformat(),
        "due_date": plan.due.isoformat(),
        "purpose": plan.purpose.value,
        "basis": plan.basis.value,
        "currency": currency,
        "total": _amount(plan.total, currency),
        "document_id": document_id,
        "created": created,
        "positions": [
            {
                "position_id": line.position_id,
                "investor_id": line.investor_id,
                "amount": _amount(line.amount, currency),
                "share_percent": str(line.share),
                "unfunded_before": _amount(line.unfunded_before, currency),
                "unfunded_after": _amount(line.unfunded_after, currency),
            }
            for line in plan.lines
        ],
        "left_out": list(plan.left_out),
    }
