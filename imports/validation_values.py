"""What the notice file validation (`imports.validation`) reads and returns: what the table
holds for the file (`Known`, `Registered`, `Existing`), each row's errors and result, and the
plans of what to write per document (`DocumentPlan`, `Validation`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from fundportal.domain.kinds import Kind, SearchKind
from fundportal.domain.model import Document
from fundportal.domain.position_entries import PositionEntry

from .reader import RawRow
from .totals import ControlTotal


@dataclass(frozen=True, slots=True)
class RowError:
    row: int  # spreadsheet row number (0: the file as a whole)
    column: str
    reason: str


@dataclass(frozen=True, slots=True)
class Registered:
    """What validation needs of a registered position."""

    fund_id: str
    investor_id: str


@dataclass(frozen=True, slots=True)
class Existing:
    """An entry already in the table and the token of the write that made it."""

    entry: PositionEntry
    token: str | None


@dataclass
class Known:
    """What the table holds for the file's documents and positions (read before validating)."""

    documents: dict[str, Document] = field(default_factory=dict)
    entries: dict[str, dict[tuple[Kind, str], Existing]] = field(default_factory=dict)
    registers: dict[str, Registered] = field(default_factory=dict)
    # (kind, lower-cased id) -> the ids of that kind in the table spelled that way in any case
    spellings: dict[tuple[SearchKind, str], set[str]] = field(default_factory=dict)
    # fund -> the positions registered in it, for the funds where a row names a position that is
    # neither registered nor opened by the file (`guards.funds_to_read`)
    fund_positions: dict[str, set[str]] = field(default_factory=dict)


@dataclass
class DocumentPlan:
    document: Document
    is_new: bool
    entries: list[PositionEntry] = field(default_factory=list)  # still to write
    already: int = 0  # rows an earlier run of this file wrote
    landed: list[PositionEntry] = field(default_factory=list)  # those rows' entries, as stored
    rows: int = 0


@dataclass
class RowResult:
    row: RawRow
    errors: list[RowError] = field(default_factory=list)
    already: bool = False

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class Validation:
    results: list[RowResult]
    file_errors: list[RowError]
    plans: list[DocumentPlan]
    totals: list[ControlTotal]

    @property
    def errors(self) -> list[RowError]:
        return [*self.file_errors, *(e for r in self.results for e in r.errors)]

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def to_write(self) -> int:
        return sum(len(p.entries) for p in self.plans)

    @property
    def already(self) -> int:
        return sum(p.already for p in self.plans)
