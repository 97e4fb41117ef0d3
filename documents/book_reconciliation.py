"""Every reconciliation flag of the book (or one fund), as of a date: what `manage.py reconcile`
lists. Reads, all Queries (no Scan): the funds catalog, each fund's registers (one Query a
fund), the months catalog and each month's current documents (the document list's sparse
index), and each listed document's partition (one Query a document).

- `as_of`: only documents dated on or before it count (the month index holds dated documents
  only), and each position's figures are then counted from those documents' entries instead of
  its register's roll-up (which holds every entry). The commitment is the one effective on
  `as_of` (`fundportal.domain.commitments.commitment_as_of`, from the register's dated history).
- Without `as_of`, the figures are the registers' (what the pages show).
- Only approved documents' entries are a position's (as in the registers' counted roll-up); a
  document awaiting approval is still checked as a document (its activity, its entries' fund
  and currency).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date

from fundportal.domain.errors import NotFound
from fundportal.domain.figures import Figures
from fundportal.domain.figures_builder import figures_by_currency
from fundportal.domain.kinds import validate_id
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.reconciliation import (
    Flag,
    activity_flags,
    entry_flags,
    nav_roll_forward,
    register_currency_flags,
    unfunded_flags,
    unnamed,
)
from fundportal.store.repositories import DocumentRepository
from fundportal.store.repositories.document_models import DocumentSummary
from fundportal.store.repositories.register import RegisterRepository
from fundportal.web.flags import FlagLine, FlagList, flag_lines


@dataclass(frozen=True, slots=True)
class BookReconciliation:
    funds: list[str]
    positions: int
    documents: int
    flags: FlagList  # findings first, informational after

    def findings(self, *, informational: bool = False) -> list[FlagLine]:
        return [f for f in self.flags if informational or not f.informational]


def book_reconciliation(
    *,
    fund_id: str | None = None,
    as_of: date | None = None,
    registers: RegisterRepository | None = None,
    documents: DocumentRepository | None = None,
) -> BookReconciliation:
    """The flags of every fund (or `fund_id`), as of `as_of` (None: everything recorded)."""
    registers = registers or RegisterRepository()
    documents = documents or DocumentRepository()
    if fund_id is not None:
        validate_id(fund_id, "fund id")
    funds = [fund_id] if fund_id is not None else registers.funds()
    held: list[PositionRegister] = []
    for fund in funds:
        found = registers.fund_positions(fund)
        if fund_id is not None and not found:
            raise NotFound("Fund", fund)
        held += sorted(found, key=lambda r: r.position_id)
    flags: list[Flag] = []
    entries_of: dict[str, list[PositionEntry]] = {}
    read = 0
    for listed in _listed(documents, set(funds), as_of):
        overview = documents.overview(listed.document_id)
        read += 1
        entries = [e for row in overview.positions for e in row.entries]
        flags += activity_flags(
            listed.document_id, overview.capital_activity.money if overview.capital_activity else None, entries
        )
        flags += entry_flags(entries, overview.document.fund_id, overview.document.currency, holder="document")
        if not overview.document.counts_entries:
            continue  # checked as a document; its amounts are not in a position's figures yet
        # (a restatement awaiting approval: its entries' approved values, as stored, count)
        for entry in entries:
            entries_of.setdefault(entry.position_id, []).append(entry)
    for register in held:
        entries = entries_of.get(register.position_id, [])
        figures = figures_by_currency(entries) if as_of else register.figures()
        flags += position_flags(register, entries, figures, as_of=as_of)
    return BookReconciliation(funds=funds, positions=len(held), documents=read, flags=flag_lines(flags))


def position_flags(
    register: PositionRegister, entries: list[PositionEntry], figures: Iterable[Figures], *, as_of: date | None = None
) -> list[Flag]:
    """A position's flags: unfunded and commitment (effective on `as_of`; None: today) per
    currency, currencies and entries against its register, and its NAV roll-forward."""
    figures = list(figures)
    flags: list[Flag] = []
    for own in figures:
        commitment = register.commitment_on(as_of) if own.currency == register.currency else None
        flags += unfunded_flags(register.position_id, commitment, own)
    held = entry_flags(entries, register.fund_id, register.currency, holder="register")
    flags += unnamed(register_currency_flags(register.position_id, register.currency, figures), held)
    flags += held
    flags += nav_roll_forward(register.position_id, entries)
    return flags


def _listed(documents: DocumentRepository, funds: set[str], as_of: date | None) -> Iterator[DocumentSummary]:
    """The current documents of `funds` dated on or before `as_of`, oldest first."""
    for month in sorted(documents.months()):
        year, number = (int(part) for part in month.split("-"))
        if as_of is not None and (year, number) > (as_of.year, as_of.month):
            break
        for listed in sorted(documents.in_month(year, number, newest_first=False), key=lambda d: d.as_of_date):
            if listed.fund_id in funds and (as_of is None or listed.as_of_date <= as_of):
                yield listed
