"""The ILPA capital account statement's reads: a position's (`/positions/<pos>/statement.pdf|.xlsx
?period=`), an investor's across funds (`/investors/<inv>/statement...`) and every LP's of a fund
(`/funds/<fund>/statements.zip`). The figures are `fundportal.domain.capital_account`'s, on the
entries the position page's as-of view reads (`positions.as_of.position_as_of`: approved
documents, as known at `?known_at=`, dated up to the period's end).

Every statement is as of its period's end (`?as_of=` does not move it) and, with `?known_at=`,
as the book stood at T (the position page's known-at path). Requests: a position's statement is
one Query (its entries and register, as the position page) and one BatchGetItem (its fund's and
investor's records, for the names), as known at T one Query more (its kept values); an
investor's is one Query of the investor index (its registers and record), one Query per
position and one BatchGetItem of the fund records, as known at T one Query more (the investor's
register versions since T) and one more per position written since T; a fund's ZIP reads the
fund's pages (one Query per 100 positions), the investors' records (one BatchGetItem per 100)
and one Query per position (as known at T, two: its kept values).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.capital_account import CurrencyAccount, combine, position_account
from fundportal.domain.errors import NotFound
from fundportal.domain.periods import Period
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.records import FundRecord, InvestorRecord
from fundportal.store.repositories import PositionRepository
from fundportal.store.repositories.records import RecordRepository
from funds import investor_pages
from funds.selectors import fund_export
from positions.as_of import position_as_of


@dataclass(frozen=True, slots=True)
class PositionAccount:
    """One position's statement blocks (a block per currency) and its names."""

    position_id: str
    fund_id: str
    investor_id: str
    fund_name: str
    investor_name: str
    accounts: list[CurrencyAccount]


@dataclass(frozen=True, slots=True)
class CapitalAccountStatement:
    """What a statement file shows: one position, or an investor's positions with their totals
    per currency (`totals`; a position's are its own blocks)."""

    subject: str  # "position" or "investor"
    subject_id: str
    period: Period
    known_at: datetime | None
    positions: list[PositionAccount]
    totals: list[CurrencyAccount] = field(default_factory=list)
    investor_name: str = ""

    @property
    def as_of(self) -> date:
        """The date every figure is valued as of: the period's end."""
        return self.period.end

    @property
    def filename_stem(self) -> str:
        return f"statement-{self.subject_id}-{self.period.slug}"

    @property
    def reconciles(self) -> bool:
        return all(a.reconciles for p in self.positions for a in p.accounts)


def _name(record: FundRecord | InvestorRecord | None) -> str:
    return record.name if record is not None else ""


def _position_account(
    position_id: str,
    period: Period,
    known_at: datetime | None,
    scope: AccessScope,
    repository: PositionRepository | None,
    funds: dict[str, FundRecord] | None = None,
    investors: dict[str, InvestorRecord] | None = None,
    then: PositionRegister | None = None,
    changed_since: bool = True,
) -> PositionAccount:
    """The position's blocks: the position page's as-of view as of the period's end, as known
    at `known_at` (`position_as_of`; `then` and `changed_since` as it takes them)."""
    position = position_as_of(
        position_id=position_id,
        as_of=period.end,
        known_at=known_at,
        scope=scope,
        repository=repository,
        then=then,
        changed_since=changed_since,
    )
    register = position.register
    accounts = position_account(
        position.entries,
        period,
        commitments=position.commitments,
        commitment_currency=register.currency if register is not None else "",
    )
    if not accounts and register is None:
        raise NotFound("Position", position_id)
    return PositionAccount(
        position_id=position_id,
        fund_id=position.fund_id,
        investor_id=position.investor_id,
        fund_name=_name((funds or {}).get(position.fund_id)),
        investor_name=_name((investors or {}).get(position.investor_id)),
        accounts=accounts,
    )


def position_capital_account(
    *,
    position_id: str,
    period: Period,
    known_at: datetime | None = None,
    scope: AccessScope = OPERATOR,
    repository: PositionRepository | None = None,
    records: RecordRepository | None = None,
) -> CapitalAccountStatement:
    """A position's statement for `period` (as known at `known_at`, None: now)."""
    account = _position_account(position_id, period, known_at, scope, repository)
    funds, investors = (records or RecordRepository()).records_of([account.fund_id], [account.investor_id])
    named = PositionAccount(
        account.position_id,
        account.fund_id,
        account.investor_id,
        _name(funds.get(account.fund_id)),
        _name(investors.get(account.investor_id)),
        account.accounts,
    )
    return CapitalAccountStatement(
        subject="position",
        subject_id=position_id,
        period=period,
        known_at=known_at,
        positions=[named],
        totals=named.accounts,
        investor_name=named.investor_name,
    )


def investor_capital_account(
    *,
    investor_id: str,
    period: Period,
    known_at: datetime | None = None,
    scope: AccessScope = OPERATOR,
    repository: PositionRepository | None = None,
    records: RecordRepository | None = None,
) -> CapitalAccountStatement:
    """An investor's statement across its funds (within `scope`): each position's blocks and the
    totals per currency (never summed across currencies). As known at T: the investor's
    positions as they stood then (one Query more: a position merged away or removed since is
    back, one registered since is left out), and only a position written since T reads its kept
    values (the others count as now)."""
    held = investor_pages.investor_registers_then(investor_id=investor_id, scope=scope, known_at=known_at)
    funds, _ = (records or RecordRepository()).records_of([r.fund_id for r in held.registers], [])
    investors = {investor_id: held.record} if held.record is not None else {}
    positions = [
        _position_account(
            r.position_id,
            period,
            known_at,
            scope,
            repository,
            funds,
            investors,
            then=r,
            changed_since=r.position_id in held.changed,
        )
        for r in held.registers
    ]
    return CapitalAccountStatement(
        subject="investor",
        subject_id=investor_id,
        period=period,
        known_at=known_at,
        positions=positions,
        totals=combine(a for p in positions for a in p.accounts),
        investor_name=_name(held.record),
    )


@dataclass(frozen=True, slots=True)
class FundStatements:
    """A fund's LP statements, read one position at a time as the caller consumes them."""

    fund_id: str
    fund_name: str
    period: Period
    position_ids: list[str]
    statements: Iterator[CapitalAccountStatement]


def fund_position_ids(*, fund_id: str, scope: AccessScope = OPERATOR) -> tuple[str, list[tuple[str, str]]]:
    """The fund's name and its (position, investor) pairs within `scope`, in the fund page's
    order (one Query per 100 positions, the first with the fund's record)."""
    first, later = fund_export(fund_id=fund_id, scope=scope)
    seen: dict[str, str] = {}
    for lines in (first.lines, *later):
        for line in lines:
            seen.setdefault(line.position_id, line.investor_id)
    return _name(first.record), list(seen.items())


def fund_statements(
    *,
    fund_id: str,
    period: Period,
    known_at: datetime | None = None,
    scope: AccessScope = OPERATOR,
    positions: Iterable[tuple[str, str]] | None = None,
    fund_name: str | None = None,
) -> FundStatements:
    """Every LP's statement of the fund: the positions (`fund_position_ids` unless given), the
    investors' names (one BatchGetItem per 100), then one Query per position as iterated."""
    if positions is None or fund_name is None:
        fund_name, found = fund_position_ids(fund_id=fund_id, scope=scope)
        positions = found
    pairs = list(positions)
    _, investors = RecordRepository().records_of([], [investor for _, investor in pairs])
    funds = {fund_id: FundRecord(fund_id, fund_name)} if fund_name else {}

    def read() -> Iterator[CapitalAccountStatement]:
        repository = PositionRepository()
        for position_id, _ in pairs:
            account = _position_account(position_id, period, known_at, scope, repository, funds, investors)
            yield CapitalAccountStatement(
                subject="position",
                subject_id=position_id,
                period=period,
                known_at=known_at,
                positions=[account],
                totals=account.accounts,
                investor_name=account.investor_name,
            )

    return FundStatements(fund_id, fund_name, period, [p for p, _ in pairs], read())
