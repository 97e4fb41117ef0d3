"""The fund and investor pages as the portal knew them at a moment T (`?known_at=`): the registers
and the fund's summary as they stood at T, from the register versions every register write keeps
(`fundportal.domain.register_versions`), valued as of D (`?as_of=`, default T's day).

- Fund page: its summary and record (one BatchGetItem) and its page of 100 slim copies (one
  Query) as today, plus ONE Query of the fund's register versions replaced after T
  (`RegisterRepository.fund_versions_after`): the summary at T is today's less those writes'
  deltas; a line changed since T is its version's state then (whole), one registered since is
  left out, any other is its slim copy. A slim copy holds the flows after its NAV's date, so it
  values a line as of D exactly when D is on or after that date; only when a line's is not (an
  `as_of` before its NAV) are those lines read whole (the as-of view's one BatchGetItem).
- Investor page: its one Query of whole registers, plus ONE Query of the investor's register
  versions replaced after T (`investor_versions_after`); positions removed since are back.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from fundportal.domain.position_register import PositionRegister
from fundportal.domain.register_versions import RegisterVersion, changed_after, registers_known_at
from fundportal.store.repositories.register import RegisterRepository


def slim_values_at(register: PositionRegister, on: date) -> bool:
    """Whether a slim copy (flows after its NAV's date only) values the line as of `on` exactly:
    no NAV of it (approved or awaiting) is dated after `on`."""
    for rollup in (register.rollup, register.awaiting):
        for data in rollup.values():
            nav = data.get("nav")
            if nav is not None and nav[0][0] > on:
                return False
    return True


def fund_registers_known_at(
    page: Sequence[PositionRegister],
    versions: Sequence[RegisterVersion],
    at: datetime,
    on: date,
    repository: RegisterRepository,
) -> list[PositionRegister]:
    """The page's registers as they stood at `at`, each able to value its line as of `on`."""
    changed = changed_after(versions, at)
    registers = registers_known_at(page, versions, at)
    short = [r.position_id for r in registers if r.position_id not in changed and not slim_values_at(r, on)]
    if not short:
        return registers
    whole = {r.position_id: r for r in repository.in_full(short)}
    return [whole.get(r.position_id, r) for r in registers]
