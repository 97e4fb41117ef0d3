"""A position's reconciliation on its page, from what the page already read (no request of its
own): computed vs reported unfunded from the register, the entries on the page against the
register's fund and currency, and the NAV roll-forward between the page's NAV entries. The rules
are `fundportal.domain.reconciliation`'s."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from fundportal.domain.position_entries import PositionEntry
from fundportal.domain.position_register import PositionRegister
from fundportal.domain.reconciliation import Flag, entry_flags, nav_roll_forward, unnamed
from fundportal.web.flags import FlagList, flag_lines
from funds.reconciliation import GroupReconciliation, Line, group_reconciliation


@dataclass(frozen=True, slots=True)
class PositionReconciliation:
    unfunded: GroupReconciliation  # computed vs reported, a line per currency (empty without a register)
    flags: FlagList  # the register's and the entries' flags, findings first

    @property
    def findings(self) -> int:
        return self.flags.findings


def position_reconciliation(
    position_id: str,
    register: PositionRegister | None,
    headline: Sequence[Line],
    entries: Sequence[PositionEntry],
) -> PositionReconciliation:
    """`headline`: the register's lines (`funds.lines.position_lines`); `entries`: the
    entries the page shows (one page of the position index: a roll-forward needs both NAVs on it)."""
    unfunded = group_reconciliation(headline)
    held = entry_flags(entries, register.fund_id, register.currency, holder="register") if register else []
    flags: list[Flag] = unnamed((line.flag for line in unfunded.flags), held)
    flags += held
    flags += nav_roll_forward(position_id, entries)
    return PositionReconciliation(unfunded=unfunded, flags=flag_lines(flags))


class Row(Protocol):
    @property
    def entries(self) -> list[PositionEntry]: ...


def row_entries(rows: Sequence[Row]) -> list[PositionEntry]:
    """The entries of a position page's rows (`positions.selectors.DocumentRow`), row by row,
    each row's in column order (the kinds' order)."""
    return [entry for row in rows for entry in row.entries]
