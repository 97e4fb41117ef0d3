# ruff: noqa: RUF009  (`stored()` returns a dataclasses.field, as in entities.py)
"""The position register (issue 13): one item per position holding its fund, investor, currency,
commitment and the roll-up of its entries (the `FiguresBuilder` state: sums per currency, the
latest unfunded commitment and NAV with their rank, and the dated cash flows IRR needs).

It is kept in the same TransactWriteItems as every entry write, conditioned on its `Revision`,
so it can never disagree with the entries. The register also carries the keys of the sparse
`GSI_Investor_Position` index (`INVESTOR#<id>` / `POSITION#<id>`): that is what makes the investor
page one Query (see README, "Position register").

The one exception is a notice import's new document (`imports.writing`): its entries go in by
BatchWriteItem, then the registers in a conditioned transaction that also lists the import's
marker (`imports`), so a re-run counts those entries once.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from moneyed import Money

from fundportal.domain.figures import Figures, FiguresBuilder, percent_called
from fundportal.domain.money import money
from fundportal.domain.returns import irr

from . import keys
from .entities import AuditEntry
from .fields import DATETIME, INTEGER, NUMBER, OPTIONAL_TEXT, TEXT, Codec, decode_fields, encode_fields, stored
from .schema import ENTITY_INDEX, INVESTOR_INDEX, POSITION_INDEX, TABLE

REGISTER_TYPE = "PositionRegister"
# The former investor copy of a register (see keys.legacy_investor_copy_sk): maintenance only.
LEGACY_INVESTOR_COPY_TYPE = "PositionRegisterInvestorCopy"
FUND_CATALOG_TYPE = "FundCatalog"
REGISTER_TYPES = frozenset((REGISTER_TYPE,))
# Attributes of the register the position page reads from GSI_Position_Document (schema INCLUDE).
REGISTER_PROJECTION = ("Commitment", "Rollup", "Revision")


def _index(name: str, pk: str, sk: str) -> dict[str, str]:
    index = TABLE.index(name)
    return {index.pk: pk, index.sk: sk}


# --- the roll-up as a DynamoDB map --------------------------------------------------------------

_MIN_AT = datetime.min.replace(tzinfo=UTC)


def _rank_out(rank: Any) -> list[Any] | None:
    if rank is None:
        return None
    (on, at, document_id), amount = rank
    return ["" if on == date.min else on.isoformat(), "" if at == _MIN_AT else at.isoformat(), document_id, amount]


def _rank_in(value: Any) -> Any:
    if not value:
        return None
    on, at, document_id, amount = value
    when = datetime.fromisoformat(at) if at else _MIN_AT
    when = when if when.tzinfo else when.replace(tzinfo=UTC)
    return (date.fromisoformat(on) if on else date.min, when, document_id), Decimal(amount)


def rollup_out(state: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {
        code: {
            "Sums": data["sums"],
            "Unfunded": _rank_out(data["unfunded"]),
            "Nav": _rank_out(data["nav"]),
            "Flows": {on.isoformat(): pair for on, pair in data["flows"].items()},
        }
        for code, data in state.items()
    }


def rollup_in(value: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    return {
        code: {
            "sums": [Decimal(v) for v in data["Sums"]],
            "unfunded": _rank_in(data.get("Unfunded")),
            "nav": _rank_in(data.get("Nav")),
            "flows": {
                date.fromisoformat(on): [Decimal(v) for v in pair] for on, pair in (data.get("Flows") or {}).items()
            },
        }
        for code, data in (value or {}).items()
    }


ROLLUP = Codec(rollup_out, rollup_in)
# Markers of the imports whose new-document entries the roll-up counts (issue 14): absent when none.
MARKERS = Codec(lambda v: list(v) or None, tuple)


# --- the entity -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PositionRegister:
    position_id: str = stored("PositionId")
    fund_id: str = stored("FundId", TEXT, "")
    investor_id: str = stored("InvestorId", TEXT, "")
    currency: str = stored("Currency", TEXT, "USD")
    commitment: Decimal | None = stored("Commitment", NUMBER)
    revision: int = stored("Revision", INTEGER, 0)  # 0: not stored yet
    rollup: dict[str, dict[str, Any]] = stored("Rollup", ROLLUP, None)
    updated_at: datetime | None = stored("UpdatedAt", DATETIME)
    updated_by: str | None = stored("UpdatedBy", OPTIONAL_TEXT, "")
    # Imports (markers) whose new-document entries are counted and not yet published: an import
    # writes those entries first and the register after, so a re-run can tell whether it counted.
    imports: tuple[str, ...] = stored("Imports", MARKERS, ())
    # Memo of the builder restored from `rollup` and of its figures (the item is immutable).
    _builder: list[Any] = field(default_factory=list, compare=False, repr=False)

    def __post_init__(self) -> None:
        keys.validate_id(self.position_id, "position id")
        keys.validate_id(self.fund_id, "fund id")
        keys.validate_id(self.investor_id, "investor id")
        if self.rollup is None:
            object.__setattr__(self, "rollup", {})

    # --- figures ---

    def builder(self) -> FiguresBuilder:
        """A fresh builder holding the roll-up (add/remove entries, then `with_builder`)."""
        return FiguresBuilder.restore(self.rollup)

    def _cached(self) -> FiguresBuilder:
        if not self._builder:
            self._builder.append(self.builder())
        return self._builder[0]

    def with_builder(self, builder: FiguresBuilder) -> PositionRegister:
        return replace(self, rollup=builder.state(), _builder=[])

    def ids(self) -> tuple[str, str, str]:
        """(position, fund, investor) ids."""
        return self.position_id, self.fund_id, self.investor_id

    @property
    def commitment_money(self) -> Money | None:
        return None if self.commitment is None else money(self.commitment, self.currency)

    def figures(self) -> list[Figures]:
        """Figures per currency, by currency code (the register's own currency always among them);
        computed once per register object (a fund page asks for them several times)."""
        if len(self._builder) < 2:
            builder = self._cached()
            found = {f.currency: f for f in builder.by_currency()}
            if self.currency not in found:
                found[self.currency] = builder.figures(self.currency)
            self._builder.append([found[code] for code in sorted(found)])
        return self._builder[1]

    def figures_of(self, currency: str) -> Figures:
        """The figures of `currency` (zero figures if the position has none in it)."""
        found = next((f for f in self.figures() if f.currency == currency), None)
        return found if found is not None else self._cached().figures(currency)

    def flows(self, currency: str) -> list[tuple[date, Decimal]]:
        """IRR's cash flows of `currency` (see `FiguresBuilder.flows`)."""
        return self._cached().flows(currency)

    def irr(self, currency: str) -> Decimal | None:
        f = self.figures_of(currency)
        return irr(self.flows(currency), f.nav.amount if f.nav else None, f.nav_as_of)

    def percent_called(self, figures: Figures) -> Decimal | None:
        commitment = self.commitment_money if figures.currency == self.currency else None
        return percent_called(figures.called, commitment)

    # --- items ---

    def _attributes(self) -> dict[str, Any]:
        return encode_fields(self)

    def to_item(self) -> dict[str, Any]:
        return {
            "PK": keys.register_pk(self.position_id),
            "SK": keys.register_sk(),
            "EntityType": REGISTER_TYPE,
            **self._attributes(),
            **_index(ENTITY_INDEX, *keys.fund_index_keys(self.fund_id, self.position_id)),
            **_index(POSITION_INDEX, *keys.register_position_index_keys(self.position_id)),
            **_index(INVESTOR_INDEX, *keys.investor_index_keys(self.investor_id, self.position_id)),
        }

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> PositionRegister:
        return cls(**decode_fields(cls, item))


def is_register_item(item: dict[str, Any]) -> bool:
    return item.get("EntityType") in REGISTER_TYPES


@dataclass(frozen=True, slots=True)
class FundCatalogEntry:
    """A fund that has registered positions (tiny catalog partition; the funds list)."""

    fund_id: str

    def to_item(self) -> dict[str, Any]:
        pk, sk = keys.fund_catalog_keys(self.fund_id)
        return {"PK": pk, "SK": sk, "EntityType": FUND_CATALOG_TYPE}


@dataclass(frozen=True, slots=True)
class PositionAudit:
    """An audit entry of a position-level write (commitment), kept in the position's partition."""

    position_id: str
    audit: AuditEntry

    def to_item(self) -> dict[str, Any]:
        return position_audit_item(self.position_id, self.audit)


def position_audit_item(position_id: str, audit: AuditEntry) -> dict[str, Any]:
    """An audit item of a position-level write (commitment), in `AUDIT#POSITION#<id>`."""
    item = audit.to_item()
    item["PK"] = keys.position_audit_pk(position_id)
    return item
