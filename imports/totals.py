"""The control totals of a notice: rows and amounts per document, currency and kind, what an
analyst ticks off against the notice before confirming (Money: never added across currencies)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

from fundportal.domain.kinds import POSITION_KINDS, Kind
from fundportal.domain.money import Money, money


class Counted(Protocol):
    """A parsed row, as far as the totals read it."""

    @property
    def document_id(self) -> str: ...
    @property
    def currency(self) -> str: ...
    @property
    def kind(self) -> Kind: ...
    @property
    def amount(self) -> Decimal: ...


@dataclass(frozen=True, slots=True)
class ControlTotal:
    """Rows and their amount per document, currency and kind."""

    document_id: str
    currency: str
    kind: Kind
    rows: int
    amount: Money


def control_totals(parsed: Iterable[tuple[Any, Counted]]) -> list[ControlTotal]:
    """Rows and amounts per document, currency and kind (Money: never added across currencies)."""
    groups: dict[tuple[str, str, Kind], list[Decimal]] = defaultdict(list)
    for _, p in parsed:
        groups[(p.document_id, p.currency, p.kind)].append(p.amount)
    order = {kind: i for i, kind in enumerate(POSITION_KINDS)}
    return [
        ControlTotal(d, c, k, len(amounts), sum((money(a, c) for a in amounts), money(Decimal(0), c)))
        for (d, c, k), amounts in sorted(groups.items(), key=lambda g: (g[0][0], g[0][1], order[g[0][2]]))
    ]
