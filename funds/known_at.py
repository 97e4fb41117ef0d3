"""The fund and investor pages as the portal knew them at a moment T (`?known_at=`): the registers
and the fund's summary as they stood at T, from the register versions every register write keeps
(`fundportal.domain.register_versions`), valued as of D (`?as_of=`, default T's day).

- Fund page (`fund_known_at`): its page of 100 slim copies (one Query), ONE Query of the fund's
  register versions replaced after T (`RegisterRepository.fund_versions_after`), then its
  summary and record (one BatchGetItem). The summary at T is today's less those writes' deltas;
  a line changed since T is its version's state then (whole), one registered since is left out,
  any other is its slim copy. A slim copy holds the flows after its NAV's date, so it values a
  line as of D exactly when D is on or after that date; when a line's is not (an `as_of` before
  its NAV), its whole register is read in that same BatchGetItem (the shards, the record and
  those registers): 3 requests while the keys fit 100.
- Investor page: its one Query of whole registers, plus ONE Query of the investor's register
  versions replaced after T (`investor_versions_after`); positions removed since are back.

Why a fund page as of D and known at T can still cost 4 requests: a BatchGetItem takes at most
100 keys, and the summary is `FUND_SUMMARY_SHARDS` shards (10 by default) plus the record, so a
page with more than 100 - shards - 1 (89) lines to read whole (every line's NAV after D: the
usual case for a full page and a D before the last quarter) needs a second BatchGetItem (sent in
parallel, not after). No other order or request does better without changing the table: the
page's ids come from its Query, the lines changed since T and the summary's deltas from the
versions Query (every write of the fund since T, so not a key read), the slim copies lack the
flows before their NAV by design (the plain page's 100 lines stay a few hundred bytes each), a
register's current state is in no version (a version keeps the state a write replaced), and
TransactGetItems has the same 100-item limit at twice the read units. The count is asserted in
tests/web/test_fund_investor_known_at.py so it cannot grow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from fundportal.domain import summary as rule
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.records import FundRecord
from fundportal.domain.register_versions import RegisterVersion, changed_after, registers_known_at, summary_known_at
from fundportal.store.repositories.register import RegisterRepository
from fundportal.store.repositories.summaries import SummaryRepository


def slim_values_at(register: PositionRegister, on: date) -> bool:
    """Whether a slim copy (flows after its NAV's date only) values the line as of `on` exactly:
    no NAV of it (approved or awaiting) is dated after `on`."""
    for rollup in (register.rollup, register.awaiting):
        for data in rollup.values():
            nav = data.get("nav")
            if nav is not None and nav[0][0] > on:
                return False
    return True


def _then_and_short(
    page: Sequence[PositionRegister], versions: Sequence[RegisterVersion], at: datetime, on: date
) -> tuple[list[PositionRegister], list[str]]:
    """The page's registers as they stood at `at`, and the positions among them to read whole
    (a slim copy, unchanged since, that cannot value `on`)."""
    changed = changed_after(versions, at)
    registers = registers_known_at(page, versions, at)
    short = [r.position_id for r in registers if r.position_id not in changed and not slim_values_at(r, on)]
    return registers, short


def _whole(registers: list[PositionRegister], found: Mapping[str, PositionRegister]) -> list[PositionRegister]:
    return [found.get(r.position_id, r) for r in registers]


def fund_registers_known_at(
    page: Sequence[PositionRegister],
    versions: Sequence[RegisterVersion],
    at: datetime,
    on: date,
    repository: RegisterRepository,
) -> list[PositionRegister]:
    """The page's registers as they stood at `at`, each able to value its line as of `on` (a later
    page of an export: those to read whole in one BatchGetItem of their own)."""
    registers, short = _then_and_short(page, versions, at, on)
    if not short:
        return registers
    return _whole(registers, {r.position_id: r for r in repository.in_full(short)})


@dataclass(frozen=True, slots=True)
class FundThen:
    """A fund page's summary, record and page of registers as they stood at a moment."""

    summary: rule.Vector
    record: FundRecord | None
    registers: list[PositionRegister]
    found: bool  # the fund had a summary today (else only its registers tell it exists)


def fund_known_at(
    fund_id: str,
    page: Sequence[PositionRegister],
    versions: Sequence[RegisterVersion],
    at: datetime,
    on: date,
    summaries: SummaryRepository,
) -> FundThen:
    """The fund page as it stood at `at`, valued as of `on`: its summary, its record and the
    registers to read whole in one BatchGetItem (see the module), then the versions applied."""
    registers, short = _then_and_short(page, versions, at, on)
    summary, record, whole = summaries.fund_with_record_and_registers(fund_id, short)
    return FundThen(summary_known_at(summary or {}, versions, at), record, _whole(registers, whole), bool(summary))
