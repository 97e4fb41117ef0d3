"""How a position's register is stored (the fund, position and investor pages' index copies)."""

from __future__ import annotations

from typing import Any

from fundportal.domain.position_register import PositionRegister

from ..schema import FUND_INDEX, INVESTOR_INDEX, POSITION_INDEX
from . import keys
from .codecs import (
    COMMITMENT,
    DATETIME,
    INTEGER,
    MARKERS,
    OPTIONAL_TEXT,
    REGISTER_ROLLUP,
    TEXT,
    commitment_history_in,
    read_awaiting,
    register_lines_out,
    register_rollup_out,
)
from .companions import register_companions
from .entity_map import Attribute, EntityMap

REGISTER_TYPE = "PositionRegister"
# The former investor copy of a register (see keys.legacy_investor_copy_sk): maintenance only.
LEGACY_INVESTOR_COPY_TYPE = "PositionRegisterInvestorCopy"


REGISTER_TYPES = frozenset((REGISTER_TYPE,))


# Attributes of the register the position page reads from GSI_Position_Document (schema INCLUDE).
REGISTER_PROJECTION = ("Commitment", "Rollup", "Revision")


# --- position register ------------------------------------------------------------------------------------


def _read_register_extras(item: dict[str, Any], values: dict[str, Any]) -> None:
    """The commitment's dated history and the awaiting-approval part, held inside attributes."""
    values["commitments"] = commitment_history_in(item.get("Commitment"))
    read_awaiting(item, values)


REGISTER = EntityMap(
    PositionRegister,
    REGISTER_TYPE,
    table=lambda r: (keys.register_pk(r.position_id), keys.register_sk()),
    attributes=(
        Attribute("position_id", "PositionId"),
        Attribute("fund_id", "FundId", TEXT, ""),
        Attribute("investor_id", "InvestorId", TEXT, ""),
        Attribute("currency", "Currency", TEXT, "USD"),
        # The commitment effective today, and its dated history when one is recorded (codecs).
        Attribute("commitment", "Commitment", COMMITMENT, value=lambda r: (r.commitment, r.commitments)),
        Attribute("revision", "Revision", INTEGER, 0),
        Attribute("rollup", "Rollup", REGISTER_ROLLUP, value=register_rollup_out),
        Attribute("updated_at", "UpdatedAt", DATETIME),
        Attribute("updated_by", "UpdatedBy", OPTIONAL_TEXT, ""),
        Attribute("imports", "Imports", MARKERS, ()),
        Attribute("registered_at", "RegisteredAt", DATETIME),
    ),
    read_keys=_read_register_extras,
    # The fund page's slim copy (no dated flows), projected by its index instead of Rollup.
    stamp=lambda r: {"Lines": register_lines_out(r)},
    indexes={
        # The fund page and every reader by fund (slim copies only: a register is never copied
        # whole under its fund's one index key), first in the position page (position index),
        # the investor page.
        FUND_INDEX: lambda r: keys.fund_page_index_keys(r.fund_id, r.position_id),
        POSITION_INDEX: lambda r: keys.register_position_index_keys(r.position_id),
        INVESTOR_INDEX: lambda r: keys.investor_index_keys(r.investor_id, r.position_id),
    },
    companions=register_companions,  # asked for when the position's first entry registers it
)


def is_register_item(item: dict[str, Any]) -> bool:
    return item.get("EntityType") in REGISTER_TYPES
