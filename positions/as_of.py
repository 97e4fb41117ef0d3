"""A position as of a date and as known at a moment (`?as_of=`, `?known_at=`): the position page,
its CSV/XLSX exports and the statement PDF read it. Its one Query reads the register and every
entry of the position (`entries_with_register`: one Query for a position up to 1 MB of entries,
as the page's own); as known at T, one Query more reads the position's kept earlier values
(`PositionRepository.entry_versions`), and every figure is computed from those entries by
`fundportal.domain.time_travel` (the register's roll-up holds only the latest NAV)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from fundportal.domain.access import OPERATOR, AccessScope
from fundportal.domain.commitments import CommitmentChange, change_in_effect, history_of
from fundportal.domain.errors import NotFound
from fundportal.domain.figures_builder import FiguresBuilder
from fundportal.domain.known_at import entries_counted_at
from fundportal.domain.money import Money, money
from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.time_travel import (
    commitments_known_at,
    entries_as_of,
    valuation_date,
    value_entries,
)
from fundportal.store.repositories import PositionRepository
from funds.lines import PositionLine, valued_line
from positions.selectors import (
    CommitmentLine,
    PositionHistory,
    PositionReport,
    approved_entries,
    charts_of,
    document_rows,
)


@dataclass(frozen=True, slots=True)
class PositionAsOf:
    """A position's counted entries up to D (as known at T) and its register."""

    position_id: str
    fund_id: str
    investor_id: str
    on: date
    known_at: datetime | None
    entries: list[PositionEntry]  # approved, dated up to D, as known at T; by date, document, kind
    register: PositionRegister | None
    commitments: tuple[CommitmentChange, ...]  # the history as known at T

    def commitment(self, currency: str) -> Money | None:
        """The commitment effective at D as known at T (register's currency only)."""
        if self.register is None or currency != self.register.currency:
            return None
        change = change_in_effect(self.commitments, self.on)
        return None if change is None else money(change.amount, self.register.currency)

    def lines(self) -> list[PositionLine]:
        """The headline: a line per currency, valued as of D."""
        lines = []
        for valued in value_entries(self.entries, self.on):
            figures = valued.figures
            lines.append(
                valued_line(
                    self.position_id,
                    self.fund_id,
                    self.investor_id,
                    figures,
                    self.commitment(figures.currency),
                    valued.irr,
                    register_currency=self.register.currency if self.register else "",
                )
            )
        return lines

    def commitment_lines(self) -> list[CommitmentLine]:
        """The commitment history as known at T, newest first; the line in effect at D marked."""
        in_effect = change_in_effect(self.commitments, self.on)
        code = self.register.currency if self.register else "USD"
        return [
            CommitmentLine(
                None if c.undated else c.effective_on,
                money(c.amount, code),
                c.reason,
                c.recorded_by,
                c.recorded_at,
                c is in_effect,
            )
            for c in reversed(self.commitments)
        ]


def position_as_of(
    *,
    position_id: str,
    as_of: date | None = None,
    known_at: datetime | None = None,
    scope: AccessScope = OPERATOR,
    repository: PositionRepository | None = None,
    today: date | None = None,
    then: PositionRegister | None = None,
    changed_since: bool = True,
) -> PositionAsOf:
    """The position valued as of `as_of` (None: `known_at`'s day, else today) as known at
    `known_at` (None: now). As known at T, its kept earlier values are read too (one Query more)
    and each document counts from its approval (`fundportal.domain.known_at`); an entry a merge
    moved in after T does not count (the register keeps when it moved), one moved out after T
    does (its kept value, removed at the move). A position merged away entirely (no register, no
    entries) is not found: its approval times went with its register (reading its last register
    version would be a second request more), unless the caller read it: `then`, the register as
    it stood at T (`register_versions`). `changed_since=False`: the caller knows no register
    write of the position after T (every entry write, approval and commitment change rewrites
    it), so nothing counted changed since and the kept values are not read."""
    repository = repository or PositionRepository()
    entries, register = repository.entries_with_register(position_id)
    if register is None and known_at is not None:
        register = then
    held_by = register or (entries[0] if entries else None)
    if held_by is None:
        raise NotFound("Position", position_id)
    scope.require_position(held_by.fund_id, held_by.investor_id, "Position", position_id)
    on = valuation_date(as_of, known_at, today or date.today())
    entries = approved_entries(entries, register)
    if known_at is not None:
        versions = [
            v
            for v in (repository.entry_versions(position_id) if changed_since else [])
            if register is None or register.counts_document(v.document_id)
        ]
        approvals = register.approvals if register is not None else {}
        moved_in = register.moved_in if register is not None else {}
        entries = entries_counted_at(entries, versions, approvals, known_at, moved_in)
    entries = entries_as_of(entries, on)
    entries.sort(key=lambda e: (e.as_of_date or date.min, e.document_id, e.kind.value))
    history = history_of(register.commitment, register.commitments) if register else ()
    if known_at is not None:
        history = commitments_known_at(history, known_at)
    return PositionAsOf(
        position_id=position_id,
        fund_id=held_by.fund_id,
        investor_id=held_by.investor_id,
        on=on,
        known_at=known_at,
        entries=entries,
        register=register,
        commitments=history,
    )


def position_history_as_of(
    *,
    position_id: str,
    as_of: date | None = None,
    known_at: datetime | None = None,
    text: bool = True,
    scope: AccessScope = OPERATOR,
    repository: PositionRepository | None = None,
) -> PositionHistory:
    """The position page as of `as_of` / as known at `known_at`: every document up to D on one
    page (no cursor), the headline valued as of D, the commitment effective then. `text` False:
    the rows' cells without their texts (the API)."""
    position = position_as_of(
        position_id=position_id, as_of=as_of, known_at=known_at, scope=scope, repository=repository
    )
    builder = FiguresBuilder()
    rows = document_rows(position.entries, builder, text=text)
    return PositionHistory(
        position_id=position_id,
        fund_id=position.fund_id,
        investor_id=position.investor_id,
        rows=rows,
        start=[],
        figures=builder.by_currency(),
        charts=charts_of(rows),
        page_number=1,
        next_cursor=None,
        newer_cursor=None,
        register=position.register,
        headline=position.lines() if position.register else [],
        commitments=position.commitment_lines() if position.register else [],
    )


def position_report_as_of(
    *,
    position_id: str,
    as_of: date | None = None,
    known_at: datetime | None = None,
    scope: AccessScope = OPERATOR,
    repository: PositionRepository | None = None,
) -> PositionReport:
    """The position's CSV/XLSX rows as of `as_of` / as known at `known_at` (the page's as-of view)."""
    position = position_as_of(
        position_id=position_id, as_of=as_of, known_at=known_at, scope=scope, repository=repository
    )
    builder = FiguresBuilder()
    rows = document_rows(position.entries, builder)
    return PositionReport(
        position_id=position_id,
        entries=position.entries,
        rows=rows,
        figures=builder.by_currency(),
        fund_id=position.fund_id,
        investor_id=position.investor_id,
    )
