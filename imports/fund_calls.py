"""Fund-wide calls and distributions: `fund_call_plan` (reads the fund's registers, allocates;
writes nothing) and `fund_call_create` (writes the plan as one notice document awaiting approval).
The page (`imports.fund_call_views`) and `manage.py fund_call` call exactly these.

- The plan reads the fund's position registers (one Query), takes each position's basis on the
  call's date (commitment effective then, or computed unfunded) and allocates the total by
  largest remainder (`fundportal.domain.allocation`). Positions with a zero basis get nothing and
  are left out of the notice.
- Creating writes the plan through the notice import (`imports.services`): the plan becomes a
  notice file of one document, validated against the table like any upload, then written by
  the import writer: the entries, then their registers, each in transactions of at most 100
  items through the unit of work (`imports.fund_call_writes`: no BatchWriteItem, so a page may
  write it), then one publishing transaction. The document is Submitted: it awaits another user's approval, and
  carries the purpose.
- Idempotent on the request token: the document id is derived from it, and the same token with
  the same values is the very same file, whose import record answers a second submit (a double
  click, a lost reply) with the notice already created. The same token with other values is
  refused (the document exists), never a second notice.
- The user's fund coverage is checked before anything is read: edit rights on the fund.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

from moneyed import Money

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.allocation import (
    Basis,
    Purpose,
    allocate,
    basis_weights,
    custom_weights,
    natural_key,
    share_percent,
    unfunded_around,
)
from fundportal.domain.amounts import AmountError, parse_amount, plain_amount
from fundportal.domain.errors import AllocationRefused, AlreadyImported, NotFound
from fundportal.domain.kinds import validate_id
from fundportal.domain.money import money
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.reconciliation import computed_unfunded
from fundportal.store.repositories.imports import ImportRepository
from fundportal.store.repositories.register import RegisterRepository

from .fund_call_writes import TransactionalImportRepository
from .reader import COLUMNS
from .services import import_apply, import_prepare

STATUS = "Pending"  # a notice's entries are due, not settled


class FundCallRefused(ValueError):
    """The notice file built from a plan did not validate against the table (the same token
    was used with other values, or the fund changed meanwhile): the reasons, for the user."""

    def __init__(self, reasons: list[str]) -> None:
        self.reasons = reasons
        super().__init__("; ".join(reasons))


@dataclass(frozen=True, slots=True)
class CallLine:
    """One position's part of a fund-wide call or distribution."""

    position_id: str
    investor_id: str
    basis: Money | Decimal | None  # commitment or unfunded on the date; percent for custom weights
    share: Decimal  # percent of the total
    amount: Money
    unfunded_before: Money | None
    unfunded_after: Money | None


@dataclass(frozen=True, slots=True)
class FundCallPlan:
    fund_id: str
    on: date
    due: date
    total: Money
    purpose: Purpose
    basis: Basis
    token: str
    lines: tuple[CallLine, ...]  # positions with an amount, in natural order
    left_out: tuple[str, ...]  # positions whose basis is zero on the date

    @property
    def document_id(self) -> str:
        return notice_id(self.fund_id, self.on, self.purpose, self.token)

    @property
    def title(self) -> str:
        what = "Capital call" if self.purpose.is_call else "Distribution"
        return f"{what} notice: {self.purpose.label}, {self.fund_id}, {self.on.isoformat()}"


@dataclass(frozen=True, slots=True)
class FundCallResult:
    document_id: str
    created: bool  # False: a submit with the same token had created it already


def notice_id(fund_id: str, on: date, purpose: Purpose, token: str) -> str:
    """The notice's document id, derived from the request token (so a resubmit names the same
    document): CALL-<fund>-<yyyymmdd>-<8 hex> or DIST-..., at most 53 characters."""
    digest = hashlib.sha256(f"{fund_id}\n{token}".encode()).hexdigest()[:8]
    prefix = "CALL" if purpose.is_call else "DIST"
    return validate_id(f"{prefix}-{fund_id[:30]}-{on:%Y%m%d}-{digest}", "document id")


def fund_call_plan(
    *,
    fund_id: str,
    on: date,
    total: Decimal,
    purpose: Purpose,
    basis: Basis,
    token: str,
    due: date | None = None,
    weights: dict[str, Decimal] | None = None,
    scope: AccessScope = OPERATOR,
    repository: ImportRepository | None = None,
) -> FundCallPlan:
    """Each position's amount (reads the fund's registers; writes nothing). AllocationRefused
    for a basis or total the rules refuse; NotFound for a fund without positions or outside
    `scope`; NotPermitted without edit rights on it."""
    validate_id(fund_id, "fund id")
    scope.require_edit(fund_id, "Fund", fund_id)
    gateway = (repository or ImportRepository()).gateway
    registers = sorted(RegisterRepository(gateway).fund_positions(fund_id), key=lambda r: natural_key(r.position_id))
    if not registers:
        raise NotFound("Fund", fund_id)
    currency = _currency(registers)
    amount = money(total, currency)
    unfunded = {r.position_id: computed_unfunded(r.commitment_on(on), r.figures_of(currency, on)) for r in registers}
    # Before and after the notice: as of its flow date (the due date), like its PDF.
    flow_date = due or on
    at_flow = {
        r.position_id: computed_unfunded(r.commitment_on(flow_date), r.figures_of(currency, flow_date))
        for r in registers
    }
    bases: dict[str, Money | Decimal | None]
    if basis is Basis.CUSTOM:
        shares = custom_weights(weights or {}, {r.position_id for r in registers})
        bases = dict(shares)
    else:
        chosen = {
            r.position_id: (r.commitment_on(on) if basis is Basis.COMMITMENT else unfunded[r.position_id])
            for r in registers
        }
        shares = basis_weights(chosen, currency)
        bases = dict(chosen)
    allocated = allocate(amount, shares)
    lines, left_out = [], []
    for register in registers:
        position_id = register.position_id
        part = allocated[position_id]
        if not part.amount:
            left_out.append(position_id)
            continue
        change = unfunded_around(at_flow[position_id], part, call=purpose.is_call, counted=False)
        lines.append(
            CallLine(
                position_id,
                register.investor_id,
                bases[position_id],
                share_percent(shares[position_id], shares),
                part,
                change.before,
                change.after,
            )
        )
    return FundCallPlan(fund_id, on, flow_date, amount, purpose, basis, token, tuple(lines), tuple(left_out))


def _currency(registers: list[PositionRegister]) -> str:
    """The fund's one currency: positions in two currencies are never allocated together."""
    first = registers[0].currency
    for register in registers:
        if register.currency != first:
            raise AllocationRefused(
                AllocationRefused.MIXED_CURRENCIES,
                expected=first,
                given=register.currency,
                position_id=register.position_id,
            )
    return first


def notice_file(plan: FundCallPlan) -> bytes:
    """The plan as a notice file (CSV, the import template's columns): one document, a row per LP."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    currency = plan.total.currency.code
    for line in plan.lines:
        writer.writerow(
            {
                "document_id": plan.document_id,
                "title": plan.title,
                "fund_id": plan.fund_id,
                "as_of_date": plan.on.isoformat(),
                "currency": currency,
                "position_id": line.position_id,
                "investor_id": line.investor_id,
                "kind": plan.purpose.kind.slug,
                "amount": plain_amount(line.amount.amount, currency),
                "status": STATUS,
                "due_date": plan.due.isoformat(),
            }
        )
    return out.getvalue().encode()


def fund_call_create(
    *,
    plan: FundCallPlan,
    user: str,
    scope: AccessScope = OPERATOR,
    repository: ImportRepository | None = None,
) -> FundCallResult:
    """Write the plan as one notice document awaiting approval (see the module's rules)."""
    scope.require_edit(plan.fund_id, "Fund", plan.fund_id)
    repository = repository or TransactionalImportRepository()
    data = notice_file(plan)
    prepared = import_prepare(data=data, filename=f"{plan.document_id}.csv", scope=scope, repository=repository)
    if prepared.done is not None:
        return FundCallResult(plan.document_id, created=False)
    if not prepared.ok:
        validation = prepared.validation
        reasons = [e.reason for e in validation.errors] if validation else [prepared.file_error or ""]
        raise FundCallRefused(sorted(set(reasons)))
    assert prepared.validation is not None
    for document_plan in prepared.validation.plans:
        document_plan.document = replace(document_plan.document, purpose=plan.purpose.value)
    try:
        import_apply(prepared=prepared, user=user, workers=1, repository=repository)
    except AlreadyImported:  # a concurrent submit of the same token published it first
        return FundCallResult(plan.document_id, created=False)
    return FundCallResult(plan.document_id, created=True)


def parse_weights(text: str) -> dict[str, Decimal]:
    """Custom weights as typed: `POSITION_1=25, POSITION_2=75` (commas or new lines between
    them; percent, digits and an optional fraction). ValueError naming the first bad part."""
    weights: dict[str, Decimal] = {}
    for part in (p.strip() for p in text.replace("\n", ",").split(",")):
        if not part:
            continue
        position_id, _, value = (s.strip() for s in part.partition("="))
        try:
            validate_id(position_id, "position id")
            if position_id in weights:
                raise ValueError(position_id)
            weights[position_id] = parse_amount(value)
        except (ValueError, AmountError):
            raise ValueError(f"'{part[:60]}' is not POSITION=PERCENT (like P7=25), once each.") from None
    return weights
