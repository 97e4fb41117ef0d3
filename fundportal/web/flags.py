"""Reconciliation flags as the pages and `reconcile` show them: the flag's data and its sentence
(`fundportal.messages.explain_flag`), worded once in the selector, not per render."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from fundportal.domain.reconciliation import Flag
from fundportal.messages import explain_flag


@dataclass(frozen=True, slots=True)
class FlagLine:
    flag: Flag
    text: str

    @property
    def kind(self) -> str:
        return self.flag.kind.value

    @property
    def informational(self) -> bool:
        return self.flag.informational


def flag_lines(flags: Iterable[Flag]) -> list[FlagLine]:
    """Findings first, informational lines after, each in the order found."""
    flags = list(flags)
    ordered = [f for f in flags if not f.informational] + [f for f in flags if f.informational]
    return [FlagLine(flag, explain_flag(flag)) for flag in ordered]
