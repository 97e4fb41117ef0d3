"""How a register's replaced state (`RegisterVersion`, known_at on the fund and investor pages) is
stored: in its position's history partition (`keys.register_history_keys`), and under its fund on
the document index and under its investor on the investor index (`REGHIST#FUND#<fund>`,
`REGHIST#INVESTOR#<investor>`, sorted by when it was replaced), so every register write of a fund
or an investor after a moment is one Query. No page, seed query or register reader reads those
partitions. The replaced register is kept whole in `Before` (its attributes as the register item
holds them, less its keys and its slim copy), the write's summary delta in `Delta` (the
summary's attribute names). Positions registered together may keep one `Registrations` item in
their fund's history partition instead (`keys.registrations_keys`): the positions in `Positions`,
the summed delta in `Delta`, under the fund only (each register says when it was registered)."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from fundportal.domain.position_register import PositionRegister
from fundportal.domain.register_versions import RegisterVersion, Registrations
from fundportal.domain.summary import Measure

from ..schema import DOCUMENT_INDEX, INVESTOR_INDEX, TABLE
from . import keys
from .codecs import DATETIME, INTEGER, TEXT, Codec
from .entities import MAPS
from .entity_map import Attribute, EntityMap
from .register_maps import REGISTER

REGISTER_VERSION_TYPE = "RegisterVersion"
REGISTRATIONS_TYPE = "Registrations"
# Attributes of the register item that are not its state: its keys and its fund page copy.
_NOT_STATE = frozenset({TABLE.pk, TABLE.sk, "EntityType", "Lines", *TABLE.attribute_names()})


def replaced_at_text(at: datetime) -> str:
    """The sortable text of a replacement time (UTC, to the microsecond)."""
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def _before_out(register: PositionRegister | None) -> dict[str, Any] | None:
    if register is None:
        return None
    return {name: value for name, value in REGISTER.to_item(register).items() if name not in _NOT_STATE}


def _before_in(value: dict[str, Any] | None) -> PositionRegister | None:
    return None if not value else REGISTER.from_item(value)


def _delta_out(delta: dict[Measure, Decimal]) -> dict[str, Decimal]:
    return {keys.summary_attribute(code, what, on): amount for (code, what, on), amount in delta.items() if amount}


def _delta_in(value: dict[str, Any] | None) -> dict[Measure, Decimal]:
    found: dict[Measure, Decimal] = {}
    for name, amount in (value or {}).items():
        measure = keys.parse_summary_attribute(name)
        if measure is not None:
            found[measure] = Decimal(amount)
    return found


BEFORE = Codec(_before_out, _before_in)
DELTA = Codec(lambda v: _delta_out(v) or None, _delta_in)


def _table_keys(version: RegisterVersion) -> tuple[str, str]:
    return keys.register_history_keys(version.position_id, replaced_at_text(version.replaced_at), version.revision)


def _index_sk(version: RegisterVersion) -> str:
    return keys.register_history_index_sk(replaced_at_text(version.replaced_at), version.position_id, version.revision)


REGISTER_VERSION = EntityMap(
    RegisterVersion,
    REGISTER_VERSION_TYPE,
    table=_table_keys,
    attributes=(
        Attribute("position_id", "Position", TEXT),  # not PositionId: no position entity
        Attribute("fund_id", "FundId", TEXT, ""),
        Attribute("investor_id", "InvestorId", TEXT, ""),
        Attribute("replaced_at", "ReplacedAt", DATETIME),
        Attribute("revision", "ReplacedRevision", INTEGER, 0),
        Attribute("before", "Before", BEFORE),
        Attribute("delta", "Delta", DELTA, {}),
    ),
    indexes={
        DOCUMENT_INDEX: lambda v: (keys.register_history_fund_pk(v.fund_id), _index_sk(v)),
        INVESTOR_INDEX: lambda v: (keys.register_history_investor_pk(v.investor_id), _index_sk(v)),
    },
)
MAPS[RegisterVersion] = REGISTER_VERSION


def _registrations_keys(registrations: Registrations) -> tuple[str, str]:
    at = replaced_at_text(registrations.replaced_at)
    return keys.registrations_keys(registrations.fund_id, at, registrations.position_ids[0])


POSITION_IDS = Codec(list, lambda v: tuple(v or ()))

REGISTRATIONS = EntityMap(
    Registrations,
    REGISTRATIONS_TYPE,
    table=_registrations_keys,
    attributes=(
        Attribute("fund_id", "FundId", TEXT, ""),
        Attribute("replaced_at", "ReplacedAt", DATETIME),
        Attribute("position_ids", "Positions", POSITION_IDS, ()),
        Attribute("delta", "Delta", DELTA, {}),
    ),
    indexes={DOCUMENT_INDEX: _registrations_keys},
)
MAPS[Registrations] = REGISTRATIONS


def versions_of_item(item: dict[str, Any]) -> list[RegisterVersion]:
    """The versions a history item holds: a version, or positions registered together, each as
    a version registering it (`Registrations.as_versions`)."""
    if item.get("EntityType") == REGISTRATIONS_TYPE:
        registrations: Registrations = REGISTRATIONS.from_item(item)
        return registrations.as_versions()
    return [REGISTER_VERSION.from_item(item)]
