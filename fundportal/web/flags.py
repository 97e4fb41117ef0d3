"""Reconciliation flags as the pages and `reconcile` show them: the flag's data and its sentence
(`fundportal.messages.explain_flag`), worded when shown (a fund page may hold a thousand flags
and lists the first `PAGE_FLAGS`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from fundportal.domain.reconciliation import Flag
from fundportal.messages import explain_flag

# How many flags a page lists; the rest are counted (`manage.py reconcile` lists them all).
PAGE_FLAGS = 50


@dataclass(frozen=True, slots=True)
class FlagLine:
    flag: Flag

    @property
    def text(self) -> str:
        return explain_flag(self.flag)

    @property
    def kind(self) -> str:
        return self.flag.kind.value

    @property
    def informational(self) -> bool:
        return self.flag.informational


# A listed flag as the page shows it: (informational, kind, position id, document id, text), ""
# for an id the flag has not. A plain tuple, so the flags macro unpacks it in its `for` statement
# (no attribute lookups per item: a fund page lists fifty).
ShownFlag = tuple[bool, str, str, str, str]


@dataclass(frozen=True, slots=True)
class FlagList:
    """Flags in the order shown: findings first, informational lines after, each as found."""

    lines: tuple[FlagLine, ...]
    limit: int = PAGE_FLAGS

    def __iter__(self) -> Iterator[FlagLine]:
        return iter(self.lines)

    def __len__(self) -> int:
        return len(self.lines)

    @property
    def shown(self) -> tuple[FlagLine, ...]:
        return self.lines[: self.limit]

    @property
    def rows(self) -> list[ShownFlag]:
        """The listed flags (`shown`) as shown (`ShownFlag`), each worded once."""
        return [
            (flag.informational, flag.kind.value, flag.position_id, flag.document_id, explain_flag(flag))
            for flag in (line.flag for line in self.lines[: self.limit])
        ]

    @property
    def more(self) -> int:
        """How many are not listed on a page."""
        return max(0, len(self.lines) - self.limit)

    @property
    def findings(self) -> int:
        """How many count as flags (informational lines do not)."""
        return sum(1 for line in self.lines if not line.informational)


def flag_lines(flags: Iterable[Flag]) -> FlagList:
    """The flags in the order shown (`FlagList`): findings first, each group as found."""
    findings: list[Flag] = []
    informational: list[Flag] = []
    for flag in flags:
        (informational if flag.informational else findings).append(flag)
    return FlagList(tuple(map(FlagLine, findings + informational)))
